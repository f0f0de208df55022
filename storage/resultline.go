package storage

// This file is the results log's line: written from a finished game, and read
// back strictly, so only a whole line counts.

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// resultShape is the start every result line has: "dddd-dd-ddTdd:dd:ddZ game=".
const resultShape = "0000-00-00T00:00:00Z game="

// startsLikeResult reports whether b starts as a result line does, or is
// a beginning of that start (a line torn very early).
func startsLikeResult(b []byte) bool {
	if len(b) == 0 {
		return false
	}
	for i := 0; i < len(b) && i < len(resultShape); i++ {
		want := resultShape[i]
		if want == '0' && (b[i] < '0' || b[i] > '9') || want != '0' && b[i] != want {
			return false
		}
	}
	return true
}

// parseResultLine checks a line field by field, in the order resultLine
// writes them, and returns its game id. Two lines glued together by a torn
// write do not pass.
func parseResultLine(line string) (int64, bool) {
	var gameID int64
	rest := line
	field := func(key string, check func(v string) bool) bool {
		if !strings.HasPrefix(rest, key+"=") {
			return false
		}
		rest = rest[len(key)+1:]
		var v string
		if strings.HasPrefix(rest, `"`) {
			q, err := strconv.QuotedPrefix(rest)
			if err != nil {
				return false
			}
			v, rest = q, rest[len(q):]
		} else {
			v, rest, _ = strings.Cut(rest, " ")
			rest = " " + rest
		}
		if check != nil && !check(v) {
			return false
		}
		if rest == "" {
			return true
		}
		if rest[0] != ' ' {
			return false
		}
		rest = rest[1:]
		return true
	}
	quoted := func(v string) bool { _, err := strconv.Unquote(v); return err == nil && strings.HasPrefix(v, `"`) }
	number := func(v string) bool { _, err := strconv.Atoi(v); return err == nil }
	stamp, after, ok := strings.Cut(rest, " ")
	if _, err := time.Parse(time.RFC3339, stamp); !ok || err != nil {
		return 0, false
	}
	rest = after
	ok = field("game", func(v string) bool {
		id, err := strconv.ParseInt(v, 10, 64)
		gameID = id
		return err == nil && id > 0
	}) && field("server", quoted) && field("size", number)
	for _, color := range []string{"black", "white"} {
		ok = ok && field(color, quoted)
		if strings.HasPrefix(rest, color+"_id=") {
			ok = ok && field(color+"_id", quoted)
		} else {
			ok = ok && field(color+"_level", number)
		}
	}
	ok = ok && field("score", func(v string) bool {
		a, b, found := strings.Cut(v, "-")
		return found && number(a) && number(b)
	}) && field("winner", func(v string) bool {
		return v == "black" || v == "white" || v == "draw" || v == "none"
	}) && field("end", func(v string) bool { return v != "" && !strings.ContainsAny(v, `"=`) })
	if ok && strings.HasPrefix(rest, "note=") {
		ok = field("note", quoted)
	}
	if ok && strings.HasPrefix(rest, "time=") {
		ok = field("time", func(v string) bool { return v != "" && strings.Trim(v, "0123456789+dh") == "" })
	}
	if ok && strings.HasPrefix(rest, "tournament=") {
		ok = field("tournament", number)
	}
	if !ok || !strings.HasPrefix(rest, "transcript=") || !field("transcript", quoted) || rest != "" {
		return 0, false
	}
	return gameID, true
}

// resultLines reads games' results log lines, in the order of ids, with
// one query for up to resultLinesAtOnce of them.
func (s *Store) resultLines(ctx context.Context, ids []int64) ([]string, error) {
	lines := make([]string, 0, len(ids))
	for len(ids) > 0 {
		n := min(len(ids), resultLinesAtOnce)
		part, err := s.resultLinesOf(ctx, ids[:n])
		if err != nil {
			return nil, err
		}
		lines, ids = append(lines, part...), ids[n:]
	}
	return lines, nil
}

