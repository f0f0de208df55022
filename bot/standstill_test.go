package bot

import (
	"context"
	"testing"
	"time"

	"othello-bot/record"
	"othello-bot/timecontrol"
)

// liveGames starts three 1+0 games between members (each challenger
// another, as a challenge's cool-down wants), each past its first four
// moves so a loss on time counts, in channels a, b and c; their flags
// fall 60 s, 40 s and 5 s after the time it returns.
func liveGames(t *testing.T, f *fixture) time.Time {
	t.Helper()
	move := func(ch string) {
		g := f.game(ch)
		f.command(g.ToMove().Player, ch, "move", map[string]string{"square": g.Position().LegalMoves()[0].String()})
	}
	pairs := []struct{ from, to record.Player }{{ann, ben}, {ben, cat}, {cat, ann}}
	for i, ch := range []string{"a", "b", "c"} {
		p := pairs[i]
		post := f.challenge(p.from, ch, map[string]string{"opponent": p.to.ID, "color": "black", "size": "8", "time": "1+0"})
		accept := post.Components[0].Buttons[0].CustomID
		f.button(p.to, ch, accept)
		for range 4 {
			move(ch)
		}
	}
	f.clock.advance(35 * time.Second)
	move("b")
	f.clock.advance(20 * time.Second)
	move("a")
	return f.clock.Now()
}

// A clock stood still over an absence: the turn charged what it used
// before it, restarted at its end with its timers, nothing flagged
// before then; a game moved meanwhile is left alone.
func TestStandStill(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	last := liveGames(t, f)
	before := map[string]*record.Game{"a": f.game("a"), "b": f.game("b"), "c": f.game("c")}
	f.clock.advance(3 * time.Minute)
	until := f.clock.Now().Add(10 * time.Second)
	for _, ch := range []string{"a", "b", "c"} {
		if ok, err := f.svc.StandStill(ctx, f.game(ch), last, until); !ok || err != nil {
			t.Fatalf("game %s: %v %v", ch, ok, err)
		}
	}
	for ch, b := range before {
		g := f.game(ch)
		side := timecontrol.Side(g.Clock().ToMove)
		used := last.Sub(b.TurnStartedAt)
		if !g.TurnStartedAt.Equal(until) || g.Left[side] != b.Left[side]-used || g.Left[1-side] != b.Left[1-side] ||
			!g.Deadline.Equal(until.Add(b.Left[side]-used)) || g.Version != b.Version+1 {
			t.Errorf("game %s: starts %v, clocks %v, due %v; before %v %v", ch, g.TurnStartedAt, g.Left, g.Deadline, b.TurnStartedAt, b.Left)
		}
	}
	// Nothing falls at the first tick; game c's flag falls 5 s after the
	// clock runs again.
	f.svc.Tick(ctx)
	if len(f.store.finished) != 0 {
		t.Fatalf("a flag fell after the absence: %+v", f.store.finished)
	}
	f.clock.advance(15 * time.Second)
	f.svc.Tick(ctx)
	if len(f.store.finished) != 1 || f.store.finished[0].Reason != record.EndTimeout || !f.store.finished[0].FinishedAt.Equal(until.Add(5*time.Second)) {
		t.Fatalf("game c's flag, 5 s after the grace: %+v", f.store.finished)
	}
	// Standing still twice over the same span changes nothing more; an
	// old read of a game is refused.
	a := f.game("a")
	if ok, err := f.svc.StandStill(ctx, a, last, until); ok || err != nil {
		t.Fatalf("the same span again: %v %v", ok, err)
	}
	if ok, err := f.svc.StandStill(ctx, before["b"], last, until.Add(time.Minute)); ok || err != nil {
		t.Fatalf("from an old read: %v %v", ok, err)
	}
}
