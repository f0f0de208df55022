package storm

// This file is runs and races on their pages (the web server's Storms):
// the page's Start and clicks go through begin and take, as the chat's
// /puzzle and menu do, so a run is one run whichever door it is played
// by; what the page shows is the run's state in its player's words, with
// no answer in it.

import (
	"context"
	"errors"
	"math"
	"strings"

	"othello-bot/bot"
	"othello-bot/bot/puzzles"
	"othello-bot/catalog"
	"othello-bot/game"
	"othello-bot/record"
	"othello-bot/storm"
	"othello-bot/web"
)

// Links are the pages the chat links runs and races to.
type Links interface {
	// RunLink is a run's page, logging its player in.
	RunLink(id int64, p record.Player) string
	// RaceLink is a race's live track.
	RaceLink(id int64) string
}

// LinkPages has the chat's run and race messages link to their pages.
func (s *Service) LinkPages(l Links) { s.links = l }

var _ web.Storms = (*Service)(nil)

// raceLink is a race's page, "" without pages.
func (s *Service) raceLink(id int64) string {
	if s.links == nil {
		return ""
	}
	return s.links.RaceLink(id)
}

// watchButton is the button to a race's page, if it has one.
func watchButton(t *catalog.Printer, watch string) []bot.ButtonSpec {
	if watch == "" {
		return nil
	}
	return []bot.ButtonSpec{{Label: t.T("race.watch"), URL: watch}}
}

// StartRun deals p a run from the page.
func (s *Service) StartRun(ctx context.Context, t *catalog.Printer, p record.Player, guildID, mode string) (web.StormRun, error) {
	m := storm.Storm
	switch mode {
	case "storm":
	case "streak":
		m = storm.Streak
	default:
		return web.StormRun{Refused: t.T("web.bad_request")}, nil
	}
	r, err := s.begin(ctx, p, guildID, m)
	if errors.Is(err, errNoPuzzles) {
		return web.StormRun{Refused: t.T("storm.no_puzzles")}, nil
	}
	if err != nil {
		return web.StormRun{}, err
	}
	return s.page(ctx, t, r, nil)
}

// ShowRun is p's run where it stands.
func (s *Service) ShowRun(ctx context.Context, t *catalog.Printer, p record.Player, id int64) (web.StormRun, error) {
	r, err := s.store.Run(ctx, id)
	if err != nil {
		return web.StormRun{}, err
	}
	if r.Player.ID != p.ID {
		return web.StormRun{}, web.ErrNotYours
	}
	return s.page(ctx, t, r, nil)
}

// AnswerRun takes p's click as their answer; a refused one shows the run
// as it stands now, with why.
func (s *Service) AnswerRun(ctx context.Context, t *catalog.Printer, p record.Player, id int64, index, step int, square string) (web.StormRun, error) {
	a, err := s.take(ctx, t, p, id, index, step, square)
	if err != nil {
		return web.StormRun{}, err
	}
	if a.refused != "" {
		v, err := s.ShowRun(ctx, t, p, id)
		v.Refused = a.refused
		return v, err
	}
	return s.page(ctx, t, a.run, a.notes)
}

// plain is a line of the chat's words as a page shows it: the page
// writes text, so Discord's bold marks would show as they are.
func plain(lines ...string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = strings.ReplaceAll(l, "**", "")
	}
	return out
}

// page is a run as its page shows it at now: the puzzle's position and
// the moves offered (as the chat's menu offers them), the clock, score
// and combo; or, once over, its result.
func (s *Service) page(ctx context.Context, t *catalog.Printer, r storm.Run, notes []string) (web.StormRun, error) {
	now := s.Now()
	v := web.StormRun{ID: r.ID, Mode: r.Mode.String(), Index: r.Index, Step: r.Step, Score: r.Solved, Misses: r.Misses,
		Combo: r.Combo, Last: -1, LeftMs: -1, Notes: plain(notes...), Legal: []int{}}
	if r.Mode != storm.Streak {
		v.LeftMs = r.Left(now).Milliseconds()
	}
	if r.Race != 0 && s.links != nil {
		v.Race = s.links.RaceLink(r.Race)
	}
	if r.Done(now) {
		title, lines, err := s.endLines(ctx, t, r, r.Player.Name, nil, now)
		if err != nil {
			return web.StormRun{}, err
		}
		v.Over, v.Title, v.Result = true, title, plain(lines...)
		if r.Mode != storm.Racer {
			v.Again = r.Mode.String()
		}
		return v, nil
	}
	rec, err := s.store.Puzzle(ctx, r.Puzzle())
	if err != nil {
		return web.StormRun{}, err
	}
	pos, err := rec.Position(r.Step)
	if err != nil {
		pos = rec.Start
	}
	n := pos.Size()
	v.Title, v.Size, v.Cells, v.ToMove = t.T(titleKey(r.Mode), "Name", r.Player.Name), n, pos.CellString(), "X"
	if pos.ToMove() == game.White {
		v.ToMove = "O"
	}
	if r.Step > 0 {
		last := rec.Line[r.Step-1]
		v.Last = last.Row*n + last.Col
	}
	for i, sq := range pos.LegalMoves() {
		if i == bot.MaxMenuOptions { // as the menu offers them: the rules are one
			break
		}
		v.Legal = append(v.Legal, sq.Row*n+sq.Col)
	}
	v.Stakes = plain(puzzles.Stakes(t, rec))[0]
	if r.Mode == storm.Storm {
		v.ComboLine = comboLine(t, r.Combo)
	}
	v.Footer = t.T("storm.footer", "Number", r.Index+1, "Rating", math.Round(rec.Rating.Rating))
	return v, nil
}

// ShowRace is a race's track for its page: the standings as they stand.
func (s *Service) ShowRace(ctx context.Context, t *catalog.Printer, id int64) (web.StormRace, error) {
	race, err := s.store.Race(ctx, id)
	if err != nil {
		return web.StormRace{}, err
	}
	runs, err := s.store.RaceRuns(ctx, id)
	if err != nil {
		return web.StormRace{}, err
	}
	v := web.StormRace{Title: t.T("race.title"), Lines: []web.RacerLine{}}
	switch race.Status {
	case storm.Lobby:
		v.Status, v.Head = "lobby", t.T("web.storm.race_lobby", "Host", race.Host.Name, "In", len(runs), "Max", storm.MaxRacers)
	case storm.Racing:
		v.Status, v.Head = "racing", t.T("web.storm.race_on")
		v.LeftMs = max(0, race.End.Sub(s.Now()).Milliseconds())
	case storm.Finished:
		v.Status, v.Head = "finished", t.T("race.finished")
	default:
		v.Status, v.Head = "closed", t.T("race.closed")
	}
	for i, r := range storm.Standings(runs) {
		v.Lines = append(v.Lines, web.RacerLine{Rank: rankMark(i), Name: r.Player.Name, Score: r.Solved, Misses: r.Misses,
			Text: t.T("web.storm.racer", "Rank", rankMark(i), "Name", r.Player.Name, "Score", r.Solved, "Misses", r.Misses)})
	}
	return v, nil
}
