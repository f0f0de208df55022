package storm

// This file is Puzzle Racer: /puzzle mode:race posts a race in the
// channel; up to ten join it, its host starts it, each racer plays the
// same puzzles on their own only-you message (Play), and the race's
// message is a live track, edited at most once a second, until the
// standings at the end.

import (
	"context"
	"errors"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"othello-bot/bot"
	"othello-bot/bot/ratelimit"
	"othello-bot/catalog"
	"othello-bot/customid"
	"othello-bot/record"
	"othello-bot/schedule"
	"othello-bot/storm"
)

// RaceStore keeps races.
type RaceStore interface {
	// CreateRace keeps a new race with its host's run; SetRaceMessage
	// records its message.
	CreateRace(ctx context.Context, race storm.Race) (raceID, runID int64, err error)
	SetRaceMessage(ctx context.Context, id int64, messageID string) error
	// Race loads a race, or fails with record.ErrNotFound.
	Race(ctx context.Context, id int64) (storm.Race, error)
	// JoinRace adds a racer: storm.ErrJoined, storm.ErrRaceClosed.
	JoinRace(ctx context.Context, run storm.Run) (int64, error)
	// StartRace starts a race taking racers; false if it was not.
	StartRace(ctx context.Context, id int64, starts, ends time.Time) (bool, error)
	// RaceRuns are a race's runs in the order they joined.
	RaceRuns(ctx context.Context, raceID int64) ([]storm.Run, error)
	// DueRaces are the races ending or lapsing at now.
	DueRaces(ctx context.Context, now time.Time) ([]storm.Race, error)
	// EndRace moves a race from one status to another; false if it was
	// not in from.
	EndRace(ctx context.Context, id int64, from, to storm.RaceStatus) (bool, error)
	// ClaimRaceEdit takes the race message's next edit, at most one a
	// period whichever process asks.
	ClaimRaceEdit(ctx context.Context, id int64, now time.Time, every time.Duration) (bool, error)
}

// EditEvery is the least time between two edits of a race's message:
// within Discord's rate limits for a channel's messages with ten racers
// answering at once.
const EditEvery = time.Second

const raceColor = 0x2e7d32

// openRace posts a race, its host in it.
func (s *Service) openRace(ctx context.Context, req bot.Request) (bot.Response, error) {
	me := req.Me()
	if !req.Place.BotPosts() || req.GuildID == "" {
		return bot.Refuse(me.T("race.needs_server")), nil
	}
	if missing := s.MissingPermission(req, 8, record.StyleEmoji); missing != "" {
		return bot.Refuse(me.T("challenge.no_permission", "Permission", me.T(missing))), nil
	}
	pool, err := s.store.StormPool(ctx, req.GuildID)
	if err != nil {
		return bot.Response{}, err
	}
	dealt := storm.Deal(pool, storm.RaceSize, rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64())))
	if len(dealt) == 0 {
		return bot.Refuse(me.T("storm.no_puzzles")), nil
	}
	race := storm.Race{GuildID: req.GuildID, ChannelID: req.ChannelID, Host: req.User, Puzzles: dealt, Created: s.Now()}
	if race.ID, _, err = s.store.CreateRace(ctx, race); err != nil {
		return bot.Response{}, err
	}
	runs, err := s.store.RaceRuns(ctx, race.ID)
	if err != nil {
		return bot.Response{}, err
	}
	id, err := s.Send(ctx, race.ChannelID, lobbyMessage(req.Pub(), race, runs, s.raceLink(race.ID)))
	if err != nil {
		if _, cerr := s.store.EndRace(ctx, race.ID, storm.Lobby, storm.Closed); cerr != nil {
			err = errors.Join(err, cerr)
		}
		return bot.Response{}, err
	}
	if err := s.store.SetRaceMessage(ctx, race.ID, id); err != nil {
		return bot.Response{}, err
	}
	return bot.Refuse(me.T("race.opened")), nil
}

// pressedRace reads a race's button ("racejoin:RACE", ...).
func (s *Service) pressedRace(ctx context.Context, req bot.Request) (storm.Race, *bot.Response, error) {
	id, ok := req.Component().Int(0)
	if !ok {
		return storm.Race{}, bot.Refusal(req.Me().T("error.dead_button")), nil
	}
	race, err := s.store.Race(ctx, id)
	if errors.Is(err, record.ErrNotFound) {
		return race, bot.Refusal(req.Me().T("error.dead_button")), nil
	}
	return race, nil, err
}

