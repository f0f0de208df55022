package storm

// This file is a run's two moves, whichever door they come by (the chat's
// /puzzle and menu, the page's Start and click): dealing a run, and
// taking an answer by the rules, the run moved in the store only from
// where it stood.

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"

	"othello-bot/bot/puzzles"
	"othello-bot/catalog"
	"othello-bot/game"
	"othello-bot/puzzle"
	"othello-bot/record"
	"othello-bot/storm"
)

var errNoPuzzles = errors.New("no puzzles to deal")

// begin deals p a run in a server ("" outside one) and keeps it: the
// chat's /puzzle and the page's Start alike.
func (s *Service) begin(ctx context.Context, p record.Player, guildID string, mode storm.Mode) (storm.Run, error) {
	pool, err := s.store.StormPool(ctx, guildID)
	if err != nil {
		return storm.Run{}, err
	}
	n := storm.StormSize
	if mode == storm.Streak {
		n = storm.StreakSize
	}
	dealt := storm.Deal(pool, n, rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64())))
	if len(dealt) == 0 {
		return storm.Run{}, errNoPuzzles
	}
	r := storm.New(mode, p, guildID, dealt, s.Now())
	r.ID, err = s.store.StartRun(ctx, r)
	return r, err
}

// answered is what came of an answer: the run after it, what it did in
// the player's words, whether it ended the run; refused says why nothing
// moved.
type answered struct {
	run     storm.Run
	notes   []string
	ended   bool
	refused string
	now     time.Time
}

// take plays square as p's answer to run id where it stood at (index,
// step): the one rule path of the chat's menu and the page's click.
func (s *Service) take(ctx context.Context, t *catalog.Printer, p record.Player, id int64, index, step int, square string) (answered, error) {
	r, err := s.store.Run(ctx, id)
	if errors.Is(err, record.ErrNotFound) {
		return answered{refused: t.T("error.dead_button")}, nil
	}
	if err != nil {
		return answered{}, err
	}
	now := s.Now()
	a := answered{run: r, now: now}
	switch {
	case r.Player.ID != p.ID:
		a.refused = t.T("storm.not_yours")
		return a, nil
	case r.Over || r.Index != index || r.Step != step:
		a.refused = t.T("storm.answered")
		return a, nil
	case r.Done(now):
		// The clock ran out before this answer: it does not count.
		r.Over = true
		if ok, err := s.store.SaveRun(ctx, r, r.Index, r.Step); err != nil || !ok {
			a.refused = t.T("storm.answered")
			return a, err
		}
		a.run, a.notes, a.ended = r, []string{t.T("storm.times_up")}, true
		return a, nil
	}
	rec, err := s.store.Puzzle(ctx, r.Puzzle())
	if err != nil {
		return answered{}, err
	}
	move, err := game.ParseSquare(square, 8)
	if err != nil || !puzzles.Offered(rec, r.Step, move) {
		a.refused = t.T("error.dead_button")
		return a, nil
	}
	var note string
	verdict, reply, next := rec.Answer(r.Step, move)
	switch verdict {
	case puzzle.Wrong:
		r.Miss()
		note = t.T("storm.wrong_streak", "Move", move.String(), "Right", rec.Line[step].String())
		if r.Mode == storm.Storm {
			note = t.T("storm.wrong_storm", "Move", move.String(), "Right", rec.Line[step].String())
		}
	case puzzle.Solved:
		note = t.T("storm.right", "Move", move.String())
		if bonus := r.Solve(); bonus > 0 {
			note = t.T("storm.right_bonus", "Move", move.String(), "Combo", r.Combo, "Seconds", int(bonus/time.Second))
		}
	default:
		r.Advance(next)
		note = t.T("storm.right_go_on", "Move", move.String(), "Reply", reply.String())
	}
	ok, err := s.store.SaveRun(ctx, r, index, step)
	if err != nil {
		return answered{}, err
	}
	if !ok {
		a.refused = t.T("storm.answered")
		return a, nil
	}
	if r.Race != 0 && verdict != puzzle.Right {
		// The track shows puzzles solved and missed: a step inside a
		// puzzle changes neither, and would spend the second's one edit
		// that the puzzle's end then needs.
		s.showRace(ctx, r.Race, now)
	}
	a.run, a.notes = r, []string{note}
	if r.Done(now) {
		a.ended = true
		switch {
		case r.Mode == storm.Streak && verdict == puzzle.Wrong: // the miss says it
		case r.Index >= len(r.Puzzles):
			a.notes = append(a.notes, t.T("storm.all_dealt"))
		default: // a miss took the last seconds
			a.notes = append(a.notes, t.T("storm.times_up"))
		}
	}
	return a, nil
}
