package bot

// This file is the table of the bot's buttons and select menus: the
// core's with their handlers, the capabilities' by name, and the dispatch
// of a press to its handler.

import "context"

// component answers a press by its action.
func (s *Service) component(ctx context.Context, req Request) (Response, error) {
	action := req.Component().Action
	h, named := componentTable[action]
	switch {
	case h != nil:
		return h(s, ctx, req)
	case named && s.routes[action+":"] != nil:
		return s.routes[action+":"](ctx, req)
	}
	return Refuse(req.Me().T("error.dead_button")), nil
}

type componentHandler func(s *Service, ctx context.Context, req Request) (Response, error)

// componentTable names every button and select menu by its action (the
// custom id's part before ":"): the core's with their handlers, a mounted
// capability's without (its Routes answer them).
var componentTable = map[string]componentHandler{
	"move":    (*Service).moveComponent,
	"accept":  challengeAnswer("accept"),
	"decline": challengeAnswer("decline"),
	"cancel":  challengeAnswer("cancel"),
	"rematch": (*Service).rematch,
	// Answered by mounted capabilities: bot/review, bot/tournaments,
	// bot/puzzles, bot/pairing, bot/resigns, bot/pageplay, bot/train,
	// bot/storm.
	"resign":     nil,
	"resign-yes": nil,
	"resign-no":  nil,
	"replay":     nil,
	"tjoin":      nil,
	"tleave":     nil,
	"tleave-yes": nil,
	"tleave-no":  nil,
	"puzzle":     nil,
	"daily":      nil,
	"lessons":    nil,
	"storm":      nil,
	"racejoin":   nil,
	"racestart":  nil,
	"raceplay":   nil,
	"trn":        nil,
	"pplay":      nil,
	"pleave":     nil,
	"watchhere":  nil,
}
