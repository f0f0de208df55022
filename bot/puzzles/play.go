package puzzles

// This file is puzzles: /puzzle gives a player a position from this
// server's own games (the built-in set while there are none left), they
// answer with the move menu, right or wrong is rated as lichess rates
// puzzles, and /puzzle show: gives the leaderboard or one's own record.
// Package puzzle holds the rules; the store keeps each try, answered once.

import (
	"context"
	"errors"
	"math"
	"slices"
	"strconv"
	"strings"

	"othello-bot/bot"
	"othello-bot/catalog"
	"othello-bot/customid"
	"othello-bot/game"
	"othello-bot/puzzle"
	"othello-bot/record"
	"othello-bot/render"
)

// puzzleSearch bounds the search of a game for puzzles: about 20 empty
// squares (Config.PuzzleEmpties), up to three moves to find.
func (s *Service) puzzleSearch() puzzle.Options {
	o := puzzle.Options{MaxEmpties: 20, MaxMoves: 3}
	if s.cfg.Empties > 0 {
		o.MaxEmpties = s.cfg.Empties
	}
	return o
}

func (s *Service) puzzleCommand(ctx context.Context, req bot.Request) (bot.Response, error) {
	me := req.Me()
	switch strings.TrimSpace(req.Options["mode"]) {
	case "":
	case "mine":
		if req.Options["show"] != "" {
			return bot.Refuse(me.T("puzzle.one_at_a_time")), nil
		}
		return s.nextLesson(ctx, req)
	default:
		h := s.cfg.Modes[strings.TrimSpace(req.Options["mode"])]
		if h == nil {
			return bot.Refuse(me.T("puzzle.bad_mode")), nil
		}
		if req.Options["show"] != "" {
			return bot.Refuse(me.T("puzzle.one_at_a_time")), nil
		}
		return h(ctx, req)
	}
	switch strings.TrimSpace(req.Options["show"]) {
	case "":
	case "leaderboard":
		return s.puzzleLeaderboard(ctx, req)
	case "me":
		v, err := s.solver(ctx, req.User.ID)
		if err != nil {
			return bot.Response{}, err
		}
		if v.Attempts == 0 {
			return bot.Refuse(me.T("puzzle.none_tried")), nil
		}
		return bot.Refuse(me.T("puzzle.record", "Rating", math.Round(v.Rating.Rating), "Deviation", math.Round(v.Rating.Deviation),
			"Solved", v.Solved, "Tried", v.Attempts, "Streak", v.Streak, "Best", v.BestStreak)), nil
	default:
		return bot.Refuse(me.T("puzzle.bad_show")), nil
	}
	v, err := s.solver(ctx, req.User.ID)
	if err != nil {
		return bot.Response{}, err
	}
	for attempt := 0; attempt < 3; attempt++ {
		rec, err := s.store.PickPuzzle(ctx, req.GuildID, req.User.ID, v.Rating.Rating)
		if errors.Is(err, record.ErrNotFound) {
			return bot.Refuse(me.T("puzzle.all_tried")), nil
		}
		if err != nil {
			return bot.Response{}, err
		}
		try, err := s.store.StartTry(ctx, req.User, req.GuildID, rec.ID, "", s.Now())
		if errors.Is(err, puzzle.ErrTried) {
			continue // taken by a second /puzzle at the same moment: pick again
		}
		if err != nil {
			return bot.Response{}, err
		}
		return bot.Response{Message: s.puzzleMessage(me, rec, try, nil)}, nil
	}
	return bot.Refuse(me.T("error.changed_meanwhile")), nil
}

