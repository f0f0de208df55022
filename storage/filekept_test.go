package storage

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"othello-bot/record"
)

// Two stores of one SQLite file in one process (a tool beside the bot, a
// test reading what the bot wrote) see each other's writes: a row one
// keeps is ended by the other's turn, whatever path named the file.
func TestKeptRowEndedByAnotherStoreOfTheFile(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "bot.db")
	writer := openAt(t, path, "")
	reader := openAt(t, filepath.Join(dir, ".", "sub", "..", "bot.db"), "")
	newGame(t, writer, "c1", record.Human(alice), record.Human(bob), 8)
	for turn := range 4 {
		seen, err := reader.ActiveGame(ctx, "c1") // kept by reader
		if err != nil {
			t.Fatal(err)
		}
		g, err := writer.ActiveGame(ctx, "c1")
		if err != nil {
			t.Fatal(err)
		}
		if seen.Version != g.Version {
			t.Fatalf("turn %d: the reader has version %d, the writer %d", turn, seen.Version, g.Version)
		}
		plies, err := g.State.Play(g.Position().LegalMoves()[0])
		if err != nil {
			t.Fatal(err)
		}
		if err := writer.AppendTurn(ctx, g, record.Turn{Plies: plies, At: t0.Add(time.Duration(turn+1) * time.Minute)}); err != nil {
			t.Fatal(err)
		}
		after, err := reader.ActiveGame(ctx, "c1")
		if err != nil {
			t.Fatal(err)
		}
		if after.Version != g.Version || after.PlyCount() != g.PlyCount() {
			t.Fatalf("turn %d: after the writer's turn the reader gives version %d (%d plies), not %d (%d)", turn, after.Version, after.PlyCount(), g.Version, g.PlyCount())
		}
	}
}

// The stores of one SQLite file share the languages kept: a choice saved
// through one is what the other reads next.
func TestLanguageSeenByAnotherStoreOfTheFile(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "bot.db")
	writer, reader := openAt(t, path, ""), openAt(t, path, "")
	for _, lang := range []string{"ja", "en", ""} {
		if _, err := reader.Languages(ctx, alice.ID, "g1"); err != nil { // kept by reader
			t.Fatal(err)
		}
		if err := writer.SetUserLanguage(ctx, alice, lang, t0); err != nil {
			t.Fatal(err)
		}
		if err := writer.SetGuildLanguage(ctx, "g1", lang, t0); err != nil {
			t.Fatal(err)
		}
		got, err := reader.Languages(ctx, alice.ID, "g1")
		if err != nil {
			t.Fatal(err)
		}
		if got.User != lang || got.Guild != lang {
			t.Fatalf("after the writer saved %q the reader reads the player's %q and the server's %q", lang, got.User, got.Guild)
		}
	}
}