// joinRace adds the presser to a race taking racers.
func (s *Service) joinRace(ctx context.Context, req bot.Request) (bot.Response, error) {
	me := req.Me()
	race, refused, err := s.pressedRace(ctx, req)
	if refused != nil || err != nil {
		return bot.Deref(refused), err
	}
	_, err = s.store.JoinRace(ctx, race.Join(req.User, s.Now()))
	switch {
	case errors.Is(err, storm.ErrJoined):
		return bot.Refuse(me.T("race.joined")), nil
	case errors.Is(err, storm.ErrRaceClosed) && race.Status == storm.Lobby:
		return bot.Refuse(me.T("race.full", "Max", storm.MaxRacers)), nil
	case errors.Is(err, storm.ErrRaceClosed):
		return bot.Refuse(me.T("race.started")), nil
	case err != nil:
		return bot.Response{}, err
	}
	runs, err := s.store.RaceRuns(ctx, race.ID)
	if err != nil {
		return bot.Response{}, err
	}
	m := lobbyMessage(req.Pub(), race, runs, s.raceLink(race.ID))
	return bot.Response{Update: true, Message: &m}, nil
}

// startRace starts a race, by its host.
func (s *Service) startRace(ctx context.Context, req bot.Request) (bot.Response, error) {
	me := req.Me()
	race, refused, err := s.pressedRace(ctx, req)
	if refused != nil || err != nil {
		return bot.Deref(refused), err
	}
	if race.Host.ID != req.User.ID {
		return bot.Refuse(me.T("race.host_only", "Host", bot.Escape(race.Host.Name))), nil
	}
	now := s.Now()
	race.Starts, race.End, race.Status = now, now.Add(storm.RaceDuration), storm.Racing
	ok, err := s.store.StartRace(ctx, race.ID, race.Starts, race.End)
	if err != nil {
		return bot.Response{}, err
	}
	if !ok {
		return bot.Refuse(me.T("race.started")), nil
	}
	runs, err := s.store.RaceRuns(ctx, race.ID)
	if err != nil {
		return bot.Response{}, err
	}
	m := trackMessage(req.Pub(), race, runs, s.raceLink(race.ID))
	return bot.Response{Update: true, Message: &m}, nil
}

// playRace gives a racer their run, on a message of their own.
func (s *Service) playRace(ctx context.Context, req bot.Request) (bot.Response, error) {
	me := req.Me()
	race, refused, err := s.pressedRace(ctx, req)
	if refused != nil || err != nil {
		return bot.Deref(refused), err
	}
	switch race.Status {
	case storm.Lobby:
		return bot.Refuse(me.T("race.not_started")), nil
	case storm.Finished, storm.Closed:
		return bot.Refuse(me.T("race.over")), nil
	}
	runs, err := s.store.RaceRuns(ctx, race.ID)
	if err != nil {
		return bot.Response{}, err
	}
	for _, r := range runs {
		if r.Player.ID != req.User.ID {
			continue
		}
		if now := s.Now(); r.Done(now) {
			resp, err := s.endMessage(ctx, me, r, nil, now)
			resp.Update = false
			return resp, err
		}
		m, err := s.runMessage(ctx, me, r, nil)
		if err != nil {
			return bot.Response{}, err
		}
		return bot.Response{Message: m}, nil
	}
	return bot.Refuse(me.T("race.not_in")), nil
}

// showRace edits a race's track after an answer if no edit was made in
// the last second; otherwise, or if Discord's rate limits would hold the
// edit longer than that second (the racer's own answer waits on it), the
// next tick does.
func (s *Service) showRace(ctx context.Context, raceID int64, now time.Time) {
	ok, err := s.store.ClaimRaceEdit(ctx, raceID, now, EditEvery)
	if err == nil && ok {
		err = s.editRace(ratelimit.WaitAtMost(ctx, EditEvery), raceID)
	}
	var later *ratelimit.RetryLater
	if err != nil && !errors.As(err, &later) {
		s.Logger(ctx).Warn("a race's track", "race", raceID, "err", err)
	}
	s.staleMu.Lock()
	defer s.staleMu.Unlock()
	if s.stale == nil {
		s.stale = map[int64]bool{}
	}
	if ok && err == nil {
		delete(s.stale, raceID)
	} else {
		s.stale[raceID] = true
	}
}

func (s *Service) editRace(ctx context.Context, raceID int64) error {
	race, err := s.store.Race(ctx, raceID)
	if err != nil {
		return err
	}
	runs, err := s.store.RaceRuns(ctx, raceID)
	if err != nil {
		return err
	}
	if race.MessageID == "" {
		return nil
	}
	m := trackMessage(s.PublicPrinter(ctx, race.GuildID), race, runs, s.raceLink(race.ID))
	if race.Status == storm.Lobby || race.Status == storm.Closed {
		m = lobbyMessage(s.PublicPrinter(ctx, race.GuildID), race, runs, s.raceLink(race.ID))
	}
	return s.Edit(ctx, race.ChannelID, race.MessageID, m)
}

