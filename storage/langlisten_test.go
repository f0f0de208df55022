package storage

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"othello-bot/internal/pgtest"
	"othello-bot/record"
)

// waitKeeping waits (10 s at most) until s keeps language choices (on)
// or keeps none (off): on PostgreSQL, until its listener listens or has
// noticed its connection gone.
func waitKeeping(t *testing.T, s *Store, on bool) {
	t.Helper()
	for end := time.Now().Add(10 * time.Second); s.langs.off.Load() == on; {
		if time.Now().After(end) {
			t.Fatalf("the store's language cache is still off = %v after 10 s", s.langs.off.Load())
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// twoProcesses opens two stores on one new PostgreSQL database, as two
// processes would, once both listen.
func twoProcesses(t *testing.T) (a, b *Store) {
	t.Helper()
	database := pgtest.Database(t)
	dir := t.TempDir()
	a = openAt(t, database, filepath.Join(dir, "a.log"))
	b = openAt(t, database, filepath.Join(dir, "b.log"))
	waitKeeping(t, a, true)
	waitKeeping(t, b, true)
	return a, b
}

// Two processes on one PostgreSQL database each keep the choices they
// read, and each hears the other's changes: a choice changed by one shows
// in the other once the notification has come, while a row changed behind
// both (no notification) does not — which is how the test sees the
// choices kept at all.
func TestLanguagesHeardFromAnotherProcess(t *testing.T) {
	ctx := context.Background()
	a, b := twoProcesses(t)
	read := func(s *Store) record.Languages {
		t.Helper()
		l, err := s.Languages(ctx, alice.ID, "guild1")
		if err != nil {
			t.Fatal(err)
		}
		return l
	}
	// change makes a change through a and reads it through b once b has
	// heard of it (its count of changes moved; 10 s at most).
	change := func(what string, set func() error, want record.Languages) {
		t.Helper()
		before := b.langs.since()
		if err := set(); err != nil {
			t.Fatal(err)
		}
		for end := time.Now().Add(10 * time.Second); b.langs.since() == before; time.Sleep(time.Millisecond) {
			if time.Now().After(end) {
				t.Fatalf("%s: the other process heard nothing in 10 s", what)
			}
		}
		if l := read(b); l != want {
			t.Fatalf("%s: the other process reads %+v, want %+v", what, l, want)
		}
	}
	change("a player's language set", func() error { return a.SetUserLanguage(ctx, alice, "en", t0) }, record.Languages{User: "en"})
	if _, err := a.wdb.ExecContext(ctx, `UPDATE players SET language = 'ja' WHERE id = ?`, alice.ID); err != nil {
		t.Fatal(err)
	}
	if l := read(b); l != (record.Languages{User: "en"}) {
		t.Fatalf("after a change behind both stores: %+v, want what b kept", l)
	}
	change("a player's language changed", func() error { return a.SetUserLanguage(ctx, alice, "ja", t0) },
		record.Languages{User: "ja"})
	change("a server's language changed", func() error { return a.SetGuildLanguage(ctx, "guild1", "en", t0) },
		record.Languages{User: "ja", Guild: "en"})
	change("a server's Discord language changed", func() error { return a.SetGuildLocale(ctx, "guild1", "ja", t0) },
		record.Languages{User: "ja", Guild: "en", GuildLocale: "ja"})
}

// A process that stops hearing the others keeps nothing until it hears
// them again, and what it kept before does not outlive the gap: a change
// made while its listener was gone shows once it notices.
func TestLanguagesNotKeptWhileNotListening(t *testing.T) {
	ctx := context.Background()
	a, b := twoProcesses(t)
	if err := b.SetUserLanguage(ctx, alice, "en", t0); err != nil {
		t.Fatal(err)
	}
	if l, err := b.Languages(ctx, alice.ID, ""); err != nil || l.User != "en" {
		t.Fatalf("read: %+v %v", l, err)
	}
	// The listening connections end, as when the server restarts them.
	if _, err := a.wdb.ExecContext(ctx, `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
		WHERE datname = current_database() AND query = 'LISTEN `+languagesChannel+`'`); err != nil {
		t.Fatal(err)
	}
	waitKeeping(t, b, false)
	if _, err := a.wdb.ExecContext(ctx, `UPDATE players SET language = 'ja' WHERE id = ?`, alice.ID); err != nil {
		t.Fatal(err)
	}
	if l, err := b.Languages(ctx, alice.ID, ""); err != nil || l.User != "ja" {
		t.Fatalf("while not listening: %+v %v, want the row as it is", l, err)
	}
	waitKeeping(t, b, true) // it listens again (after a second)
	if l, err := b.Languages(ctx, alice.ID, ""); err != nil || l.User != "ja" {
		t.Fatalf("listening again: %+v %v", l, err)
	}
}
