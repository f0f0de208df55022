package storage

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"othello-bot/game"
	"othello-bot/record"
	"othello-bot/timecontrol"
)

// A game's control and clocks are stored with every turn and read back to
// the millisecond, by a new connection as by the writer; its reminder is
// due at its own time; its result line names the control.
func TestClocksStored(t *testing.T) {
	eachBackend(t, func(t *testing.T, database string) {
		ctx := context.Background()
		s, dir := openIn(t, database)
		control, _ := timecontrol.Parse("3+2")
		start, _ := game.NewPosition(8)
		g := &record.Game{GuildID: "guild1", ChannelID: "live", Black: record.Human(alice), White: record.Human(bob),
			State: game.NewGame(start), CreatedAt: t0, UpdatedAt: t0, TurnStartedAt: t0, Control: control,
			Left: [2]time.Duration{control.Base, control.Base}, Deadline: t0.Add(30 * time.Second)}
		if err := s.CreateGame(ctx, g); err != nil {
			t.Fatal(err)
		}
		plies, err := g.State.Play(g.Position().LegalMoves()[0])
		if err != nil {
			t.Fatal(err)
		}
		at := t0.Add(1234 * time.Millisecond)
		left := [2]time.Duration{control.Base, 2*time.Minute + 59*time.Second + 7*time.Millisecond}
		turn := record.Turn{Plies: plies, At: at, Deadline: at.Add(left[1]), RemindAt: at.Add(left[1] - 10*time.Second), Left: left}
		if err := s.AppendTurn(ctx, g, turn); err != nil {
			t.Fatal(err)
		}
		again := openAt(t, database, dir+"/other.log")
		read, err := again.Game(ctx, g.ID)
		if err != nil {
			t.Fatal(err)
		}
		if read.Control != control || read.Left != left || !read.RemindAt.Equal(turn.RemindAt) || !read.Deadline.Equal(turn.Deadline) {
			t.Errorf("read back %v %v remind %v deadline %v; stored %v %v %v %v", read.Control, read.Left, read.RemindAt,
				read.Deadline, control, left, turn.RemindAt, turn.Deadline)
		}
		if k := read.Clock(); k.Moves != [2]int{1, 0} || k.ToMove != 1 || !k.TurnStart.Equal(at) {
			t.Errorf("clock read back: %+v", k)
		}
		// The reminder is due at its own time, not the configured hour
		// before the deadline.
		due, err := s.DueGames(ctx, turn.RemindAt.Add(-time.Millisecond), time.Hour)
		if err != nil || len(due) != 0 {
			t.Errorf("due a millisecond before the reminder: %d %v", len(due), err)
		}
		if due, err := s.DueGames(ctx, turn.RemindAt, time.Hour); err != nil || len(due) != 1 {
			t.Errorf("due at the reminder: %d %v", len(due), err)
		}
		b, w := read.Position().Count()
		r := record.Result{FinishedAt: turn.Deadline, BlackDiscs: b, WhiteDiscs: w, Winner: game.Black, Reason: record.EndTimeout}
		if err := s.FinishGame(ctx, read, r, nil); err != nil {
			t.Fatal(err)
		}
		log, err := os.ReadFile(dir + "/results.log")
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(log), " end=timeout time=3+2 transcript=") {
			t.Errorf("results line: %s", log)
		}
		if id, ok := parseResultLine(strings.TrimSpace(string(log))); !ok || id != g.ID {
			t.Errorf("the line does not read back: %v %v", id, ok)
		}

		// A challenge keeps its control for the game it becomes.
		c := &record.Challenge{GuildID: "guild1", ChannelID: "c", Challenger: alice, Opponent: bob, Size: 8,
			Status: record.ChallengePending, CreatedAt: t0, ExpiresAt: t0.Add(time.Hour), Control: control}
		if err := s.CreateChallenge(ctx, c); err != nil {
			t.Fatal(err)
		}
		if back, err := s.Challenge(ctx, c.ID); err != nil || back.Control != control {
			t.Errorf("challenge's control: %+v %v", back, err)
		}
	})
}