// Jobs end the races whose time has come and bring stale tracks up to
// date.
func (s *Service) Jobs() []schedule.Job {
	return []schedule.Job{{Name: "races", Run: s.tickRaces}}
}

func (s *Service) tickRaces(ctx context.Context, now time.Time) {
	due, err := s.store.DueRaces(ctx, now)
	if err != nil {
		s.Logger(ctx).Error("tick: races due", "err", err)
		return
	}
	for _, race := range due {
		to := storm.Finished
		if race.Status == storm.Lobby {
			to = storm.Closed
		}
		ok, err := s.store.EndRace(ctx, race.ID, race.Status, to)
		if err == nil && ok {
			err = s.editRace(ctx, race.ID)
		}
		if err != nil {
			s.Logger(ctx).Error("tick: ending a race", "race", race.ID, "err", err)
		}
	}
	s.staleMu.Lock()
	var stale []int64
	for id := range s.stale {
		stale = append(stale, id)
	}
	s.staleMu.Unlock()
	for _, id := range stale {
		s.showRace(ctx, id, now)
	}
}

// lobbyMessage is a race taking racers: who is in, Join and Start (and
// its page, watch).
func lobbyMessage(t *catalog.Printer, race storm.Race, runs []storm.Run, watch string) bot.Message {
	host := bot.Escape(race.Host.Name)
	names := make([]string, len(runs))
	for i, r := range runs {
		names[i] = bot.Escape(r.Player.Name)
	}
	lines := []string{t.T("race.lobby", "Host", host, "Max", storm.MaxRacers, "Seconds", int(storm.RaceDuration/time.Second)),
		t.T("race.racers", "In", len(runs), "Max", storm.MaxRacers, "Names", strings.Join(names, ", "))}
	var rows []bot.Row
	if race.Status == storm.Lobby {
		rows = []bot.Row{{Buttons: []bot.ButtonSpec{{Label: t.T("race.join"), CustomID: customid.Make("racejoin", race.ID), Style: bot.Primary},
			{Label: t.T("race.start"), CustomID: customid.Make("racestart", race.ID), Style: bot.Success}}}}
		rows[0].Buttons = append(rows[0].Buttons, watchButton(t, watch)...)
	} else {
		lines = append(lines, t.T("race.closed"))
	}
	e := &bot.Embed{Title: t.T("race.title"), Description: bot.JoinLines(lines, bot.MaxDescription), Color: raceColor}
	return bot.Message{Embed: e, Components: rows}
}

// trackMessage is a race under way (the racers' progress, Play) or
// over (the standings), with its page.
func trackMessage(t *catalog.Printer, race storm.Race, runs []storm.Run, watch string) bot.Message {
	standings := storm.Standings(runs)
	lead := 1
	if len(standings) > 0 {
		lead = max(1, standings[0].Solved)
	}
	head := t.T("race.racing", "When", bot.Stamp(race.End, bot.StampRelative))
	if race.Status == storm.Finished {
		head = t.T("race.finished")
	}
	lines := []string{head}
	for i, r := range standings {
		const width = 10
		filled := r.Solved * width / lead
		bar := strings.Repeat("▰", filled) + strings.Repeat("▱", width-filled)
		lines = append(lines, t.T("race.line", "Rank", rankMark(i), "Name", bot.Escape(r.Player.Name), "Bar", bar, "Score", r.Solved, "Misses", r.Misses))
	}
	var rows []bot.Row
	if race.Status == storm.Racing {
		rows = []bot.Row{{Buttons: []bot.ButtonSpec{{Label: t.T("race.play"), CustomID: customid.Make("raceplay", race.ID), Style: bot.Success}}}}
	}
	if b := watchButton(t, watch); b != nil && len(rows) == 0 {
		rows = []bot.Row{{Buttons: b}}
	} else if b != nil {
		rows[0].Buttons = append(rows[0].Buttons, b...)
	}
	e := &bot.Embed{Title: t.T("race.title"), Description: bot.JoinLines(lines, bot.MaxDescription), Color: raceColor}
	return bot.Message{Embed: e, Components: rows}
}

// rankMark is a place in the standings: a medal for the first three.
func rankMark(i int) string {
	if i < 3 {
		return []string{"🥇", "🥈", "🥉"}[i]
	}
	return strconv.Itoa(i+1) + "."
}
