package storage

// This file lets a PostgreSQL process keep language choices in memory
// (langcache.go) although other processes write them: every write of a
// choice sends a notification in its own transaction (delivered when it
// commits, never for one rolled back), and each process listens on a
// connection of its own and forgets what it hears changed. While it is not
// listening — before the first LISTEN, after its connection fails, until
// it listens again — nothing is kept and every read goes to the database.

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
)

// languagesChannel is the notification channel of language choices; a
// payload is a kind, the writing store's token and an id:
// "p:<token>:<player id>" or "g:<token>:<server id>". A store ignores its
// own (it forgot what it changed as it wrote), so a read of its own just
// after its write is not thrown away for nothing.
const languagesChannel = "othello_languages"

const (
	playerChoice = "p"
	guildChoice  = "g"
)

// listenCheck is how long the listener waits for a notification before it
// checks that its connection still answers: a connection lost without a
// word (a dropped network path) is found within this and a ping, not at the
// next change.
const listenCheck = 30 * time.Second

// notifyLanguages tells the other processes, when tx commits, that a
// player's or a server's choices changed (PostgreSQL; nothing on SQLite,
// whose one process forgets them itself).
func (s *Store) notifyLanguages(ctx context.Context, tx *dbTx, kind, id string) error {
	if s.dialect != postgresDB {
		return nil
	}
	if _, err := tx.ExecContext(ctx, `SELECT pg_notify(?, ?)`, languagesChannel, kind+":"+s.token+":"+id); err != nil {
		return fmt.Errorf("telling the other processes of a language choice: %w", err)
	}
	return nil
}

// listenLanguages keeps this process listening for the others' changes
// until the store closes, connecting again after a failure (1 s, doubling
// to 30 s between tries).
func (s *Store) listenLanguages(database string) {
	defer s.retryDone.Done()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		select {
		case <-s.closed:
			cancel()
		case <-ctx.Done():
		}
	}()
	wait := time.Second
	for {
		heard, err := s.listenOnce(ctx, database)
		s.langs.keep(false)
		if ctx.Err() != nil {
			return
		}
		if heard {
			wait = time.Second
		}
		s.logger.Warn("not hearing other processes' language changes; reading every choice from the database until heard again",
			"err", err, "retry_in", wait)
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		}
		wait = min(2*wait, 30*time.Second)
	}
}

// listenOnce listens on a new connection until it fails; heard says
// whether it was listening at all.
func (s *Store) listenOnce(ctx context.Context, database string) (heard bool, err error) {
	conn, err := pgx.Connect(ctx, database)
	if err != nil {
		return false, fmt.Errorf("connecting to listen: %w", err)
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(ctx, "LISTEN "+languagesChannel); err != nil {
		return false, fmt.Errorf("listening: %w", err)
	}
	s.langs.keep(true)
	for {
		wctx, cancel := context.WithTimeout(ctx, listenCheck)
		n, err := conn.WaitForNotification(wctx)
		cancel()
		switch {
		case ctx.Err() != nil:
			return true, ctx.Err()
		case errors.Is(err, context.DeadlineExceeded):
			pctx, cancel := context.WithTimeout(ctx, listenCheck)
			err = conn.Ping(pctx)
			cancel()
			if err != nil {
				return true, fmt.Errorf("the listening connection does not answer: %w", err)
			}
			continue
		case err != nil:
			return true, fmt.Errorf("waiting for changes: %w", err)
		}
		kind, rest, _ := strings.Cut(n.Payload, ":")
		token, id, _ := strings.Cut(rest, ":")
		switch {
		case token == s.token:
		case kind == playerChoice:
			s.langs.changed(id, "")
		case kind == guildChoice:
			s.langs.changed("", id)
		default: // not ours to read: forget everything rather than guess
			s.langs.keep(true)
		}
	}
}
