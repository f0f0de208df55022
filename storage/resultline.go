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

// resultLine formats the log line of a finished game:
//
//	2026-11-22T04:20:00Z game=42 server="123" size=8 black="alice" black_id="111" white="bot" white_level=5 score=36-28 winner=black end=normal time=3+2 transcript="f5d6c3..."
//
// A game a moderator ended has note="their reason" after end=; time= is
// the time control, left out for a game without one; tournament= the
// tournament the game was paired in, after time=.
func (s *Store) resultLine(ctx context.Context, gameID int64) (string, error) {
	var (
		guild, winner, reason, transcript string
		note, control                     string
		finished, tournament              int64
		size, bd, wd                      int
		bid, bname, wid, wname            sql.NullString
		blv, wlv                          sql.NullInt64
	)
	err := s.db.QueryRowContext(ctx, `SELECT r.guild_id, r.finished_at, r.size, r.black_id, pb.name, r.black_level,
		r.white_id, pw.name, r.white_level, r.black_discs, r.white_discs, r.winner, r.reason, r.transcript, r.note, r.time_control,
		coalesce(r.tournament_id, 0)
		FROM results r LEFT JOIN players pb ON pb.id = r.black_id LEFT JOIN players pw ON pw.id = r.white_id
		WHERE r.game_id = ?`, gameID).Scan(&guild, &finished, &size, &bid, &bname, &blv, &wid, &wname, &wlv, &bd, &wd,
		&winner, &reason, &transcript, &note, &control, &tournament)
	if err != nil {
		return "", fmt.Errorf("reading result of game %d: %w", gameID, err)
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
	return fmt.Sprintf("%s game=%d server=%s size=%d %s %s score=%d-%d winner=%s end=%s transcript=%s",
		time.UnixMilli(finished).UTC().Format(time.RFC3339), gameID, strconv.Quote(guild), size,
		side("black", bid, bname, blv), side("white", wid, wname, wlv), bd, wd, win, reason, strconv.Quote(transcript)), nil
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
	for _, id := range ids {
		line, err := s.resultLine(ctx, id)
		if err != nil {
			return err
		}
		if err := each(line); err != nil {
			return err
		}
	}
	return nil
}
