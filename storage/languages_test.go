package storage

import (
	"context"
	"sync"
	"testing"

	"othello-bot/record"
)

// A player's and a server's languages read back in one statement, on each
// backend: nothing stored reads as "", either id may be empty.
func TestLanguages(t *testing.T) {
	eachBackend(t, func(t *testing.T, database string) {
		ctx := context.Background()
		s, _ := openIn(t, database)
		if l, err := s.Languages(ctx, alice.ID, "guild1"); err != nil || l != (record.Languages{}) {
			t.Fatalf("nothing stored: %+v %v", l, err)
		}
		if err := s.SetUserLanguage(ctx, alice, "ja", t0); err != nil {
			t.Fatal(err)
		}
		if err := s.SetGuildLocale(ctx, "guild1", "en-GB", t0); err != nil {
			t.Fatal(err)
		}
		if err := s.SetGuildLanguage(ctx, "guild1", "en", t0); err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			player, guild string
			want          record.Languages
		}{
			{alice.ID, "guild1", record.Languages{User: "ja", Guild: "en", GuildLocale: "en-GB"}},
			{alice.ID, "", record.Languages{User: "ja"}},
			{"", "guild1", record.Languages{Guild: "en", GuildLocale: "en-GB"}},
			{bob.ID, "guild2", record.Languages{}},
		} {
			if l, err := s.Languages(ctx, c.player, c.guild); err != nil || l != c.want {
				t.Errorf("player %q in %q: %+v %v, want %+v", c.player, c.guild, l, err, c.want)
			}
		}
	})
}

// The choices are kept after a read: a row changed behind the store's
// back does not show (which is how the test sees them kept), and each of
// the store's own writes of them shows at once. (On PostgreSQL once the
// store listens for other processes' changes: langlisten_test.go.)
func TestLanguagesKeptUntilChanged(t *testing.T) {
	eachBackend(t, func(t *testing.T, database string) {
		ctx := context.Background()
		s, _ := openIn(t, database)
		waitKeeping(t, s, true)
		read := func() record.Languages {
			t.Helper()
			l, err := s.Languages(ctx, alice.ID, "guild1")
			if err != nil {
				t.Fatal(err)
			}
			return l
		}
		if err := s.SetUserLanguage(ctx, alice, "en", t0); err != nil {
			t.Fatal(err)
		}
		if err := s.SetGuildLanguage(ctx, "guild1", "en", t0); err != nil {
			t.Fatal(err)
		}
		read()
		if _, err := s.wdb.ExecContext(ctx, `UPDATE players SET language = 'ja' WHERE id = ?`, alice.ID); err != nil {
			t.Fatal(err)
		}
		want := record.Languages{User: "en", Guild: "en"}
		if l := read(); l != want {
			t.Fatalf("after a change behind the store: %+v, want %+v", l, want)
		}
		for i, step := range []struct {
			set  func() error
			want record.Languages
		}{
			{func() error { return s.SetUserLanguage(ctx, alice, "ja", t0) }, record.Languages{User: "ja", Guild: "en"}},
			{func() error { return s.SetGuildLanguage(ctx, "guild1", "ja", t0) }, record.Languages{User: "ja", Guild: "ja"}},
			{func() error { return s.SetGuildLocale(ctx, "guild1", "en-US", t0) }, record.Languages{User: "ja", Guild: "ja", GuildLocale: "en-US"}},
			{func() error { return s.SetUserLanguage(ctx, alice, "", t0) }, record.Languages{Guild: "ja", GuildLocale: "en-US"}},
		} {
			if err := step.set(); err != nil {
				t.Fatal(err)
			}
			if l := read(); l != step.want {
				t.Fatalf("after step %d: %+v, want %+v", i, l, step.want)
			}
		}
	})
}

// A read that found a choice a write then replaced does not keep it.
func TestLanguagesReadOvertakenByAWrite(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	if err := s.SetUserLanguage(ctx, alice, "en", t0); err != nil {
		t.Fatal(err)
	}
	read, release := make(chan struct{}), make(chan struct{})
	s.langs.afterRead = func() { close(read); <-release }
	done := make(chan record.Languages)
	go func() {
		l, err := s.Languages(ctx, alice.ID, "")
		if err != nil {
			t.Error(err)
		}
		done <- l
	}()
	<-read
	s.langs.afterRead = nil
	if err := s.SetUserLanguage(ctx, alice, "ja", t0); err != nil {
		t.Fatal(err)
	}
	close(release)
	if l := <-done; l.User != "en" {
		t.Fatalf("the overtaken read: %+v", l)
	}
	if l, err := s.Languages(ctx, alice.ID, ""); err != nil || l.User != "ja" {
		t.Fatalf("after the write: %+v %v, want ja", l, err)
	}
}

// Reads racing writes never keep a choice a write replaced: after the
// writes, every read says the last one.
func TestLanguagesReadsRacingWrites(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	var wg sync.WaitGroup
	stop := make(chan struct{})
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				if _, err := s.Languages(ctx, alice.ID, "guild1"); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	langs := []string{"en", "ja"}
	for i := range 200 {
		if err := s.SetUserLanguage(ctx, alice, langs[i%2], t0); err != nil {
			t.Fatal(err)
		}
		if err := s.SetGuildLanguage(ctx, "guild1", langs[(i+1)%2], t0); err != nil {
			t.Fatal(err)
		}
	}
	close(stop)
	wg.Wait()
	want := record.Languages{User: langs[199%2], Guild: langs[200%2]}
	for range 3 {
		if l, err := s.Languages(ctx, alice.ID, "guild1"); err != nil || l != want {
			t.Fatalf("after the writes: %+v %v, want %+v", l, err, want)
		}
	}
}
