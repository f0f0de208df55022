package play

import (
	"fmt"
	"math/rand/v2"
	"time"

	"othello-bot/game"
	"othello-bot/record"
	"othello-bot/timecontrol"
	"othello-bot/xot"
)

// Opening is a game to open: where, between whom, on what board and
// clock. Every way a game opens (a start against the bot, a challenge
// accepted, the pool's pairing, a tournament's pairing) makes its game
// here.
type Opening struct {
	GuildID, ChannelID string
	// Sides are the two players; Color is the first's colour (random
	// unless chosen).
	Sides [2]record.Side
	Color record.ColorChoice
	Size  int
	Style record.Style
	// Control is the clock (zero: none); Rated, whether it counts.
	Control timecontrol.Control
	Rated   bool
	// XOT starts the game from a random balanced 8-move opening (8x8).
	XOT          bool
	MessageID    string // the message it is shown in, when one exists
	TournamentID int64
}

// NewGame is the game an opening makes, its clocks started now (a game
// never moved in ends too): not stored yet, the caller stores it as its
// way in does (a new game, an accepted challenge, a tournament's pairing).
// On an XOT start, opened is the opening played: the start, not moves of
// the game (no rule that counts moves reaches it).
func (f *Flow) NewGame(o Opening) (g *record.Game, opened *xot.Opening, err error) {
	start, err := game.NewPosition(o.Size)
	if err != nil {
		return nil, nil, fmt.Errorf("opening a game: %w", err)
	}
	now := f.now()
	g = &record.Game{GuildID: o.GuildID, ChannelID: o.ChannelID, Rated: o.Rated, State: game.NewGame(start),
		Black: o.Sides[0], White: o.Sides[1], CreatedAt: now, UpdatedAt: now, MessageID: o.MessageID, Style: o.Style,
		Control: o.Control, TournamentID: o.TournamentID}
	if Settle(o.Color) == game.White {
		g.Black, g.White = g.White, g.Black
	}
	if o.XOT {
		x := xot.Pick(rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64())))
		pos, err := x.Position()
		if err != nil {
			return nil, nil, err
		}
		g.State, g.Opening, opened = game.NewGame(pos), x.Moves, &x
	}
	f.StartClocks(g, now)
	return g, opened, nil
}

// StartClocks sets a new game's clocks and first deadline; now is when its
// first turn begins.
func (f *Flow) StartClocks(g *record.Game, now time.Time) {
	g.TurnStartedAt = now
	if g.Control.Live() {
		g.Left = [2]time.Duration{g.Control.Base, g.Control.Base}
	}
	t := f.Timers(g, record.Turn{At: now, Left: g.Left})
	g.Deadline, g.RemindAt = t.Deadline, t.RemindAt
}

// Settle is the colour a choice comes to: the chosen one, or either at
// random.
func Settle(c record.ColorChoice) game.Color {
	if color, chosen := c.Color(); chosen {
		return color
	}
	if rand.IntN(2) == 0 {
		return game.Black
	}
	return game.White
}
