package downtime

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"strconv"
	"strings"
	"testing"
	"time"

	"othello-bot/bot"
	"othello-bot/catalog"
	"othello-bot/game"
	"othello-bot/record"
	"othello-bot/timecontrol"
)

// The rules of an absence, without a store or a transport: which games
// get their time back, over which span, and which say so.

var t0 = time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)

type span struct {
	game        int64
	from, until time.Time
}

type fake struct {
	now      time.Time
	skew     time.Duration // how far the process's clock is ahead of the store's
	games    []*record.Game
	settings map[string]string
	stood    []span
	told     []string // channels
	down     bool     // the store answers no ping
}

func (f *fake) Now() time.Time { return f.now }

// fakeStore is the fake as the store, whose clock is the process's less
// its skew.
type fakeStore struct{ *fake }

func (s fakeStore) Now(context.Context) (time.Time, error) { return s.now.Add(-s.skew), nil }
func (s fakeStore) Ping(context.Context) error {
	if s.down {
		return errors.New("connection refused")
	}
	return nil
}
func (f *fake) Logger(context.Context) *slog.Logger {
	return slog.New(slog.NewTextHandler(io.Discard, nil))
}
func (f *fake) ActiveGames(context.Context) ([]*record.Game, error) { return f.games, nil }
func (f *fake) Setting(_ context.Context, k string) (string, error) { return f.settings[k], nil }
func (f *fake) SetSetting(_ context.Context, k, v string) error     { f.settings[k] = v; return nil }
func (f *fake) StandStill(_ context.Context, g *record.Game, from, until time.Time) (bool, error) {
	f.stood = append(f.stood, span{g.ID, from, until})
	return true, nil
}
func (f *fake) PublicPrinter(context.Context, string) *catalog.Printer {
	return catalog.For(catalog.English)
}
func (f *fake) GameMessage(t *catalog.Printer, g *record.Game, notes []string) *bot.Message {
	return &bot.Message{Content: strings.Join(notes, "\n")}
}
func (f *fake) SendOrKeep(_ context.Context, channel string, m bot.Message) error {
	f.told = append(f.told, channel+": "+m.Content)
	return nil
}

// game is an active game in channel "c<id>" whose time is due at due,
// on a 1+0 clock (or per move, correspondence), a member or the bot to
// move.
func newGame(id int64, due time.Time, live, botToMove bool) *record.Game {
	start, _ := game.NewPosition(8)
	black := record.Human(record.Player{ID: "1", Name: "ann"})
	if botToMove {
		black = record.Bot(3)
	}
	c := timecontrol.Control{PerMove: 24 * time.Hour}
	if live {
		c = timecontrol.Control{Base: time.Minute}
	}
	return &record.Game{ID: id, GuildID: "g", ChannelID: "c" + strconv.FormatInt(id, 10), Status: record.Active, State: game.NewGame(start),
		Black: black, White: record.Human(record.Player{ID: "2", Name: "ben"}), Control: c, Deadline: due, TurnStartedAt: due.Add(-time.Minute)}
}

func setUp(last time.Time, away time.Duration, shared bool, games ...*record.Game) (*fake, *Service) {
	f := &fake{now: last.Add(away), games: games, settings: map[string]string{}}
	if !last.IsZero() {
		f.settings[aliveSetting] = strconv.FormatInt(last.UnixMilli(), 10)
	}
	return f, New(f, fakeStore{f}, 5*time.Second, shared)
}

