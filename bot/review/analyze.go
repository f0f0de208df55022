package review

// This file is /analyze: a finished game's moves compared with the
// engine's best, worked out in the background one game at a time (with a
// progress message edited as it goes) and kept in the store, so each game
// is analysed once.

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"othello-bot/analysis"
	"othello-bot/bot"
	"othello-bot/catalog"
	"othello-bot/game"
	"othello-bot/opening"
	"othello-bot/place"
	"othello-bot/record"
	"othello-bot/render"
)

func (s *Service) analyzeCommand(ctx context.Context, req bot.Request) (bot.Response, error) {
	if text := strings.TrimSpace(req.Options["record"]); text != "" {
		if strings.TrimSpace(req.Options["game"]) != "" {
			return bot.Refuse(req.Me().T("analysis.record.both")), nil
		}
		return s.analyzeRecord(ctx, req, text)
	}
	id, ok := gameOption(req)
	if !ok {
		return bot.Refuse(req.Me().T("analysis.which")), nil
	}
	me, pub := req.Me(), req.Pub()
	g, refusal, err := s.FinishedGame(ctx, req, id)
	if refusal != nil || err != nil {
		return bot.Deref(refusal), err
	}
	if g.Size() > 8 {
		return bot.Refuse(me.T("analysis.too_big", "ID", g.ID, "Size", g.Size())), nil
	}
	subj := gameSubject(g)
	if data, err := s.store.Analysis(ctx, g.ID); err == nil {
		var rep analysis.Report
		if err := json.Unmarshal(data, &rep); err == nil {
			return bot.Response{Message: s.analysisMessage(ctx, pub, subj, &rep)}, nil
		}
		s.Logger(ctx).Warn("a stored analysis does not read; analysing again", "game", g.ID)
	} else if !errors.Is(err, record.ErrNotFound) {
		return bot.Response{}, err
	}
	return s.enqueue(ctx, req, subj, func(ctx context.Context, t *catalog.Printer, progress func(done, total int)) (*bot.Message, error) {
		rep, err := analysis.Run(ctx, s.eng, subj.start, subj.plies, analysis.Default, progress)
		if err != nil {
			return nil, err
		}
		if data, err := json.Marshal(rep); err != nil {
			s.Logger(ctx).Error("encoding an analysis", "game", g.ID, "err", err)
		} else if err := s.store.SaveAnalysis(ctx, g.ID, data, s.Now()); err != nil {
			s.Logger(ctx).Error("saving an analysis", "game", g.ID, "err", err)
		}
		return s.analysisMessage(ctx, t, subj, rep), nil
	})
}

// work is an analysis's search, done in the background: it returns the
// message that shows the result.
type work func(ctx context.Context, t *catalog.Printer, progress func(done, total int)) (*bot.Message, error)

// enqueue answers an /analyze whose work is to be done: a progress
// message (the reply where the bot cannot post, else a message of its
// own), edited as the work goes on and at its end.
func (s *Service) enqueue(ctx context.Context, req bot.Request, subj *subject, w work) (bot.Response, error) {
	me, pub := req.Me(), req.Pub()
	q := s.queue
	q.mu.Lock()
	switch {
	case q.running[subj.key]:
		q.mu.Unlock()
		return bot.Refuse(subj.say(me, "already")), nil
	case q.queued >= maxQueuedAnalyses:
		q.mu.Unlock()
		return bot.Refuse(me.T("analysis.queue_full")), nil
	}
	ahead := q.queued
	q.queued++
	q.running[subj.key] = true
	q.mu.Unlock()
	done := func() {
		q.mu.Lock()
		q.queued--
		delete(q.running, subj.key)
		q.mu.Unlock()
	}
	text := subj.say(pub, "started")
	if ahead > 0 {
		text = subj.say(pub, "queued", "Count", ahead)
	}
	start := func(edit func(context.Context, bot.Message) error) {
		q.wg.Add(1)
		go func() {
			defer q.wg.Done()
			defer done()
			s.runAnalysis(pub, subj, w, edit)
		}()
	}
	if !req.Place.BotPosts() {
		// No post of its own here: the reply is the progress message,
		// edited by the request's token while it lives; the work starts
		// once the reply is shown, so no edit comes before it.
		reply := place.Reply{Token: req.Token, Issued: cmp.Or(req.At, s.Now())}
		progress := &bot.Message{Content: text}
		var once sync.Once
		progress.OnPosted(func(context.Context, string) {
			once.Do(func() {
				start(func(ctx context.Context, m bot.Message) error {
					if !reply.Alive(s.Now()) {
						return bot.ErrUnreachable
					}
					_, err := s.EditReply(ctx, reply.Token, m)
					return err
				})
			})
		})
		// A reply never shown frees the subject's place in the queue.
		time.AfterFunc(replyShownWithin, func() { once.Do(done) })
		return bot.Response{Message: progress}, nil
	}
	msgID, err := s.Send(ctx, req.ChannelID, bot.Message{Content: text})
	if err != nil {
		done()
		return bot.Response{}, fmt.Errorf("posting the progress of an analysis: %w", err)
	}
	channel := req.ChannelID
	start(func(ctx context.Context, m bot.Message) error { return s.Edit(ctx, channel, msgID, m) })
	return bot.Refuse(subj.say(me, "working")), nil
}

// replyShownWithin is how long an adapter may take to show a reply (it
// gives up on an interaction after two minutes).
const replyShownWithin = 3 * time.Minute

