package storage

// This file is Puzzle Racer's races (package storm): a lobby joined at
// most by MaxRacers, started once by its host, ended or closed once, and
// its message's edits spaced across every process.

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"othello-bot/record"
	"othello-bot/storm"
)

// CreateRace keeps a new race with its host's run in it and returns both
// ids.
func (s *Store) CreateRace(ctx context.Context, race storm.Race) (raceID, runID int64, err error) {
	err = s.inTx(ctx, func(tx *dbTx) error {
		if err := upsertPlayer(ctx, tx, race.Host, race.Created); err != nil {
			return err
		}
		if err := tx.QueryRowContext(ctx, `INSERT INTO races (guild_id, channel_id, host_id, puzzles, created_at)
			VALUES (?, ?, ?, ?, ?) RETURNING id`, race.GuildID, race.ChannelID, race.Host.ID, joinIDs(race.Puzzles),
			millis(race.Created)).Scan(&raceID); err != nil {
			return err
		}
		race.ID = raceID
		return insertRun(ctx, tx, race.Join(race.Host, race.Created), &runID)
	})
	if err != nil {
		return 0, 0, fmt.Errorf("opening a race: %w", err)
	}
	return raceID, runID, nil
}

// SetRaceMessage records the race's message.
func (s *Store) SetRaceMessage(ctx context.Context, id int64, messageID string) error {
	if _, err := s.wdb.ExecContext(ctx, `UPDATE races SET message_id = ? WHERE id = ?`, messageID, id); err != nil {
		return fmt.Errorf("race %d's message: %w", id, err)
	}
	return nil
}

const raceColumns = `r.id, r.guild_id, r.channel_id, r.message_id, r.host_id, p.name, r.puzzles, r.status, r.created_at,
	r.starts_at, r.ends_at FROM races r JOIN players p ON p.id = r.host_id`

func scanRace(row scanner) (storm.Race, error) {
	var (
		r                     storm.Race
		puzzles               string
		status                int
		created, starts, ends int64
	)
	err := row.Scan(&r.ID, &r.GuildID, &r.ChannelID, &r.MessageID, &r.Host.ID, &r.Host.Name, &puzzles, &status, &created, &starts, &ends)
	if errors.Is(err, sql.ErrNoRows) {
		return r, record.ErrNotFound
	}
	if err != nil {
		return r, err
	}
	r.Status, r.Created = storm.RaceStatus(status), fromMillis(created)
	if starts != 0 {
		r.Starts, r.End = fromMillis(starts), fromMillis(ends)
	}
	r.Puzzles, err = splitIDs(puzzles)
	return r, err
}

// Race loads a race, or fails with record.ErrNotFound.
func (s *Store) Race(ctx context.Context, id int64) (storm.Race, error) {
	r, err := scanRace(s.db.QueryRowContext(ctx, `SELECT `+raceColumns+` WHERE r.id = ?`, id))
	if err != nil && !errors.Is(err, record.ErrNotFound) {
		return r, fmt.Errorf("loading race %d: %w", id, err)
	}
	return r, err
}

// JoinRace adds a racer's run to a race still taking racers: storm.
// ErrJoined if they are in it already, ErrRaceClosed if it started,
// ended or is full.
func (s *Store) JoinRace(ctx context.Context, run storm.Run) (int64, error) {
	var id int64
	// Serializable: two joining at once cannot both take the last place.
	err := s.inSerialTx(ctx, func(tx *dbTx) error {
		var status, n int
		if err := tx.QueryRowContext(ctx, `SELECT status, (SELECT count(*) FROM storm_runs WHERE race_id = races.id) FROM races WHERE id = ?`,
			run.Race).Scan(&status, &n); err != nil {
			return err
		}
		if storm.RaceStatus(status) != storm.Lobby || n >= storm.MaxRacers {
			return storm.ErrRaceClosed
		}
		if err := upsertPlayer(ctx, tx, run.Player, run.Started); err != nil {
			return err
		}
		return insertRun(ctx, tx, run, &id)
	})
	switch {
	case isUnique(err):
		return 0, storm.ErrJoined
	case errors.Is(err, storm.ErrRaceClosed):
		return 0, err
	case err != nil:
		return 0, fmt.Errorf("joining race %d: %w", run.Race, err)
	}
	return id, nil
}

// StartRace starts a race taking racers, its runs' clocks with it; false
// if it was not taking racers.
func (s *Store) StartRace(ctx context.Context, id int64, starts, ends time.Time) (bool, error) {
	var n int64
	err := s.inTx(ctx, func(tx *dbTx) error {
		res, err := tx.ExecContext(ctx, `UPDATE races SET status = ?, starts_at = ?, ends_at = ? WHERE id = ? AND status = ?`,
			int(storm.Racing), millis(starts), millis(ends), id, int(storm.Lobby))
		if err == nil {
			n, err = res.RowsAffected()
		}
		if err != nil || n == 0 {
			return err
		}
		_, err = tx.ExecContext(ctx, `UPDATE storm_runs SET ends_at = ? WHERE race_id = ?`, millis(ends), id)
		return err
	})
	if err != nil {
		return false, fmt.Errorf("starting race %d: %w", id, err)
	}
	return n == 1, nil
}

// RaceRuns are a race's runs, in the order they joined.
func (s *Store) RaceRuns(ctx context.Context, raceID int64) ([]storm.Run, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT `+runColumns+` WHERE r.race_id = ? ORDER BY r.id`, raceID)
	if err != nil {
		return nil, fmt.Errorf("reading race %d's runs: %w", raceID, err)
	}
	defer rows.Close()
	var out []storm.Run
	for rows.Next() {
		r, err := scanRun(rows)
		if err != nil {
			return nil, fmt.Errorf("reading race %d's runs: %w", raceID, err)
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// DueRaces are the races whose time has come at now (storm.Race.Due).
func (s *Store) DueRaces(ctx context.Context, now time.Time) ([]storm.Race, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT `+raceColumns+` WHERE (r.status = ? AND r.ends_at <= ?) OR (r.status = ? AND r.created_at <= ?)
		ORDER BY r.id`, int(storm.Racing), millis(now), int(storm.Lobby), millis(now.Add(-storm.LobbyLife)))
	if err != nil {
		return nil, fmt.Errorf("reading the races due: %w", err)
	}
	defer rows.Close()
	var out []storm.Race
	for rows.Next() {
		r, err := scanRace(rows)
		if err != nil {
			return nil, fmt.Errorf("reading the races due: %w", err)
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// EndRace moves a race from one status to another (finished, closed);
// false if it was not in from.
func (s *Store) EndRace(ctx context.Context, id int64, from, to storm.RaceStatus) (bool, error) {
	res, err := s.wdb.ExecContext(ctx, `UPDATE races SET status = ? WHERE id = ? AND status = ?`, int(to), id, int(from))
	if err != nil {
		return false, fmt.Errorf("ending race %d: %w", id, err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// ClaimRaceEdit takes the race's next edit of its message at now, if the
// last was at least every ago: true for one caller a period, whichever
// process asks.
func (s *Store) ClaimRaceEdit(ctx context.Context, id int64, now time.Time, every time.Duration) (bool, error) {
	res, err := s.wdb.ExecContext(ctx, `UPDATE races SET edited_at = ? WHERE id = ? AND edited_at <= ?`,
		millis(now), id, millis(now.Add(-every)))
	if err != nil {
		return false, fmt.Errorf("race %d's edit: %w", id, err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}
