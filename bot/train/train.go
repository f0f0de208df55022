// Package train is the trainers (only the player sees them): /train
// opening plays a named line against the bot from memory and says where
// the player left it; /train endgame gives an endgame of so many empty
// squares to play out against the exact solver, each move graded by the
// discs it lost. A drill's state rides in its move menu's custom id
// (package drill), so nothing is stored and nothing is lost to a restart.
package train

import (
	"context"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"othello-bot/bot"
	"othello-bot/catalog"
	"othello-bot/customid"
	"othello-bot/drill"
	"othello-bot/engine"
	"othello-bot/game"
	"othello-bot/opening"
	"othello-bot/render"
)

// Core is what the trainers need of the shared flow: *bot.Service.
type Core interface {
	Now() time.Time
}

// Service runs the trainers on a core.
type Service struct {
	Core
	eng *engine.Engine
}

// New returns the trainers; mount them on core.
func New(core Core, eng *engine.Engine) *Service { return &Service{Core: core, eng: eng} }

// Routes answers /train opening, /train endgame and their menus.
func (s *Service) Routes() map[string]bot.Handler {
	return map[string]bot.Handler{
		"train opening": s.openingCommand,
		"train endgame": s.endgameCommand,
		"trn:":          s.answer,
	}
}

// The two drills' custom ids: "trn:o:KEY:SEAT:STEP" (the line's key, the
// player's colour, the ply asked for) and "trn:e:POSITION:SEAT:PERFECT"
// (the position, the player's colour, the margin perfect play gets them
// from the drill's start).
const (
	lineDrill    = "o"
	endgameDrill = "e"
)

const color = 0x00695c

// Find is the named line a player asked for: its key, or its name in
// either language (case and spaces aside).
func Find(t *catalog.Printer, asked string) (opening.Opening, bool) {
	want := fold(asked)
	en := catalog.For(catalog.English)
	for _, o := range opening.Standard().All() {
		if fold(o.Key) == want || fold(o.Name(t)) == want || fold(o.Name(en)) == want {
			return o, true
		}
	}
	return opening.Opening{}, false
}

func fold(s string) string { return strings.ToLower(strings.Join(strings.Fields(s), " ")) }

func (s *Service) openingCommand(ctx context.Context, req bot.Request) (bot.Response, error) {
	me := req.Me()
	o, ok := Find(me, req.Options["name"])
	if !ok {
		return bot.Refuse(me.T("train.no_line", "Name", bot.Clip(req.Options["name"], 100))), nil
	}
	seat := game.Black
	switch req.Options["color"] {
	case "white":
		seat = game.White
	case "random":
		if rand.IntN(2) == 1 {
			seat = game.White
		}
	}
	step := 0
	if seat == game.White {
		step = 1 // the line's first move is the bot's
	}
	return bot.Response{Message: s.lineMessage(me, o, seat, step, nil)}, nil
}

// lineMessage shows a line's drill at step: the position after the line's
// first step moves, and the menu for the player's next.
func (s *Service) lineMessage(t *catalog.Printer, o opening.Opening, seat game.Color, step int, notes []string) *bot.Message {
	g, _ := game.Replay(start(), o.Moves[:step])
	p := g.Position()
	last := game.Pass
	if step > 0 {
		last = o.Moves[step-1]
	}
	lines := append(append([]string(nil), notes...), render.Emoji(p, last, true),
		t.T("train.line_task", "Name", o.Name(t), "Side", t.T("color."+colorWord(seat)), "Moves", len(o.Moves)))
	e := &bot.Embed{Title: t.T("train.line_title", "Name", o.Name(t)), Description: bot.JoinLines(lines, bot.MaxDescription), Color: color}
	menu := moveMenu(t, p, customid.Make("trn", lineDrill, o.Key, seatCode(seat), step))
	return &bot.Message{Embed: e, Components: []bot.Row{{Menu: menu}}, Ephemeral: true}
}

func (s *Service) endgameCommand(ctx context.Context, req bot.Request) (bot.Response, error) {
	me := req.Me()
	empties, err := bot.IntOption(req, "empties", 10)
	if err != nil || empties < drill.MinEmpties || empties > drill.MaxEmpties {
		return bot.Refuse(me.T("train.bad_empties", "Min", drill.MinEmpties, "Max", drill.MaxEmpties)), nil
	}
	rng := rand.New(rand.NewPCG(uint64(s.Now().UnixNano()), rand.Uint64()))
	p, err := drill.Endgame(ctx, s.eng, rng, empties)
	if err != nil {
		return bot.Response{}, err
	}
	perfect, err := drill.Perfect(ctx, s.eng, p)
	if err != nil {
		return bot.Response{}, err
	}
	return bot.Response{Message: s.endgameMessage(me, p, p.ToMove(), perfect, game.Pass, nil)}, nil
}

// endgameMessage shows an endgame drill where the player is to move.
func (s *Service) endgameMessage(t *catalog.Printer, p game.Position, seat game.Color, perfect int, last game.Square, notes []string) *bot.Message {
	lines := append(append([]string(nil), notes...), render.Emoji(p, last, true),
		t.T("train.endgame_task", "Side", t.T("color."+colorWord(seat)), "Empties", p.Empties(), "Perfect", signed(perfect)))
	e := &bot.Embed{Title: t.T("train.endgame_title"), Description: bot.JoinLines(lines, bot.MaxDescription), Color: color}
	menu := moveMenu(t, p, customid.Make("trn", endgameDrill, drill.Encode(p), seatCode(seat), perfect))
	return &bot.Message{Embed: e, Components: []bot.Row{{Menu: menu}}, Ephemeral: true}
}

func moveMenu(t *catalog.Printer, p game.Position, id string) *bot.Menu {
	menu := &bot.Menu{CustomID: id, Placeholder: bot.Clip(t.T("train.pick"), bot.MaxPlaceholder)}
	for i, sq := range p.LegalMoves() {
		if i == bot.MaxMenuOptions {
			break
		}
		menu.Options = append(menu.Options, bot.MenuOption{Label: sq.String(), Value: sq.String()})
	}
	return menu
}

func start() game.Position {
	p, _ := game.NewPosition(8)
	return p
}

func seatCode(c game.Color) string {
	if c == game.White {
		return "O"
	}
	return "X"
}

func seatOf(code string) (game.Color, bool) {
	switch code {
	case "X":
		return game.Black, true
	case "O":
		return game.White, true
	}
	return game.Empty, false
}

// signed writes a margin with its sign: +4, −2, 0.
func signed(v int) string {
	switch {
	case v > 0:
		return "+" + strconv.Itoa(v)
	case v < 0:
		return "−" + strconv.Itoa(-v)
	}
	return "0"
}

func colorWord(c game.Color) string {
	if c == game.White {
		return "white"
	}
	return "black"
}
