// Package play is the game flow's operations on a stored game, typed: a
// member's move, any turn (the bot's too), a game's end. Each takes what
// it needs as arguments, makes one write and returns what happened (the
// game after it, the plies, whether it ended) or a typed error; words,
// chat and Discord are the caller's (package bot renders the outcome).
// It holds no lock: the caller serializes the work on one channel.
package play

import (
	"context"
	"time"

	"othello-bot/place"
	"othello-bot/rating/rated"
	"othello-bot/record"
)

// Store is what the flow reads and writes.
type Store interface {
	// ActiveGame loads a channel's active game, or fails with
	// record.ErrNotFound.
	ActiveGame(ctx context.Context, channelID string) (*record.Game, error)
	// AppendTurn stores a turn (with the game's end, when the turn has
	// one) and moves g on; record.ErrStale or record.ErrNotActive when the
	// game moved past g meanwhile.
	AppendTurn(ctx context.Context, g *record.Game, t record.Turn) error
	// FinishGame ends an active game with its result and ratings.
	FinishGame(ctx context.Context, g *record.Game, r record.Result, rate *record.RatingUpdate) error
	// TakeBack rewinds an active game to its first keep plies, its turn
	// starting again as t says.
	TakeBack(ctx context.Context, g *record.Game, keep int, t record.Turn) error
}

// Config is the flow's part of the configuration.
type Config struct {
	// MoveTimeout is a correspondence turn's time where the game's control
	// names none.
	MoveTimeout time.Duration
	// AbandonAfter ends a game against the bot after this long without a
	// move from its player; 0: never.
	AbandonAfter time.Duration
	// ArchiveAt is when a finished game's thread is archived (zero: it is
	// not); nil: never.
	ArchiveAt func(g *record.Game, r record.Result) time.Time
	// Ended hears of each game the flow ended, once its end is stored
	// (the chat core tells its capabilities); nil: nobody.
	Ended func(ctx context.Context, g *record.Game)
}

// Flow runs the operations on a store, on a clock.
type Flow struct {
	store Store
	cfg   Config
	now   func() time.Time
}

// New returns the flow over store.
func New(store Store, cfg Config, now func() time.Time) *Flow {
	return &Flow{store: store, cfg: cfg, now: now}
}

// replyTokenLife is how long a reply owed to a player can still be made.
const replyTokenLife = place.TokenLife

// Turn stores a turn of g (whose state already holds its plies) made at
// at, with each side's time left after it and the timers of the turn it
// begins; token, set, is the reply owed to the player who made it, kept
// while the bot thinks about its own. A turn that ends the game is stored
// with the end, in one write (see End): then ended is true.
func (f *Flow) Turn(ctx context.Context, g *record.Game, t record.Turn, token string) (ended bool, err error) {
	t = f.Timers(g, t)
	if g.State.Over() {
		return true, f.End(ctx, g, ByBoard(g), &t)
	}
	if token != "" && g.ToMove().IsBot() {
		t.ReplyToken, t.ReplyExpires = token, f.now().Add(replyTokenLife)
	}
	return false, f.store.AppendTurn(ctx, g, t)
}

// ByBoard is the result of a game neither side can move in: the discs
// decide.
func ByBoard(g *record.Game) record.Result {
	return record.Result{Reason: record.EndNormal, Winner: g.Position().Winner()}
}

// End stores g's end as r says, with the time (now, unless r says when),
// the discs, the thread's archiving and the ratings' update filled in;
// last, when set, is the turn that ended it, stored with the end in one
// write. g holds the result after, and Config.Ended hears of it.
func (f *Flow) End(ctx context.Context, g *record.Game, r record.Result, last *record.Turn) error {
	if r.FinishedAt.IsZero() {
		r.FinishedAt = f.now()
	}
	r.BlackDiscs, r.WhiteDiscs = g.Position().Count()
	if r.ArchiveAt.IsZero() && f.cfg.ArchiveAt != nil {
		r.ArchiveAt = f.cfg.ArchiveAt(g, r)
	}
	rate := rated.Update(g, r)
	var err error
	if last != nil {
		last.End, last.Rate = &r, rate
		err = f.store.AppendTurn(ctx, g, *last)
	} else {
		err = f.store.FinishGame(ctx, g, r, rate)
	}
	if err == nil && f.cfg.Ended != nil {
		f.cfg.Ended(ctx, g)
	}
	return err
}

// Timers fills in the deadline and reminder of the turn that begins at
// t.At, on g as it stands after the turn's plies, with clocks t.Left.
func (f *Flow) Timers(g *record.Game, t record.Turn) record.Turn {
	t.Deadline, t.RemindAt = time.Time{}, time.Time{}
	if g.State.Over() {
		return t
	}
	vsBot := g.Black.IsBot() || g.White.IsBot()
	switch {
	case g.Control.Live():
		k := g.Clock()
		k.Left, k.TurnStart = t.Left, t.At
		t.Deadline, t.RemindAt = k.Due(), k.RemindAt()
		if g.ToMove().IsBot() {
			t.RemindAt = time.Time{}
		}
	case !vsBot:
		t.Deadline = t.At.Add(f.PerMove(g))
	case !g.ToMove().IsBot() && f.cfg.AbandonAfter > 0:
		// Against the bot the player's turn has no time limit, but a game
		// left alone ends as abandoned so it does not block its channel.
		t.Deadline = t.At.Add(f.cfg.AbandonAfter)
	}
	if t.RemindAt.IsZero() && !t.Deadline.IsZero() && (vsBot || g.Control.Live()) {
		// No ping: the tick finds the game again only when it is due.
		t.RemindAt = t.Deadline
	}
	return t
}

// PerMove is a correspondence game's time for one move.
func (f *Flow) PerMove(g *record.Game) time.Duration {
	if g.Control.PerMove > 0 {
		return g.Control.PerMove
	}
	return f.cfg.MoveTimeout
}