// resultLinesAtOnce bounds the ids of one query (SQLite's default limit on
// bound variables is far above it).
const resultLinesAtOnce = 500

func (s *Store) resultLinesOf(ctx context.Context, ids []int64) ([]string, error) {
	args := make([]any, len(ids))
	for i, id := range ids {
		args[i] = id
	}
	rows, err := s.db.QueryContext(ctx, `SELECT r.game_id, r.guild_id, r.finished_at, r.size, r.black_id, pb.name, r.black_level,
		r.white_id, pw.name, r.white_level, r.black_discs, r.white_discs, r.winner, r.reason, r.transcript, r.note, r.time_control,
		coalesce(r.tournament_id, 0)
		FROM results r LEFT JOIN players pb ON pb.id = r.black_id LEFT JOIN players pw ON pw.id = r.white_id
		WHERE r.game_id IN (?`+strings.Repeat(", ?", len(ids)-1)+`)`, args...)
	if err != nil {
		return nil, fmt.Errorf("reading results: %w", err)
	}
	defer rows.Close()
	byID := make(map[int64]string, len(ids))
	for rows.Next() {
		var (
			gameID                            int64
			guild, winner, reason, transcript string
			note, control                     string
			finished, tournament              int64
			size, bd, wd                      int
			bid, bname, wid, wname            sql.NullString
			blv, wlv                          sql.NullInt64
		)
		if err := rows.Scan(&gameID, &guild, &finished, &size, &bid, &bname, &blv, &wid, &wname, &wlv, &bd, &wd,
			&winner, &reason, &transcript, &note, &control, &tournament); err != nil {
			return nil, fmt.Errorf("reading results: %w", err)
		}
		side := func(color string, id, name sql.NullString, level sql.NullInt64) string {
			if id.Valid {
				return fmt.Sprintf("%s=%s %s_id=%s", color, strconv.Quote(name.String), color, strconv.Quote(id.String))
			}
			return fmt.Sprintf("%s=\"bot\" %s_level=%d", color, color, level.Int64)
		}
		win := map[string]string{"X": "black", "O": "white", "draw": "draw", "none": "none"}[winner]
		if note != "" {
			reason += " note=" + strconv.Quote(note)
		}
		if control != "" {
			reason += " time=" + control
		}
		if tournament != 0 {
			reason += " tournament=" + strconv.FormatInt(tournament, 10)
		}
		byID[gameID] = fmt.Sprintf("%s game=%d server=%s size=%d %s %s score=%d-%d winner=%s end=%s transcript=%s",
			time.UnixMilli(finished).UTC().Format(time.RFC3339), gameID, strconv.Quote(guild), size,
			side("black", bid, bname, blv), side("white", wid, wname, wlv), bd, wd, win, reason, strconv.Quote(transcript))
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("reading results: %w", err)
	}
	lines := make([]string, len(ids))
	for i, id := range ids {
		line, ok := byID[id]
		if !ok {
			return nil, fmt.Errorf("reading result of game %d: %w", id, sql.ErrNoRows)
		}
		lines[i] = line
	}
	return lines, nil
}

// ResultLines writes the results log line of every game finished at or
// after since, oldest first, to each: the log rebuilt from the database,
// whichever process finished the games.
func (s *Store) ResultLines(ctx context.Context, since time.Time, each func(line string) error) error {
	rows, err := s.db.QueryContext(ctx, `SELECT game_id FROM results WHERE finished_at >= ? ORDER BY finished_at, game_id`, millis(since))
	if err != nil {
		return fmt.Errorf("listing results: %w", err)
	}
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return err
		}
		ids = append(ids, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	lines, err := s.resultLines(ctx, ids)
	if err != nil {
		return err
	}
	for _, line := range lines {
		if err := each(line); err != nil {
			return err
		}
	}
	return nil
}
