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
	if data, err := s.store.Analysis(ctx, g.ID); err == nil {
		var rep analysis.Report
		if err := json.Unmarshal(data, &rep); err == nil {
			return bot.Response{Message: s.analysisMessage(ctx, pub, g, &rep)}, nil
		}
		s.Logger(ctx).Warn("a stored analysis does not read; analysing again", "game", g.ID)
	} else if !errors.Is(err, record.ErrNotFound) {
		return bot.Response{}, err
	}
	q := s.queue
	q.mu.Lock()
	switch {
	case q.games[g.ID]:
		q.mu.Unlock()
		return bot.Refuse(me.T("analysis.already", "ID", g.ID)), nil
	case q.queued >= maxQueuedAnalyses:
		q.mu.Unlock()
		return bot.Refuse(me.T("analysis.queue_full")), nil
	}
	ahead := q.queued
	q.queued++
	q.games[g.ID] = true
	q.mu.Unlock()
	done := func() {
		q.mu.Lock()
		q.queued--
		delete(q.games, g.ID)
		q.mu.Unlock()
	}
	text := pub.T("analysis.started", "ID", g.ID, "Players", bot.GamePlayers(pub, g))
	if ahead > 0 {
		text = pub.T("analysis.queued", "ID", g.ID, "Players", bot.GamePlayers(pub, g), "Count", ahead)
	}
	start := func(edit func(context.Context, bot.Message) error) {
		q.wg.Add(1)
		go func() {
			defer q.wg.Done()
			defer done()
			s.runAnalysis(pub, g, edit)
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
		// A reply never shown frees the game's place in the queue.
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
	return bot.Refuse(me.T("analysis.working", "ID", g.ID)), nil
}

// replyShownWithin is how long an adapter may take to show a reply (it
// gives up on an interaction after two minutes).
const replyShownWithin = 3 * time.Minute

// runAnalysis works one analysis out, editing its message as it goes.
func (s *Service) runAnalysis(t *catalog.Printer, g *record.Game, target func(context.Context, bot.Message) error) {
	ctx := s.Background()
	log := s.Logger(ctx).With("game", g.ID)
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
		edit(bot.Message{Content: t.T("analysis.restarted", "ID", g.ID)})
		return
	}
	t0, last := time.Now(), time.Now()
	progress := func(done, total int) {
		if time.Since(last) >= 3*time.Second && done < total {
			last = time.Now()
			edit(bot.Message{Content: t.T("analysis.progress", "ID", g.ID, "Players", bot.GamePlayers(t, g), "Done", done, "Count", total)})
		}
	}
	rep, err := analysis.Run(ctx, s.eng, g.State.Start(), g.Plies(), analysis.Default, progress)
	if err != nil {
		if ctx.Err() != nil {
			edit(bot.Message{Content: t.T("analysis.restarted", "ID", g.ID)})
			return
		}
		log.Error("analysis failed", "err", err)
		edit(bot.Message{Content: t.T("analysis.failed", "ID", g.ID)})
		return
	}
	log.Info("analysis done", "moves", len(rep.Moves), "seconds", time.Since(t0).Seconds())
	if data, err := json.Marshal(rep); err != nil {
		log.Error("encoding an analysis", "err", err)
	} else if err := s.store.SaveAnalysis(ctx, g.ID, data, s.Now()); err != nil {
		log.Error("saving an analysis", "err", err)
	}
	final := *s.analysisMessage(ctx, t, g, rep)
	if err := target(ctx, final); errors.Is(err, bot.ErrUnreachable) {
		// Past the reply's life where the bot is no member: the report is
		// stored, and /analyze shows it at once.
		log.Info("the analysis outlived its reply; it is stored for the next /analyze")
	} else if err != nil {
		log.Warn("editing an analysis message", "err", err)
	}
}

// analysisMessage shows a report: each player's summary, the mistakes and
// blunders, and the graph.
func (s *Service) analysisMessage(ctx context.Context, t *catalog.Printer, g *record.Game, rep *analysis.Report) *bot.Message {
	var lines []string
	if opening.AppliesTo(g.State.Start()) {
		switch m := opening.Standard().Recognise(g.State.Moves()); {
		case m.Named && m.LeftTheory > 0:
			lines = append(lines, t.T("analysis.theory_left", "Opening", m.Opening.Name(t), "Move", m.LeftTheory))
		case m.Named:
			lines = append(lines, t.T("analysis.theory_kept", "Opening", m.Opening.Name(t)))
		case m.LeftTheory > 0:
			lines = append(lines, t.T("analysis.theory_none", "Move", m.LeftTheory))
		}
		if left, ok := analysis.LeftBook(g.State.Start(), g.State.Moves(), s.eng.BookMoves); ok {
			lines = append(lines, t.T("analysis.book_left", "Move", left))
		}
	}
	for _, c := range []game.Color{game.Black, game.White} {
		sum := rep.Summary(c)
		if sum.Moves == 0 {
			lines = append(lines, t.T("analysis.no_moves", "Disc", render.Disc(c), "Side", bot.SideName(t, g.Side(c))))
			continue
		}
		line := t.T("analysis.summary", "Disc", render.Disc(c), "Side", bot.SideName(t, g.Side(c)), "Accuracy", fmt.Sprintf("%.0f", sum.Accuracy),
			"Best", sum.Best, "Count", sum.Moves, "Loss", fmt.Sprintf("%.1f", sum.AverageLoss),
			"Inaccuracies", t.T("analysis.inaccuracies", "Count", sum.Inaccuracies),
			"Mistakes", t.T("analysis.mistakes", "Count", sum.Mistakes),
			"Blunders", t.T("analysis.blunders", "Count", sum.Blunders))
		if w := sum.Worst; w != nil {
			line += "\n" + t.T("analysis.worst", "Ply", w.Ply, "Played", w.Played, "Lost", discs(t, w.Loss), "Best", w.Best)
		}
		lines = append(lines, line)
	}
	var bad []string
	for _, m := range rep.Moves {
		if m.Label == analysis.Mistake || m.Label == analysis.Blunder {
			bad = append(bad, t.T("analysis.bad_move", "Ply", m.Ply, "Disc", render.Disc(m.Color), "Played", m.Played,
				"Label", t.T("analysis.label."+string(m.Label)), "Lost", discs(t, m.Loss), "Best", m.Best))
		}
	}
	if len(bad) > 0 {
		lines = append(lines, "", t.T("analysis.bad_heading"))
		lines = append(lines, bad...)
	}
	m := &bot.Message{Embed: &bot.Embed{
		Title:       bot.Clip(t.T("analysis.title", "ID", g.ID, "Players", bot.GamePlayers(t, g)), bot.MaxEmbedTitle),
		Description: bot.JoinLines(lines, bot.MaxDescription),
		Footer: t.T("analysis.footer", "Exact", rep.Settings.ExactFrom, "Depth", rep.Settings.Depth,
			"Inaccuracy", fmt.Sprintf("%.0f", analysis.InaccuracyFrom), "Mistake", fmt.Sprintf("%.0f", analysis.MistakeFrom),
			"Blunder", fmt.Sprintf("%.0f", analysis.BlunderFrom)),
		Color: 0x2e7d32,
	}}
	if data, err := render.Graph(rep.Curve, t.T("analysis.graph_label")); err != nil {
		s.Logger(ctx).Error("drawing an analysis graph", "game", g.ID, "err", err)
	} else {
		name := fmt.Sprintf("game-%d-analysis.png", g.ID)
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
