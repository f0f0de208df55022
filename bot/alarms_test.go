package bot

import (
	"context"
	"testing"
	"time"

	"othello-bot/record"
)

// A timer's flag falls on the game as it was armed, without reading it;
// a game that moved on since (a move in another process) is read afresh
// and nothing ends before its new deadline.
func TestFlagOnTheGameAsArmed(t *testing.T) {
	f := newFixture(t)
	liveGames(t, f) // channel c's flag falls in 5 s
	c := f.game("c")
	armed := c.Clone()

	// Another process moves in c: the armed clone is one version behind.
	mover := c.ToMove().Player
	f.command(mover, "c", "move", map[string]string{"square": c.Position().LegalMoves()[0].String()})
	moved := f.game("c")
	if moved.Version == armed.Version || !moved.Deadline.After(armed.Deadline) {
		t.Fatalf("the move did not change the game: v%d → v%d, deadline %v → %v", armed.Version, moved.Version, armed.Deadline, moved.Deadline)
	}
	f.clock.advance(5 * time.Second)
	f.svc.fireGameTimer(context.Background(), armed, f.clock.Now())
	if g := f.game("c"); g.Status != record.Active {
		t.Fatalf("a stale armed game flagged: %s %+v", g.Status, g.Result)
	}

	// Armed as it stands, the flag falls at its deadline without a read.
	current := f.game("c")
	f.clock.advance(current.Deadline.Sub(f.clock.Now()))
	f.svc.fireGameTimer(context.Background(), current.Clone(), f.clock.Now())
	g, err := f.store.Game(context.Background(), current.ID)
	if err != nil || g.Status != record.Finished || g.Result == nil || g.Result.Reason != record.EndTimeout {
		t.Fatalf("the flag: %+v %v", g, err)
	}
}
