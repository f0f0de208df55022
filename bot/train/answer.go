package train

// This file is the drills' answers: a move from a drill's menu, checked
// against the line or graded by the solver, and the drill shown again with
// the bot's reply, or its end.

import (
	"context"
	"slices"
	"strings"

	"othello-bot/bot"
	"othello-bot/catalog"
	"othello-bot/customid"
	"othello-bot/drill"
	"othello-bot/game"
	"othello-bot/opening"
	"othello-bot/render"
)

func (s *Service) answer(ctx context.Context, req bot.Request) (bot.Response, error) {
	me := req.Me()
	c := req.Component()
	kind, _ := c.Word(0)
	seatWord, _ := c.Word(2)
	seat, ok := seatOf(seatWord)
	if !ok || len(req.Values) != 1 {
		return bot.Refuse(me.T("error.dead_button")), nil
	}
	move, err := game.ParseSquare(req.Values[0], 8)
	if err != nil {
		return bot.Refuse(me.T("error.dead_button")), nil
	}
	switch kind {
	case lineDrill:
		return s.lineAnswer(me, c, seat, move), nil
	case endgameDrill:
		return s.endgameAnswer(ctx, me, c, seat, move)
	}
	return bot.Refuse(me.T("error.dead_button")), nil
}

// offered says move is one of the menu's: legal, among the first shown.
func offered(p game.Position, move game.Square) bool {
	moves := p.LegalMoves()
	return slices.Contains(moves[:min(len(moves), bot.MaxMenuOptions)], move)
}

func (s *Service) lineAnswer(t *catalog.Printer, c customid.ID, seat game.Color, move game.Square) bot.Response {
	key, _ := c.Word(1)
	step, ok := c.Int(3)
	o, found := opening.Standard().ByKey(key)
	if !ok || !found || step < 0 || int(step) >= len(o.Moves) || (step%2 == 0) != (seat == game.Black) {
		return bot.Refuse(t.T("error.dead_button"))
	}
	n := int(step)
	g, _ := game.Replay(start(), o.Moves[:n])
	if !offered(g.Position(), move) {
		return bot.Refuse(t.T("train.not_offered", "Move", move.String()))
	}
	whole := t.T("train.line_whole", "Name", o.Name(t), "Line", spaced(o.Moves))
	if move != o.Moves[n] {
		return s.lineEnd(t, o, n, move, []string{t.T("train.left_line", "Name", o.Name(t), "N", n/2+1, "Right", o.Moves[n].String(), "Move", move.String()), whole})
	}
	switch {
	case n+1 == len(o.Moves):
		return s.lineEnd(t, o, n+1, game.Pass, []string{t.T("train.line_done", "Name", o.Name(t), "Count", len(o.Moves)), whole})
	case n+2 == len(o.Moves):
		return s.lineEnd(t, o, n+2, game.Pass, []string{t.T("train.line_done_reply", "Name", o.Name(t), "Count", len(o.Moves), "Reply", o.Moves[n+1].String()), whole})
	}
	note := t.T("train.line_right", "Move", move.String(), "Reply", o.Moves[n+1].String())
	return bot.Response{Update: true, Message: s.lineMessage(t, o, seat, n+2, []string{note})}
}

// lineEnd shows where a line's drill ended: the board after the first
// plies of the line (and the player's own move when they left it).
func (s *Service) lineEnd(t *catalog.Printer, o opening.Opening, plies int, theirs game.Square, notes []string) bot.Response {
	g, _ := game.Replay(start(), o.Moves[:plies])
	p, last := g.Position(), game.Pass
	if plies > 0 {
		last = o.Moves[plies-1]
	}
	if !theirs.IsPass() {
		if q, err := p.Play(theirs); err == nil {
			p, last = q, theirs
		}
	}
	lines := append([]string{render.Emoji(p, last, false)}, notes...)
	lines = append(lines, t.T("train.again"))
	e := &bot.Embed{Title: t.T("train.line_title", "Name", o.Name(t)), Description: bot.JoinLines(lines, bot.MaxDescription), Color: color}
	return bot.Response{Update: true, Message: &bot.Message{Embed: e, Ephemeral: true}}
}

func (s *Service) endgameAnswer(ctx context.Context, t *catalog.Printer, c customid.ID, seat game.Color, move game.Square) (bot.Response, error) {
	state, _ := c.Word(1)
	perfect, ok := c.Int(3)
	p, err := drill.Decode(state)
	if err != nil || !ok || p.ToMove() != seat || p.GameOver() {
		return bot.Refuse(t.T("error.dead_button")), nil
	}
	if !offered(p, move) {
		return bot.Refuse(t.T("train.not_offered", "Move", move.String())), nil
	}
	lost, best, err := drill.Lost(ctx, s.eng, p, move)
	if err != nil {
		return bot.Response{}, err
	}
	notes := []string{t.T("train.perfect_move", "Move", move.String())}
	if lost > 0 {
		notes = []string{t.T("train.lost_move", "Move", move.String(), "Lost", lost, "Best", best.String())}
	}
	p, _ = p.Play(move)
	last := move
	var replies []string
	for !p.GameOver() && (p.ToMove() != seat || p.MustPass()) {
		if p.MustPass() {
			p = p.Pass()
			continue
		}
		r, err := s.eng.Solve(ctx, p)
		if err != nil {
			return bot.Response{}, err
		}
		p, _ = p.Play(r.Move)
		last = r.Move
		replies = append(replies, r.Move.String())
	}
	if len(replies) > 0 {
		notes = append(notes, t.T("train.replies", "Moves", strings.Join(replies, ", ")))
	}
	if !p.GameOver() {
		return bot.Response{Update: true, Message: s.endgameMessage(t, p, seat, int(perfect), last, notes)}, nil
	}
	final := drill.Final(p, seat)
	b, w := p.Count()
	notes = append(notes, t.T("train.endgame_done", "Black", b, "White", w, "Final", signed(final), "Perfect", signed(int(perfect)), "Lost", int(perfect)-final))
	lines := append([]string{render.Emoji(p, last, false)}, notes...)
	lines = append(lines, t.T("train.again"))
	e := &bot.Embed{Title: t.T("train.endgame_title"), Description: bot.JoinLines(lines, bot.MaxDescription), Color: color}
	return bot.Response{Update: true, Message: &bot.Message{Embed: e, Ephemeral: true}}, nil
}

// spaced writes moves as players read a line: f5 d6 c3.
func spaced(moves []game.Square) string {
	out := make([]string, len(moves))
	for i, m := range moves {
		out[i] = m.String()
	}
	return strings.Join(out, " ")
}
