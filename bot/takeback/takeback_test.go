package takeback

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"

	"othello-bot/bot"
	"othello-bot/catalog"
	"othello-bot/game"
	"othello-bot/play"
	"othello-bot/record"
	"othello-bot/timecontrol"
)

var t0 = time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)

// core hands out one game and locks nothing; its flow writes to st.
type core struct {
	g  *record.Game
	st *store
}

func (c core) ChannelGame(context.Context, bot.Request) (*record.Game, bot.Response, error) {
	if c.g == nil {
		return nil, bot.Refuse("no game"), nil
	}
	return c.g, bot.Response{}, nil
}
func (core) LockChannel(string) func() { return func() {} }
func (core) GameMessage(t *catalog.Printer, g *record.Game, notes []string) *bot.Message {
	return &bot.Message{Content: strings.Join(notes, "\n")}
}
func (c core) Flow() *play.Flow {
	return play.New(c.st, play.Config{AbandonAfter: time.Hour}, func() time.Time { return t0 })
}
func (core) Logger(context.Context) *slog.Logger { return slog.New(slog.DiscardHandler) }

// store notes the takeback asked of it.
type store struct {
	keep int
	turn record.Turn
	err  error
}

func (s *store) TakeBack(_ context.Context, _ *record.Game, keep int, t record.Turn) error {
	if s.err != nil {
		return s.err
	}
	s.keep, s.turn = keep, t
	return nil
}

// The flow's other writes are not a takeback's.
func (s *store) ActiveGame(context.Context, string) (*record.Game, error) {
	return nil, record.ErrNotFound
}
func (s *store) AppendTurn(context.Context, *record.Game, record.Turn) error {
	return errors.New("not a takeback")
}
func (s *store) FinishGame(context.Context, *record.Game, record.Result, *record.RatingUpdate) error {
	return errors.New("not a takeback")
}

// played is a game of alice (black) against the bot after moves.
func played(t *testing.T, moves ...string) *record.Game {
	t.Helper()
	start, _ := game.NewPosition(8)
	g := &record.Game{ID: 7, State: game.NewGame(start), Black: record.Human(record.Player{ID: "alice", Name: "alice"}), White: record.Bot(3)}
	for _, m := range moves {
		sq, err := game.ParseSquare(m, 8)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := g.State.Play(sq); err != nil {
			t.Fatalf("%s: %v", m, err)
		}
	}
	return g
}

func undo(g *record.Game, st *store, user string) string {
	s := New(core{g, st})
	resp, err := s.undo(context.Background(), bot.Request{User: record.Player{ID: user, Name: user}, Locale: "en-US"})
	if err != nil {
		return "error: " + err.Error()
	}
	return resp.Message.Content
}

// The player's last move and the bot's reply go back together; the wait
// for the player starts again.
func TestUndoTakesBackTheLastMoveAndTheReply(t *testing.T) {
	st := &store{keep: -1}
	out := undo(played(t, "d3", "c5", "f6", "f5"), st, "alice")
	if st.keep != 2 || !strings.Contains(out, "f6") || !strings.Contains(out, "f5") || strings.Contains(out, "d3") {
		t.Errorf("kept %d plies, said %q; want 2, naming f6 and f5", st.keep, out)
	}
	if !st.turn.Deadline.Equal(t0.Add(time.Hour)) {
		t.Errorf("the wait for the player: %v", st.turn.Deadline)
	}
}

// What may not be taken back is refused and writes nothing.
func TestUndoRefusals(t *testing.T) {
	rated := played(t, "d3", "c5")
	rated.Rated = true
	clocked := played(t, "d3", "c5")
	clocked.Control = timecontrol.Control{Base: 3 * time.Minute, Increment: 2 * time.Second}
	pvp := played(t, "d3", "c5")
	pvp.White = record.Human(record.Player{ID: "bob", Name: "bob"})
	for name, c := range map[string]struct {
		g    *record.Game
		user string
	}{
		"no move yet":  {played(t), "alice"},
		"not a player": {played(t, "d3", "c5"), "carol"},
		"rated":        {rated, "alice"},
		"clocked":      {clocked, "alice"},
		"two players":  {pvp, "alice"},
		"bot to move":  {played(t, "d3"), "alice"},
	} {
		st := &store{keep: -1}
		out := undo(c.g, st, c.user)
		if st.keep != -1 || out == "" {
			t.Errorf("%s: took back to %d, said %q", name, st.keep, out)
		}
	}
	st := &store{keep: -1, err: record.ErrStale}
	if out := undo(played(t, "d3", "c5"), st, "alice"); !errors.Is(st.err, record.ErrStale) || strings.HasPrefix(out, "error") {
		t.Errorf("a game changed meanwhile: %q", out)
	}
}