// puzzleMessage shows a try where it stands: the board, whose move and
// what is at stake, and the move menu; notes (what the last answer did)
// go first.
func (s *Service) puzzleMessage(t *catalog.Printer, rec puzzle.Record, try puzzle.Try, notes []string) *bot.Message {
	pos, err := rec.Position(try.Step)
	if err != nil {
		pos = rec.Start
	}
	last := game.Pass
	if try.Step > 0 {
		last = rec.Line[try.Step-1]
	}
	stakes, title := Stakes(t, rec), "puzzle.title"
	if rec.Owner != "" {
		stakes, title = lessonTask(t, rec), "lesson.title"
	}
	lines := append(append([]string(nil), notes...), render.Emoji(pos, last, true), stakes)
	if rec.Moves() > 1 && try.Step == 0 {
		lines = append(lines, t.T("puzzle.moves", "Count", rec.Moves()))
	}
	lines = append(lines, t.T("puzzle.expires", "When", bot.Stamp(try.Expires, bot.StampRelative)))
	e := &bot.Embed{Title: t.T(title, "ID", rec.ID, "Rating", math.Round(rec.Rating.Rating)), Description: bot.JoinLines(lines, bot.MaxDescription),
		Footer: sourceLine(t, rec), Color: 0x6a1b9a}
	menu := &bot.Menu{CustomID: customid.Make("puzzle", try.ID, try.Step), Placeholder: bot.Clip(t.T("puzzle.pick"), bot.MaxPlaceholder)}
	for i, sq := range pos.LegalMoves() {
		if i == bot.MaxMenuOptions {
			break
		}
		menu.Options = append(menu.Options, bot.MenuOption{Label: sq.String(), Value: sq.String()})
	}
	return &bot.Message{Embed: e, Components: []bot.Row{{Menu: menu}}, Ephemeral: true}
}

// Stakes says whose move it is and what the right moves achieve (Puzzle
// Storm shows it too).
func Stakes(t *catalog.Printer, rec puzzle.Record) string {
	black := rec.Start.ToMove() == game.Black
	switch {
	case rec.Result > 0 && black:
		return t.T("puzzle.win_black", "Margin", rec.Result)
	case rec.Result > 0:
		return t.T("puzzle.win_white", "Margin", rec.Result)
	case black:
		return t.T("puzzle.draw_black")
	}
	return t.T("puzzle.draw_white")
}

// sourceLine says where a puzzle came from.
func sourceLine(t *catalog.Printer, rec puzzle.Record) string {
	if rec.GameID == 0 {
		return t.T("puzzle.from_builtin")
	}
	return t.T("puzzle.from_game", "ID", rec.GameID, "Move", rec.Ply+1, "Played", rec.Played.String(), "Cost", rec.Cost)
}

// puzzleAnswer takes a move from a puzzle's menu ("puzzle:TRY:STEP").
func (s *Service) puzzleAnswer(ctx context.Context, req bot.Request) (bot.Response, error) {
	me := req.Me()
	c := req.Component()
	id, ok1 := c.Int(0)
	step64, ok2 := c.Int(1)
	step := int(step64)
	if !ok1 || !ok2 || len(req.Values) != 1 {
		return bot.Refuse(me.T("error.dead_button")), nil
	}
	try, err := s.store.Try(ctx, id)
	if errors.Is(err, record.ErrNotFound) {
		return bot.Refuse(me.T("error.dead_button")), nil
	}
	if err != nil {
		return bot.Response{}, err
	}
	switch {
	case try.PlayerID != req.User.ID:
		return bot.Refuse(me.T("puzzle.not_yours")), nil
	case try.Status != puzzle.Open || try.Step != step:
		return bot.Refuse(me.T("puzzle.answered")), nil
	}
	rec, err := s.store.Puzzle(ctx, try.PuzzleID)
	if err != nil {
		return bot.Response{}, err
	}
	now := s.Now()
	if try.Expired(now) {
		return s.endTry(ctx, me, rec, try, false, []string{me.T("puzzle.expired", "Minutes", int(puzzle.TimeToAnswer.Minutes()))})
	}
	move, err := game.ParseSquare(req.Values[0], 8)
	if err != nil {
		return bot.Refuse(me.T("error.dead_button")), nil
	}
	if !Offered(rec, step, move) {
		// Only a move the menu offers is an answer; anything else (a
		// crafted or mistyped value) is refused and counts for nothing.
		return bot.Refuse(me.T("puzzle.not_offered", "Move", move.String())), nil
	}
	verdict, reply, next := rec.Answer(step, move)
	switch verdict {
	case puzzle.Wrong:
		return s.endTry(ctx, me, rec, try, false, []string{me.T("puzzle.wrong", "Move", move.String(), "Right", rec.Line[step].String())})
	case puzzle.Solved:
		return s.endTry(ctx, me, rec, try, true, []string{me.T("puzzle.right", "Move", move.String())})
	}
	ok, err := s.store.AdvanceTry(ctx, try.ID, step, next)
	if err != nil {
		return bot.Response{}, err
	}
	if !ok {
		return bot.Refuse(me.T("puzzle.answered")), nil
	}
	try.Step = next
	notes := []string{me.T("puzzle.right_go_on", "Move", move.String(), "Reply", reply.String())}
	return bot.Response{Update: true, Message: s.puzzleMessage(me, rec, try, notes)}, nil
}

