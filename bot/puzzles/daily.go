package puzzles

// This file is the daily puzzle: a server picks a channel and an hour
// (/settings puzzle-channel: puzzle-hour:), and each day from that hour the
// tick posts one puzzle from its own games there, once across restarts and
// processes, with who solved the day before's. Anyone presses Solve to try
// it, only-you, as /puzzle does.

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"time"

	"othello-bot/bot"
	"othello-bot/catalog"
	"othello-bot/customid"
	"othello-bot/game"
	"othello-bot/puzzle"
	"othello-bot/record"
	"othello-bot/render"
)

// dailyRetry is how long a claimed day's post may stay unposted (a crash,
// Discord refusing) before a tick tries again.
const dailyRetry = 10 * time.Minute

// maxDailyNames is how many of the day before's solvers a post names: 30
// names of Discord's longest fit well within an embed.
const maxDailyNames = 30

// postDailyPuzzles posts each server's puzzle of the day once its hour has
// come and it is not out yet.
func (s *Service) postDailyPuzzles(ctx context.Context, now time.Time) {
	settings, err := s.store.DailyPuzzleSettings(ctx)
	if err != nil {
		s.Logger(ctx).Error("tick: daily puzzle settings", "err", err)
		return
	}
	for _, set := range settings {
		day, due := puzzle.DailyDue(now, set.Hour)
		if !due {
			continue
		}
		if err := s.postDaily(ctx, set, day, now); err != nil {
			s.Logger(ctx).Error("tick: daily puzzle", "guild", set.GuildID, "day", day, "err", err)
		}
	}
}

func (s *Service) postDaily(ctx context.Context, set record.DailySetting, day string, now time.Time) error {
	var rec puzzle.Record
	d, err := s.store.Daily(ctx, set.GuildID, day)
	switch {
	case err == nil && d.MessageID != "":
		return nil // out already
	case err == nil:
		// Claimed before and never posted: the same puzzle, when it is time
		// to try again (ClaimDaily says).
		if rec, err = s.store.Puzzle(ctx, d.PuzzleID); err != nil {
			return err
		}
	case errors.Is(err, record.ErrNotFound):
		rec, err = s.store.DailyCandidate(ctx, set.GuildID)
		if errors.Is(err, record.ErrNotFound) {
			return nil // nothing left to post; /puzzle says so to players
		}
		if err != nil {
			return err
		}
	default:
		return err
	}
	claim := record.Daily{GuildID: set.GuildID, Day: day, PuzzleID: rec.ID, ChannelID: set.ChannelID}
	ok, err := s.store.ClaimDaily(ctx, claim, dailyRetry, now)
	if err != nil || !ok {
		return err
	}
	yesterday, err := s.yesterday(ctx, set.GuildID, day)
	if err != nil {
		return err
	}
	t := s.PublicPrinter(ctx, set.GuildID)
	var more []string
	if s.cfg.DailyLines != nil {
		// Only a line: the day's puzzle goes out without it.
		if more, err = s.cfg.DailyLines(ctx, t, set.GuildID, puzzle.PreviousDay(day)); err != nil {
			s.Logger(ctx).Warn("tick: the daily post's first lines", "guild", set.GuildID, "err", err)
		}
	}
	id, err := s.Send(ctx, set.ChannelID, s.dailyMessage(t, rec, day, yesterday, more))
	if err != nil {
		return err // claimed: tried again after dailyRetry
	}
	s.Logger(ctx).Info("daily puzzle posted", "guild", set.GuildID, "day", day, "puzzle", rec.ID)
	return s.store.PostedDaily(ctx, set.GuildID, day, id, now)
}

// yesterday is who solved the server's puzzle of the day before day; nil
// when there was none (the first day, or a day nothing was posted).
func (s *Service) yesterday(ctx context.Context, guildID, day string) ([]record.Player, error) {
	prev := puzzle.PreviousDay(day)
	switch d, err := s.store.Daily(ctx, guildID, prev); {
	case errors.Is(err, record.ErrNotFound) || err == nil && d.MessageID == "":
		return nil, nil
	case err != nil:
		return nil, err
	}
	solvers, err := s.store.DailySolvers(ctx, guildID, prev)
	if solvers == nil && err == nil {
		solvers = []record.Player{}
	}
	return solvers, err
}

