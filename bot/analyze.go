package bot

// This file is /analyze: a finished game's moves compared with the
// engine's best, worked out in the background one game at a time (with a
// progress message edited as it goes) and kept in the store, so each game
// is analysed once.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"othello-bot/analysis"
	"othello-bot/game"
	"othello-bot/record"
	"othello-bot/render"
)

// maxQueuedAnalyses bounds the analyses waiting or running; one runs at a
// time, so the engine stays free for the games being played.
const maxQueuedAnalyses = 8

// analyses is the queue of analyses.
type analyses struct {
	mu     sync.Mutex
	games  map[int64]bool // queued or running
	queued int
	slot   chan struct{}
	wg     sync.WaitGroup
}

func newAnalyses() *analyses {
	return &analyses{games: map[int64]bool{}, slot: make(chan struct{}, 1)}
}

func (s *Service) analyzeCommand(ctx context.Context, req Request) (Response, error) {
	id, err := strconv.ParseInt(strings.TrimPrefix(strings.TrimSpace(req.Options["game"]), "#"), 10, 64)
	if err != nil || id < 1 {
		return refuse("Which game? Give its number, like /analyze game:12."), nil
	}
	g, refusal, err := s.finishedGame(ctx, req, id)
	if refusal != nil || err != nil {
		return deref(refusal), err
	}
	if g.Size() > 8 {
		return refuse("I can analyse games on boards up to 8x8; game #%d is %dx%d.", g.ID, g.Size(), g.Size()), nil
	}
	if data, err := s.store.Analysis(ctx, g.ID); err == nil {
		var rep analysis.Report
		if err := json.Unmarshal(data, &rep); err == nil {
			return Response{Message: s.analysisMessage(ctx, g, &rep)}, nil
		}
		s.logger(ctx).Warn("a stored analysis does not read; analysing again", "game", g.ID)
	} else if !errors.Is(err, record.ErrNotFound) {
		return Response{}, err
	}
	q := s.analyses
	q.mu.Lock()
	switch {
	case q.games[g.ID]:
		q.mu.Unlock()
		return refuse("Game #%d is being analysed already; its message here will show the result.", g.ID), nil
	case q.queued >= maxQueuedAnalyses:
		q.mu.Unlock()
		return refuse("Too many analyses are waiting; please ask again in a few minutes."), nil
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
	text := fmt.Sprintf("🔎 Analysing game #%d (%s)…", g.ID, gamePlayers(g))
	if ahead > 0 {
		text = fmt.Sprintf("🔎 Game #%d (%s) will be analysed after %s ahead of it.", g.ID, gamePlayers(g), plural(ahead, "game"))
	}
	msgID, err := s.send(ctx, req.ChannelID, Message{Content: text})
	if err != nil {
		done()
		return Response{}, fmt.Errorf("posting the progress of an analysis: %w", err)
	}
	q.wg.Add(1)
	go func() {
		defer q.wg.Done()
		defer done()
		s.runAnalysis(g, req.ChannelID, msgID)
	}()
	return refuse("I'm analysing game #%d; the message in the channel shows how far I am.", g.ID), nil
}

// runAnalysis works one analysis out, editing its message as it goes.
func (s *Service) runAnalysis(g *record.Game, channel, messageID string) {
	ctx := s.background
	log := s.logger(ctx).With("game", g.ID)
	defer func() {
		if r := recover(); r != nil {
			log.Error("analysis panic", "panic", r)
		}
	}()
	edit := func(m Message) {
		// The message's own context: a restart may cancel the analysis,
		// but saying so must still get through.
		ectx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		s.fitOut(ectx, &m)
		if err := s.notify.Edit(ectx, channel, messageID, m); err != nil {
			log.Warn("editing an analysis message", "err", err)
		}
	}
	select {
	case s.analyses.slot <- struct{}{}:
		defer func() { <-s.analyses.slot }()
	case <-ctx.Done():
		edit(Message{Content: fmt.Sprintf("The analysis of game #%d stopped: I restarted. Ask again with /analyze game:%d.", g.ID, g.ID)})
		return
	}
	t0, last := time.Now(), time.Now()
	progress := func(done, total int) {
		if time.Since(last) >= 3*time.Second && done < total {
			last = time.Now()
			edit(Message{Content: fmt.Sprintf("🔎 Analysing game #%d (%s): %d of %d moves…", g.ID, gamePlayers(g), done, total)})
		}
	}
	rep, err := analysis.Run(ctx, s.eng, g.State.Start(), g.Plies(), analysis.Default, progress)
	if err != nil {
		if ctx.Err() != nil {
			edit(Message{Content: fmt.Sprintf("The analysis of game #%d stopped: I restarted. Ask again with /analyze game:%d.", g.ID, g.ID)})
			return
		}
		log.Error("analysis failed", "err", err)
		edit(Message{Content: fmt.Sprintf("Sorry, the analysis of game #%d failed on my side.", g.ID)})
		return
	}
	log.Info("analysis done", "moves", len(rep.Moves), "seconds", time.Since(t0).Seconds())
	if data, err := json.Marshal(rep); err != nil {
		log.Error("encoding an analysis", "err", err)
	} else if err := s.store.SaveAnalysis(ctx, g.ID, data, s.clock.Now()); err != nil {
		log.Error("saving an analysis", "err", err)
	}
	edit(*s.analysisMessage(ctx, g, rep))
}

// WaitAnalyses waits until no analysis is queued or running (the
// terminal waits for them before it quits).
func (s *Service) WaitAnalyses() { s.analyses.wg.Wait() }

// analysisMessage shows a report: each player's summary, the mistakes and
// blunders, and the graph.
func (s *Service) analysisMessage(ctx context.Context, g *record.Game, rep *analysis.Report) *Message {
	var lines []string
	for _, c := range []game.Color{game.Black, game.White} {
		sum := rep.Summary(c)
		line := fmt.Sprintf("%s **%s**: accuracy %.0f%% (%d of %d moves best) · %.1f discs lost a move · %s, %s, %s",
			render.Disc(c), sideName(g.Side(c)), sum.Accuracy, sum.Best, sum.Moves, sum.AverageLoss,
			plural(sum.Inaccuracies, "inaccuracy"), plural(sum.Mistakes, "mistake"), plural(sum.Blunders, "blunder"))
		if w := sum.Worst; w != nil {
			line += fmt.Sprintf("\nBiggest loss: move %d, **%s** lost %s (better: **%s**)", w.Ply, w.Played, discs(w.Loss), w.Best)
		}
		lines = append(lines, line)
	}
	var bad []string
	for _, m := range rep.Moves {
		if m.Label == analysis.Mistake || m.Label == analysis.Blunder {
			bad = append(bad, fmt.Sprintf("%d. %s **%s** %s, lost %s (best **%s**)", m.Ply, render.Disc(m.Color), m.Played, m.Label, discs(m.Loss), m.Best))
		}
	}
	if len(bad) > 0 {
		lines = append(lines, "", "**Mistakes and blunders**")
		lines = append(lines, bad...)
	}
	m := &Message{Embed: &Embed{
		Title:       clip(fmt.Sprintf("Analysis of game #%d · %s", g.ID, gamePlayers(g)), MaxEmbedTitle),
		Description: joinLines(lines, MaxDescription),
		Footer: fmt.Sprintf("Exact from %d empty squares, a %d-ply search before. Discs lost against the best move: inaccuracy from %.0f, mistake from %.0f, blunder from %.0f.",
			rep.Settings.ExactFrom, rep.Settings.Depth, analysis.InaccuracyFrom, analysis.MistakeFrom, analysis.BlunderFrom),
		Color: 0x2e7d32,
	}}
	if data, err := render.Graph(rep.Curve); err != nil {
		s.logger(ctx).Error("drawing an analysis graph", "game", g.ID, "err", err)
	} else {
		name := fmt.Sprintf("game-%d-analysis.png", g.ID)
		m.Files = []File{{Name: name, Data: data}}
		m.Embed.Image = "attachment://" + name
	}
	return m
}

func discs(v float64) string {
	if v == 1 {
		return "1 disc"
	}
	return strconv.FormatFloat(v, 'f', -1, 64) + " discs"
}
