package bot

// This file is XOT starts: /start and /challenge with xot:true open the
// game from a random balanced 8-move opening (package xot), played on the
// board before the first move of the game proper.

import (
	"strconv"
	"strings"

	"othello-bot/catalog"
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

// xotOpened is the note that names a game's XOT opening ("" for none).
func xotOpened(t *catalog.Printer, opened *xot.Opening) string {
	if opened == nil {
		return ""
	}
	return t.T("xot.opened", "Moves", opened.Transcript())
}
