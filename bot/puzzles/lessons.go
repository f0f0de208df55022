package puzzles

// This file is lessons: a finished game's "Learn from my mistakes" button
// gives the player who presses it their own largest mistakes in it as
// puzzles only they are given (package coach finds them and says why), and
// /puzzle mode:mine the next one they have not tried. A lesson is answered
// and rated as any puzzle is (play.go); its end says why.

import (
	"context"
	"errors"
	"math"
	"strings"

	"othello-bot/bot"
	"othello-bot/catalog"
	"othello-bot/coach"
	"othello-bot/game"
	"othello-bot/puzzle"
	"othello-bot/rating"
	"othello-bot/record"
)

// lessonsPerGame is how many of a player's mistakes a game gives.
const lessonsPerGame = 3

// lessonsButton answers "lessons:GAME": the presser's next lesson from that
// game, the game's lessons made for them first if they were not.
func (s *Service) lessonsButton(ctx context.Context, req bot.Request) (bot.Response, error) {
	me := req.Me()
	id, ok := req.Component().Int(0)
	if !ok {
		return bot.Refuse(me.T("error.dead_button")), nil
	}
	g, err := s.store.Game(ctx, id)
	if errors.Is(err, record.ErrNotFound) {
		return bot.Refuse(me.T("error.dead_button")), nil
	}
	if err != nil {
		return bot.Response{}, err
	}
	color := game.Empty
	for _, c := range []game.Color{game.Black, game.White} {
		if side := g.Side(c); !side.IsBot() && side.Player.ID == req.User.ID {
			color = c
		}
	}
	switch {
	case color == game.Empty:
		return bot.Refuse(me.T("lesson.not_yours", "Game", g.ID)), nil
	case g.Status == record.Active:
		return bot.Refuse(me.T("lesson.not_finished", "Game", g.ID)), nil
	case g.Size() != 8:
		return bot.Refuse(me.T("lesson.too_big")), nil
	}
	lessons, made, err := s.store.Lessons(ctx, g.ID, req.User.ID)
	if err != nil {
		return bot.Response{}, err
	}
	if !made {
		if lessons, err = s.makeLessons(ctx, g, color, req.User.ID); err != nil {
			return bot.Response{}, err
		}
	}
	if len(lessons) == 0 {
		return bot.Refuse(me.T("lesson.none", "Game", g.ID, "Loss", coach.MinLoss)), nil
	}
	for i, l := range lessons {
		try, err := s.store.StartTry(ctx, req.User, req.GuildID, l.ID, "", s.Now())
		if errors.Is(err, puzzle.ErrTried) {
			continue
		}
		if err != nil {
			return bot.Response{}, err
		}
		note := me.T("lesson.count", "N", i+1, "Count", len(lessons), "Game", g.ID)
		return bot.Response{Message: s.puzzleMessage(me, l, try, []string{note})}, nil
	}
	return bot.Refuse(me.T("lesson.all_tried", "Game", g.ID)), nil
}

// makeLessons finds a player's lessons in a game and keeps them (once,
// whoever is first), returning what is kept.
func (s *Service) makeLessons(ctx context.Context, g *record.Game, color game.Color, playerID string) ([]puzzle.Record, error) {
	found, err := coach.Find(ctx, s.eng, g.State.Start(), g.Plies(), color, lessonsPerGame)
	if err != nil {
		return nil, err
	}
	kept := make([]puzzle.Record, len(found))
	for i, l := range found {
		kept[i] = lessonRecord(l)
	}
	if _, err := s.store.SaveLessons(ctx, g.GuildID, g.ID, playerID, kept, s.Now()); err != nil {
		return nil, err
	}
	s.Logger(ctx).Info("made lessons", "game", g.ID, "player", playerID, "found", len(found))
	lessons, _, err := s.store.Lessons(ctx, g.ID, playerID)
	return lessons, err
}

// lessonRecord is a lesson as a puzzle: the best move its line, the other
// right answers beside it, its first rating coach.Rating's.
func lessonRecord(l coach.Lesson) puzzle.Record {
	r := rating.New()
	r.Rating = coach.Rating(l)
	return puzzle.Record{Puzzle: puzzle.Puzzle{Start: l.Start, Line: []game.Square{l.Best}, Also: l.Accept[1:],
		Result: int(math.Round(l.BestValue)), Cost: int(math.Round(l.Loss)), Played: l.Played, Ply: l.Ply},
		Why: coach.Encode(l.Why), Rating: record.Glicko(r)}
}

// nextLesson answers /puzzle mode:mine.
func (s *Service) nextLesson(ctx context.Context, req bot.Request) (bot.Response, error) {
	me := req.Me()
	for range 3 {
		l, err := s.store.NextLesson(ctx, req.User.ID)
		if errors.Is(err, record.ErrNotFound) {
			return bot.Refuse(me.T("lesson.none_left")), nil
		}
		if err != nil {
			return bot.Response{}, err
		}
		try, err := s.store.StartTry(ctx, req.User, req.GuildID, l.ID, "", s.Now())
		if errors.Is(err, puzzle.ErrTried) {
			continue // a second press at the same moment took it: the next
		}
		if err != nil {
			return bot.Response{}, err
		}
		return bot.Response{Message: s.puzzleMessage(me, l, try, nil)}, nil
	}
	return bot.Refuse(me.T("error.changed_meanwhile")), nil
}

// lessonTask is a lesson's question, in place of a puzzle's stakes.
func lessonTask(t *catalog.Printer, rec puzzle.Record) string {
	return t.T("lesson.task", "Game", rec.GameID, "Played", rec.Played.String(), "Loss", rec.Cost)
}

// lessonEnd is what a lesson's end adds: its right answers and why the
// move played was worse, each reason in words.
func lessonEnd(t *catalog.Printer, rec puzzle.Record) []string {
	answers := []string{rec.Line[0].String()}
	for _, m := range rec.Also {
		answers = append(answers, m.String())
	}
	lines := []string{t.T("lesson.answers", "Moves", strings.Join(answers, ", "))}
	why, err := coach.Decode(rec.Why, rec.Start.Size())
	if err != nil || len(why) == 0 {
		return lines
	}
	lines = append(lines, t.T("lesson.why_title"))
	for _, r := range why {
		lines = append(lines, "• "+t.T("lesson.why."+string(r.Kind), "Played", rec.Played.String(), "Better", rec.Line[0].String(),
			"Square", r.Square.String(), "Before", r.Before, "After", r.After, "Loss", r.Before))
	}
	return lines
}
