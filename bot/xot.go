package bot

// This file is XOT starts: /start and /challenge with xot:true open the
// game from a random balanced 8-move opening (package xot), played on the
// board before the first move of the game proper.

import (
	"math/rand/v2"
	"strconv"
	"strings"

	"othello-bot/catalog"
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
		r := Refuse(req.Me().T("xot.bad_option"))
		return false, &r
	}
	if on && size != 8 {
		r := Refuse(req.Me().T("xot.size_only"))
		return false, &r
	}
	return on, nil
}

// openXOT plays a random XOT opening on a new game's board and returns
// the note that names it.
func openXOT(t *catalog.Printer, g *record.Game) (string, error) {
	o := xot.Pick(rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64())))
	for _, m := range o.Moves {
		if _, err := g.State.Play(m); err != nil {
			return "", err
		}
	}
	return t.T("xot.opened", "Moves", o.Transcript()), nil
}
