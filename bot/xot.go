package bot

// This file is XOT starts: /start and /challenge with xot:true open the
// game from a random balanced 8-move opening (package xot), played on the
// board before the first move of the game proper.

import (
	"math/rand/v2"
	"strconv"
	"strings"

	"othello-bot/catalog"
	"othello-bot/game"
	"othello-bot/record"
	"othello-bot/xot"
)

// xotOption reads xot: true asks for an XOT start, which needs 8x8.
func xotOption(req Request, size int) (bool, *Response) {
	v := strings.TrimSpace(req.Options["xot"])
	if v == "" {
		return false, nil
	}
	on, err := strconv.ParseBool(v)
	if err != nil {
		return false, Refusal(req.Me().T("xot.bad_option"))
	}
	if on && size != 8 {
		return false, Refusal(req.Me().T("xot.size_only"))
	}
	return on, nil
}

// openXOT starts a new game from a random XOT opening's position and
// returns the note that names it. The opening is the start, not moves of
// the game: no rule that counts moves (the abort, the first-move window,
// a takeback) reaches it.
func openXOT(t *catalog.Printer, g *record.Game) (string, error) {
	o := xot.Pick(rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64())))
	start, err := o.Position()
	if err != nil {
		return "", err
	}
	g.State, g.Opening = game.NewGame(start), o.Moves
	return t.T("xot.opened", "Moves", o.Transcript()), nil
}
