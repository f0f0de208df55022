package bot

import (
	"context"
	"testing"
	"time"

	"othello-bot/game"
	"othello-bot/record"
)

// A game where the bot has been to move too long (its process stopped
// mid-move) is picked up by ResumeOrphans, which moves for the bot; one the
// bot was given just now, and one where a person is to move, are left.
func TestResumeOrphansMovesForTheBotOnlyWhereStalled(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	start, err := game.NewPosition(8)
	if err != nil {
		t.Fatal(err)
	}
	now := f.clock.Now()
	mk := func(channel string, black, white record.Side, updated time.Time) *record.Game {
		g := &record.Game{GuildID: "g", ChannelID: channel, Black: black, White: white, State: game.NewGame(start),
			CreatedAt: updated, UpdatedAt: updated, TurnStartedAt: updated}
		if err := f.store.CreateGame(ctx, g); err != nil {
			t.Fatal(err)
		}
		return g
	}
	stalled := mk("c1", record.Bot(3), record.Human(ann), now.Add(-10*time.Minute))
	fresh := mk("c2", record.Bot(3), record.Human(ben), now.Add(-time.Second))
	waiting := mk("c3", record.Human(cat), record.Bot(3), now.Add(-10*time.Minute))
	if err := f.svc.ResumeOrphans(ctx, 3*time.Minute); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		g     *record.Game
		plies int
	}{{stalled, 1}, {fresh, 0}, {waiting, 0}} {
		got, err := f.store.Game(ctx, c.g.ID)
		if err != nil {
			t.Fatal(err)
		}
		if n := len(got.Plies()); n != c.plies {
			t.Errorf("game in %s: %d plies after ResumeOrphans, want %d", c.g.ChannelID, n, c.plies)
		}
	}
}
