package review

// This file is /analyze record: a game played elsewhere (a transcript, a
// GGF or PGN record) analysed as our own games are, or a position (a
// board and a side to move) with every move's value. Records are not
// kept: the same record asked again is analysed again.

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"othello-bot/analysis"
	"othello-bot/bot"
	"othello-bot/catalog"
	"othello-bot/game"
	"othello-bot/notation"
	"othello-bot/render"
)

func (s *Service) analyzeRecord(ctx context.Context, req bot.Request, text string) (bot.Response, error) {
	me := req.Me()
	r, err := notation.Read(text)
	if err != nil {
		e, ok := notation.ErrorOf(err)
		if !ok {
			return bot.Response{}, fmt.Errorf("reading a record: %w", err)
		}
		if e.Detail != "" {
			s.Logger(ctx).Info("a record did not read", "kind", e.Kind, "detail", e.Detail)
		}
		return bot.Refuse(refusal(me, e)), nil
	}
	if r.Start.Size() > 8 {
		return bot.Refuse(me.T("analysis.record.too_big", "Size", r.Start.Size())), nil
	}
	subj := recordSubject(r)
	if subj.kind == ofPosition {
		if !r.Start.HasMoves() {
			return bot.Refuse(me.T("analysis.position.no_move", "Side", me.T("analysis.side."+r.Start.ToMove().String()))), nil
		}
		return s.enqueue(ctx, req, subj, s.positionWork(subj))
	}
	return s.enqueue(ctx, req, subj, func(ctx context.Context, t *catalog.Printer, progress func(done, total int)) (*bot.Message, error) {
		rep, err := analysis.Run(ctx, s.eng, subj.start, subj.plies, analysis.Default, progress)
		if err != nil {
			return nil, err
		}
		return s.analysisMessage(ctx, t, subj, rep), nil
	})
}

// refusal words why a record did not read.
func refusal(t *catalog.Printer, e *notation.Error) string {
	return t.T("analysis.record.bad."+string(e.Kind), "Move", e.Move, "Text", bot.Escape(e.Text), "Size", e.Size)
}

// positionWork scores every move of a position as the analysis scores a
// game's: to the analysis's depth, exact near the end.
func (s *Service) positionWork(subj *subject) work {
	return func(ctx context.Context, t *catalog.Printer, _ func(done, total int)) (*bot.Message, error) {
		set := analysis.Default
		scores, err := s.eng.ScoreMoves(ctx, subj.start, set.Depth, set.ExactFrom)
		if err != nil {
			return nil, fmt.Errorf("scoring a position's moves: %w", err)
		}
		if len(scores) == 0 {
			return nil, errors.New("a position with moves scored none")
		}
		lines := make([]string, 0, len(scores))
		for i, sc := range scores {
			key := "analysis.position.move"
			if sc.Eval.Exact {
				key = "analysis.position.move_exact"
			}
			line := t.T(key, "Rank", i+1, "Move", sc.Move.String(), "Value", fmt.Sprintf("%+.1f", sc.Eval.Discs()))
			if sc.Book {
				line += " 📖"
			}
			lines = append(lines, line)
		}
		m := &bot.Message{Embed: &bot.Embed{
			Title:       bot.Clip(subj.say(t, "title"), bot.MaxEmbedTitle),
			Description: bot.JoinLines(lines, bot.MaxDescription),
			Footer:      t.T("analysis.position.footer", "Exact", set.ExactFrom, "Depth", set.Depth),
			Color:       0x2e7d32,
		}}
		caption := strings.TrimSpace(subj.say(t, "title"))
		if data, err := render.PNG(subj.start, game.Pass, caption, true); err != nil {
			s.Logger(ctx).Error("drawing a position", "err", err)
		} else {
			m.Files = []bot.File{{Name: "position.png", Data: data}}
			m.Embed.Image = "attachment://position.png"
		}
		return m, nil
	}
}