func TestGiveBack(t *testing.T) {
	ctx := context.Background()
	last := t0
	stood := func(f *fake) map[int64]span {
		m := map[int64]span{}
		for _, s := range f.stood {
			m[s.game] = s
		}
		return m
	}

	t.Run("a long absence: every running clock, from the last beat to the grace", func(t *testing.T) {
		before := newGame(1, last.Add(-time.Second), true, false) // fell while the bot was up: stands
		soon := newGame(2, last.Add(5*time.Second), true, false)
		later := newGame(3, last.Add(time.Hour), true, false)
		mail := newGame(4, last.Add(20*time.Hour), false, false)
		thinking := newGame(5, last.Add(30*time.Second), true, true)
		f, s := setUp(last, 3*time.Minute, false, before, soon, later, mail, thinking)
		away, err := s.GiveBack(ctx)
		if err != nil || away != 3*time.Minute {
			t.Fatalf("away %v, %v", away, err)
		}
		got := stood(f)
		if _, ok := got[1]; ok || len(got) != 4 {
			t.Fatalf("stood still: %+v", f.stood)
		}
		for _, sp := range got {
			if !sp.from.Equal(last) || !sp.until.Equal(f.now.Add(Grace)) {
				t.Errorf("game %d stood still %v..%v, want %v..%v", sp.game, sp.from, sp.until, last, f.now.Add(Grace))
			}
		}
		// Nothing is told until Tell (a start asks Discord nothing before
		// its gateway opens); then only the live games with a member to
		// move, once.
		if len(f.told) != 0 {
			t.Fatalf("told before Tell: %q", f.told)
		}
		s.Tell(ctx)
		s.Tell(ctx)
		if len(f.told) != 2 || !strings.HasPrefix(f.told[0], "c2: ⏸️ I was away for 3 minutes") || !strings.HasPrefix(f.told[1], "c3: ") {
			t.Fatalf("told: %q", f.told)
		}
		if b, _ := s.LastBeat(ctx); !b.Equal(f.now) {
			t.Fatalf("the beat after giving back: %v", b)
		}
	})

	t.Run("a quick restart: every live clock given its time back; the grace and a word where it fell due", func(t *testing.T) {
		fell := newGame(1, last.Add(3*time.Second), true, false)
		inGrace := newGame(2, last.Add(15*time.Second), true, false)
		later := newGame(3, last.Add(time.Minute), true, false)
		mail := newGame(4, last.Add(20*time.Hour), false, false)
		f, s := setUp(last, 8*time.Second, false, fell, inGrace, later, mail)
		if _, err := s.GiveBack(ctx); err != nil {
			t.Fatal(err)
		}
		got := stood(f)
		if len(got) != 3 || !got[1].until.Equal(f.now.Add(Grace)) || !got[2].until.Equal(f.now.Add(Grace)) ||
			!got[3].from.Equal(last) || !got[3].until.Equal(f.now) {
			t.Fatalf("stood still: %+v (a 1+0 game due in a minute was charged the 8 s before)", f.stood)
		}
		s.Tell(ctx)
		if len(f.told) != 2 {
			t.Fatalf("told %q: the games near their flag only", f.told)
		}
	})

	t.Run("sharing the store, a start within a beat and a half is no absence", func(t *testing.T) {
		f, s := setUp(last, 7*time.Second, true, newGame(1, last.Add(time.Second), true, false))
		if away, err := s.GiveBack(ctx); err != nil || away != 0 || len(f.stood) != 0 {
			t.Fatalf("away %v (%v), stood %+v", away, err, f.stood)
		}
		f, s = setUp(last, 8*time.Second, true, newGame(1, last.Add(time.Second), true, false))
		if away, err := s.GiveBack(ctx); err != nil || away != 8*time.Second || len(f.stood) != 1 {
			t.Fatalf("after a missed beat: away %v (%v), stood %+v", away, err, f.stood)
		}
	})

	t.Run("no heartbeat yet: nothing to give back, and a first beat", func(t *testing.T) {
		f, s := setUp(time.Time{}, 0, false, newGame(1, last, true, false))
		f.now = last.Add(time.Hour)
		if away, err := s.GiveBack(ctx); err != nil || away != 0 || len(f.stood) != 0 {
			t.Fatalf("away %v (%v), stood %+v", away, err, f.stood)
		}
		if b, _ := s.LastBeat(ctx); !b.Equal(f.now) {
			t.Fatalf("no first beat: %v", b)
		}
	})
}

// Heartbeats on a shared store are on its clock: a process whose own clock runs 5
// minutes fast neither disables the next start's give-back (its beat was
// "in the future") nor is charged for it; the absence, measured on the
// store's clock, is laid on the starting process's own.
func TestGiveBackOnTheStoresClock(t *testing.T) {
	ctx := context.Background()
	// A fast process beats at t0 (its clock says t0+5m).
	fast := &fake{now: t0.Add(5 * time.Minute), skew: 5 * time.Minute, settings: map[string]string{}}
	if err := New(fast, fakeStore{fast}, 5*time.Second, true).Beat(ctx); err != nil {
		t.Fatal(err)
	}
	// It dies; a process with the right clock starts 3 minutes later.
	g := newGame(1, t0.Add(time.Minute), true, false)
	right := &fake{now: t0.Add(3 * time.Minute), games: []*record.Game{g}, settings: fast.settings}
	away, err := New(right, fakeStore{right}, 5*time.Second, true).GiveBack(ctx)
	if err != nil || away != 3*time.Minute {
		t.Fatalf("away %v (%v), want 3m", away, err)
	}
	if len(right.stood) != 1 || !right.stood[0].from.Equal(t0) || !right.stood[0].until.Equal(right.now.Add(Grace)) {
		t.Fatalf("stood still: %+v", right.stood)
	}
	// A slow-clocked process (2 minutes behind) starting then lays the
	// same 3 minutes on its own clock.
	slow := &fake{now: t0.Add(time.Minute), skew: -2 * time.Minute, games: []*record.Game{newGame(2, t0.Add(time.Minute), true, false)},
		settings: map[string]string{aliveSetting: strconv.FormatInt(t0.UnixMilli(), 10)}}
	if away, _ := New(slow, fakeStore{slow}, 5*time.Second, true).GiveBack(ctx); away != 3*time.Minute ||
		len(slow.stood) != 1 || !slow.stood[0].from.Equal(slow.now.Add(-3*time.Minute)) {
		t.Fatalf("a slow clock: away %v, stood %+v", away, slow.stood)
	}
}