// dailyMessage is a day's post: who solved the day before's (solvers nil:
// there was none), the board, what is at stake, and the Solve button.
func (s *Service) dailyMessage(t *catalog.Printer, rec puzzle.Record, day string, solvers []record.Player, more []string) bot.Message {
	lines := append([]string(nil), more...)
	switch {
	case solvers == nil:
	case len(solvers) == 0:
		lines = append(lines, t.T("daily.nobody_yesterday"))
	default:
		var names []string
		for _, p := range solvers[:min(len(solvers), maxDailyNames)] {
			names = append(names, bot.Escape(p.Name))
		}
		list := strings.Join(names, ", ")
		if len(solvers) > maxDailyNames {
			list = t.T("daily.and_more", "Names", list, "More", len(solvers)-maxDailyNames)
		}
		lines = append(lines, t.T("daily.solved_yesterday", "Names", list, "Count", len(solvers)))
	}
	lines = append(lines, render.Emoji(rec.Start, game.Pass, false), Stakes(t, rec))
	if rec.Moves() > 1 {
		lines = append(lines, t.T("puzzle.moves", "Count", rec.Moves()))
	}
	e := &bot.Embed{Title: t.T("daily.title", "Day", day), Description: bot.JoinLines(lines, bot.MaxDescription), Footer: sourceLine(t, rec), Color: 0x6a1b9a}
	return bot.Message{Embed: e, Components: []bot.Row{{Buttons: []bot.ButtonSpec{{Label: t.T("daily.solve"),
		CustomID: customid.Make("daily", rec.ID, day), Style: bot.Primary}}}}}
}

// dailyButton starts a player's try at the day's puzzle ("daily:PUZZLE:DAY").
func (s *Service) dailyButton(ctx context.Context, req bot.Request) (bot.Response, error) {
	me := req.Me()
	id, ok := req.Component().Int(0)
	day, _ := req.Component().Word(1)
	if !ok || req.GuildID == "" {
		return bot.Refuse(me.T("error.dead_button")), nil
	}
	d, err := s.store.Daily(ctx, req.GuildID, day)
	if errors.Is(err, record.ErrNotFound) || (err == nil && d.PuzzleID != id) {
		return bot.Refuse(me.T("error.dead_button")), nil
	}
	if err != nil {
		return bot.Response{}, err
	}
	if today := puzzle.Day(s.Now()); day != today {
		return bot.Refuse(me.T("daily.over", "Day", day)), nil
	}
	rec, err := s.store.Puzzle(ctx, id)
	if err != nil {
		return bot.Response{}, err
	}
	try, err := s.store.StartTry(ctx, req.User, req.GuildID, id, day, s.Now())
	if errors.Is(err, puzzle.ErrTried) {
		if try.Status == puzzle.Open {
			return bot.Response{Message: s.puzzleMessage(me, rec, try, nil)}, nil // their menu, again
		}
		return bot.Refuse(me.T("daily.tried")), nil
	}
	if err != nil {
		return bot.Response{}, err
	}
	return bot.Response{Message: s.puzzleMessage(me, rec, try, nil)}, nil
}

// puzzleSettings is /settings puzzle-channel: and puzzle-hour: (Manage
// Server): where and when the daily puzzle is posted.
func (s *Service) puzzleSettings(ctx context.Context, req bot.Request) (bot.Response, error) {
	me := req.Me()
	if refusal, ok := bot.ServerSetting(req, "daily.need_manage_server"); !ok {
		return refusal, nil
	}
	set, err := s.store.DailyPuzzleSetting(ctx, req.GuildID)
	if err != nil {
		return bot.Response{}, err
	}
	if h := strings.TrimSpace(req.Options["puzzle-hour"]); h != "" {
		hour, err := strconv.Atoi(h)
		if err != nil || hour < 0 || hour > 23 {
			return bot.Refuse(me.T("daily.bad_hour")), nil
		}
		set.Hour = hour
	}
	switch strings.TrimSpace(req.Options["puzzle-channel"]) {
	case "":
	case "here":
		if missing := s.MissingPermission(req, 8, record.StyleEmoji); missing != "" {
			return bot.Refuse(me.T("daily.cannot_post", "Permission", me.T(missing))), nil
		}
		set.ChannelID = req.ChannelID
	case "off":
		set.ChannelID = ""
	default:
		return bot.Refuse(me.T("daily.bad_channel")), nil
	}
	if err := s.store.SetDailyPuzzle(ctx, req.GuildID, set.ChannelID, set.Hour, s.Now()); err != nil {
		return bot.Response{}, err
	}
	s.Logger(ctx).Info("daily puzzle set", "guild", req.GuildID, "channel", set.ChannelID, "hour", set.Hour)
	if set.ChannelID == "" {
		return bot.Refuse(me.T("daily.off")), nil
	}
	return bot.Refuse(me.T("daily.set", "Channel", "<#"+set.ChannelID+">", "Hour", set.Hour)), nil
}
