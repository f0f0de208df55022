package play

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"othello-bot/game"
	"othello-bot/record"
)

// Move is a member's move in a channel's game.
type Move struct {
	ChannelID string
	// Game is the game as the caller read it (the web board did); nil:
	// the channel's active game is read. A game that moved on since is
	// refused with record.ErrStale by the write.
	Game   *record.Game
	Player string // the mover's id
	Square string // as typed or picked: "d3"
	// OnGame and OnPly name the board the move was made on (a menu, the
	// web board): a board that moved on is refused. 0 and -1: whatever
	// the game is now (a typed /move).
	OnGame int64
	OnPly  int
	// OnMessage is the message whose menu made the move ("" for none):
	// when it is the game's live message, the turn records it as showing
	// the game after it (see record.Turn.Shows).
	OnMessage string
	At        time.Time // when the move was made (its interaction's own time)
	Token     string    // the reply owed to the mover while the bot thinks
	// Reply, when set, may answer the move for the bot at once (a level
	// that answers within a millisecond): it plays the bot's moves on
	// g.State and returns their plies, which are written with the move in
	// one write. None: the bot answers after the move is stored. On a
	// clock it plays one move at most (the write charges one). On an
	// error it returns the plies it did play.
	Reply func(ctx context.Context, g *record.Game) ([]game.Ply, error)
}

// Moved is what a move did: the game after it (its result set when the
// move ended it) and the plies played (the move, and any pass it forced).
type Moved struct {
	Game    *record.Game
	Plies   []game.Ply
	Replies []game.Ply // the bot's answer, written with the move (Move.Reply)
	Ended   bool
}

// The errors of a move, each for the caller to put in words.
var (
	ErrNoGame     = errors.New("play: no game in this channel")
	ErrGameOver   = errors.New("play: the board's game is over")
	ErrStaleBoard = errors.New("play: the board has moved on")
	ErrNotPlaying = errors.New("play: not a player of this game")
	ErrNoSquare   = errors.New("play: no square given")
	// ErrTimeUp: the mover's flag fell before the move came; the game is
	// Moved.Game, unplayed, for the caller to end as of the flag.
	ErrTimeUp = errors.New("play: the flag fell before the move")
)

// NotYourTurnError: the other colour is to move.
type NotYourTurnError struct{ ToMove game.Color }

func (e NotYourTurnError) Error() string { return fmt.Sprintf("play: %v is to move", e.ToMove) }

// IllegalError: the square is no legal move (Err says why: not a square,
// off the board, taken, flips nothing).
type IllegalError struct {
	Square string
	Size   int
	Legal  []game.Square
	Err    error
}

func (e IllegalError) Error() string { return fmt.Sprintf("play: %s: %v", e.Square, e.Err) }
func (e IllegalError) Unwrap() error { return e.Err }

// Move plays a member's move: at most one read of the game, one write.
// The game a refusal was decided on comes back with it where there is one.
func (f *Flow) Move(ctx context.Context, m Move) (Moved, error) {
	g := m.Game
	if g == nil {
		var err error
		g, err = f.store.ActiveGame(ctx, m.ChannelID)
		switch {
		case errors.Is(err, record.ErrNotFound) && m.OnGame != 0:
			return Moved{}, ErrGameOver
		case errors.Is(err, record.ErrNotFound):
			return Moved{}, ErrNoGame
		case err != nil:
			return Moved{}, err
		}
	}
	out := Moved{Game: g}
	switch {
	case g.Status != record.Active:
		return out, ErrGameOver
	case m.OnGame != 0 && (m.OnGame != g.ID || m.OnPly != g.PlyCount()):
		return out, ErrStaleBoard
	}
	color, playing := Color(g, m.Player)
	if !playing {
		return out, ErrNotPlaying
	}
	if toMove := g.Position().ToMove(); toMove != color {
		return out, NotYourTurnError{toMove}
	}
	before := g.Clock()
	if before.Up(m.At) {
		return out, ErrTimeUp
	}
	if strings.TrimSpace(m.Square) == "" {
		return out, ErrNoSquare
	}
	sq, err := game.ParseSquare(m.Square, g.Size())
	if err == nil {
		out.Plies, err = g.State.Play(sq) // a refused move leaves the game as it was
	}
	if err != nil {
		return out, IllegalError{Square: m.Square, Size: g.Size(), Legal: g.Position().LegalMoves(), Err: err}
	}
	turn := record.Turn{Plies: out.Plies, At: m.At, Left: before.Charge(m.At, record.ClockSide(g.Position().ToMove())),
		Shows: m.OnMessage}
	if m.Reply != nil && !g.State.Over() && g.ToMove().IsBot() {
		// The bot's turn begins with the move. On a clock it is charged
		// the time its answer took; the turn after it begins then.
		k := g.Clock()
		k.Left, k.TurnStart = turn.Left, m.At
		if !k.Up(f.now()) {
			// An error leaves the rest of the answer to the bot's own turn.
			out.Replies, _ = m.Reply(ctx, g)
		}
		if len(out.Replies) > 0 {
			turn.Plies = append(slices.Clip(out.Plies), out.Replies...)
			if g.Control.Live() {
				at := f.now()
				if at.Before(m.At) {
					at = m.At
				}
				turn.At, turn.Left = at, k.Charge(at, record.ClockSide(g.Position().ToMove()))
			}
		}
	}
	out.Ended, err = f.Turn(ctx, g, turn, m.Token)
	return out, err
}

// Color is the colour player plays in g; false when they do not play in
// it.
func Color(g *record.Game, player string) (game.Color, bool) {
	switch {
	case !g.Black.IsBot() && g.Black.Player.ID == player:
		return game.Black, true
	case !g.White.IsBot() && g.White.Player.ID == player:
		return game.White, true
	}
	return game.Empty, false
}