// runAnalysis does one analysis's work, editing its message as it goes.
func (s *Service) runAnalysis(t *catalog.Printer, subj *subject, w work, target func(context.Context, bot.Message) error) {
	ctx := s.Background()
	log := s.Logger(ctx).With("analysis", subj.key)
	defer func() {
		if r := recover(); r != nil {
			log.Error("analysis panic", "panic", r)
		}
	}()
	edit := func(m bot.Message) {
		// The message's own context: a restart may cancel the analysis,
		// but saying so must still get through.
		ectx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := target(ectx, m); err != nil {
			log.Warn("editing an analysis message", "err", err)
		}
	}
	select {
	case s.queue.slot <- struct{}{}:
		defer func() { <-s.queue.slot }()
	case <-ctx.Done():
		edit(bot.Message{Content: subj.say(t, "restarted")})
		return
	}
	t0, last := time.Now(), time.Now()
	progress := func(done, total int) {
		if time.Since(last) >= 3*time.Second && done < total {
			last = time.Now()
			edit(bot.Message{Content: subj.say(t, "progress", "Done", done, "Count", total)})
		}
	}
	final, err := w(ctx, t, progress)
	if err != nil {
		if ctx.Err() != nil {
			edit(bot.Message{Content: subj.say(t, "restarted")})
			return
		}
		log.Error("analysis failed", "err", err)
		edit(bot.Message{Content: subj.say(t, "failed")})
		return
	}
	log.Info("analysis done", "seconds", time.Since(t0).Seconds())
	if err := target(ctx, *final); errors.Is(err, bot.ErrUnreachable) {
		// Past the reply's life where the bot is no member: a game's
		// report is stored, and /analyze shows it at once.
		log.Info("the analysis outlived its reply")
	} else if err != nil {
		log.Warn("editing an analysis message", "err", err)
	}
}

// analysisMessage shows a report: each player's summary, the mistakes and
// blunders, and the graph.
func (s *Service) analysisMessage(ctx context.Context, t *catalog.Printer, subj *subject, rep *analysis.Report) *bot.Message {
	var lines []string
	if opening.AppliesTo(subj.start) {
		moves := subj.moves()
		switch m := opening.Standard().Recognise(moves); {
		case m.Named && m.LeftTheory > 0:
			lines = append(lines, t.T("analysis.theory_left", "Opening", m.Opening.Name(t), "Move", m.LeftTheory))
		case m.Named:
			lines = append(lines, t.T("analysis.theory_kept", "Opening", m.Opening.Name(t)))
		case m.LeftTheory > 0:
			lines = append(lines, t.T("analysis.theory_none", "Move", m.LeftTheory))
		}
		if left, ok := analysis.LeftBook(subj.start, moves, s.eng.BookMoves); ok {
			lines = append(lines, t.T("analysis.book_left", "Move", left))
		}
	}
	for _, c := range []game.Color{game.Black, game.White} {
		sum := rep.Summary(c)
		if sum.Moves == 0 {
			lines = append(lines, t.T("analysis.no_moves", "Disc", render.Disc(c), "Side", subj.side(t, c)))
			continue
		}
		line := t.T("analysis.summary", "Disc", render.Disc(c), "Side", subj.side(t, c), "Accuracy", fmt.Sprintf("%.0f", sum.Accuracy),
			"Best", sum.Best, "Count", sum.Moves, "Loss", fmt.Sprintf("%.1f", sum.AverageLoss),
			"Inaccuracies", t.T("analysis.inaccuracies", "Count", sum.Inaccuracies),
			"Mistakes", t.T("analysis.mistakes", "Count", sum.Mistakes),
			"Blunders", t.T("analysis.blunders", "Count", sum.Blunders))
		if w := sum.Worst; w != nil {
			line += "\n" + t.T("analysis.worst", "Ply", rep.MoveNumber(w.Ply), "Played", w.Played, "Lost", discs(t, w.Loss), "Best", w.Best)
		}
		lines = append(lines, line)
	}
	var bad []string
	for i, m := range rep.Moves {
		if m.Label == analysis.Mistake || m.Label == analysis.Blunder {
			// Numbered as players count moves: passes are not moves.
			bad = append(bad, t.T("analysis.bad_move", "Ply", i+1, "Disc", render.Disc(m.Color), "Played", m.Played,
				"Label", t.T("analysis.label."+string(m.Label)), "Lost", discs(t, m.Loss), "Best", m.Best))
		}
	}
	if len(bad) > 0 {
		lines = append(lines, "", t.T("analysis.bad_heading"))
		lines = append(lines, bad...)
	}
	m := &bot.Message{Embed: &bot.Embed{
		Title:       bot.Clip(subj.say(t, "title"), bot.MaxEmbedTitle),
		Description: bot.JoinLines(lines, bot.MaxDescription),
		Footer: t.T("analysis.footer", "Exact", rep.Settings.ExactFrom, "Depth", rep.Settings.Depth,
			"Inaccuracy", fmt.Sprintf("%.0f", analysis.InaccuracyFrom), "Mistake", fmt.Sprintf("%.0f", analysis.MistakeFrom),
			"Blunder", fmt.Sprintf("%.0f", analysis.BlunderFrom)),
		Color: 0x2e7d32,
	}}
	if data, err := render.Graph(rep.Curve, t.T("analysis.graph_label")); err != nil {
		s.Logger(ctx).Error("drawing an analysis graph", "analysis", subj.key, "err", err)
	} else {
		name := subj.file + "-analysis.png"
		m.Files = []bot.File{{Name: name, Data: data}}
		m.Embed.Image = "attachment://" + name
	}
	return m
}

// discs writes a number of discs lost, in the reader's words, with one
// decimal (the search's arithmetic leaves digits nobody should read).
func discs(t *catalog.Printer, v float64) string {
	return t.T("analysis.discs", "Count", strconv.FormatFloat(v, 'f', 1, 64))
}