// Offered says whether move is one of the menu's at step: a legal move
// of the position, among the first the menu holds (Puzzle Storm asks it
// too).
func Offered(rec puzzle.Record, step int, move game.Square) bool {
	pos, err := rec.Position(step)
	if err != nil {
		return false
	}
	moves := pos.LegalMoves()
	return slices.Contains(moves[:min(len(moves), bot.MaxMenuOptions)], move)
}

// endTry finishes a try, rated, and shows the solution and what it did to
// the player's rating and streak.
func (s *Service) endTry(ctx context.Context, t *catalog.Printer, rec puzzle.Record, try puzzle.Try, solved bool, notes []string) (bot.Response, error) {
	before, err := s.solver(ctx, try.PlayerID)
	if err != nil {
		return bot.Response{}, err
	}
	after, done, err := s.store.FinishTry(ctx, try.ID, try.Step, solved, s.Now(),
		func(before *puzzle.Solver, p record.Glicko) record.TryRating { return puzzle.Finish(before, p, solved) })
	if err != nil {
		return bot.Response{}, err
	}
	if !done {
		return bot.Refuse(t.T("puzzle.answered")), nil
	}
	change := math.Round(after.Rating.Rating) - math.Round(before.Rating.Rating)
	title, again := "puzzle.title", "puzzle.again"
	lines := append(notes, render.Emoji(rec.Start, game.Pass, false))
	if rec.Owner != "" {
		title, again = "lesson.title", "lesson.again"
		lines = append(append(lines, t.T("lesson.played", "Game", rec.GameID, "Played", rec.Played.String(), "Loss", rec.Cost)), lessonEnd(t, rec)...)
	} else {
		lines = append(lines, Stakes(t, rec), t.T("puzzle.solution", "Line", game.FormatTranscript(rec.Line, 8)))
	}
	lines = append(lines, t.T("puzzle.rating_change", "Before", math.Round(before.Rating.Rating), "After", math.Round(after.Rating.Rating), "Change", signedText(change)))
	if solved {
		lines = append(lines, t.T("puzzle.streak", "Count", after.Streak, "Best", after.BestStreak))
	}
	lines = append(lines, t.T(again))
	e := &bot.Embed{Title: t.T(title, "ID", rec.ID, "Rating", math.Round(rec.Rating.Rating)), Description: bot.JoinLines(lines, bot.MaxDescription),
		Footer: sourceLine(t, rec), Color: 0x6a1b9a}
	return bot.Response{Update: true, Message: &bot.Message{Embed: e, Ephemeral: true}}, nil
}

// signedText writes a rating change with its sign: +12, −8, ±0.
func signedText(v float64) string {
	switch {
	case v > 0:
		return "+" + strconv.FormatFloat(v, 'f', 0, 64)
	case v < 0:
		return "−" + strconv.FormatFloat(-v, 'f', 0, 64)
	}
	return "±0"
}

func (s *Service) puzzleLeaderboard(ctx context.Context, req bot.Request) (bot.Response, error) {
	me := req.Me()
	if req.GuildID == "" {
		return bot.Refuse(me.T("puzzle.leaderboard_server")), nil
	}
	board, err := s.store.PuzzleLeaderboard(ctx, req.GuildID, 20)
	if err != nil {
		return bot.Response{}, err
	}
	if len(board) == 0 {
		return bot.Refuse(me.T("puzzle.leaderboard_empty")), nil
	}
	var lines []string
	for i, st := range board {
		lines = append(lines, me.T("puzzle.leaderboard_line", "Rank", i+1, "Name", bot.Escape(st.Player.Name), "Rating", st.Rating,
			"Solved", st.Solved, "Tried", st.Tried, "Best", st.BestStreak))
	}
	return bot.Response{Message: &bot.Message{Ephemeral: true, Embed: &bot.Embed{Title: me.T("puzzle.leaderboard_title"), Description: bot.JoinLines(lines, bot.MaxDescription)}}}, nil
}
