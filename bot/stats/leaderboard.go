package stats

// This file is /leaderboard: a scope's standings in one speed.

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"time"

	"othello-bot/bot"
	"othello-bot/catalog"
	"othello-bot/rating/rated"
	"othello-bot/record"
	"othello-bot/timecontrol"
)

func (s *Service) leaderboard(ctx context.Context, req bot.Request) (bot.Response, error) {
	t := req.Pub()
	scope, title := record.GlobalScope, t.T("leaderboard.title_global")
	switch strings.ToLower(strings.TrimSpace(req.Options["scope"])) {
	case "", "server":
		if req.GuildID != "" {
			scope, title = req.GuildID, t.T("leaderboard.title_server")
		}
	case "global":
	default:
		return bot.Refuse(req.Me().T("leaderboard.bad_scope")), nil
	}
	speed, ok := speedOf(req)
	if !ok {
		return bot.Refuse(req.Me().T("leaderboard.bad_speed")), nil
	}
	now := s.Now()
	var top []record.Standing
	var err error
	if strings.TrimSpace(req.Options["speed"]) == "" {
		// None asked for: the speed played most here.
		speed, top, err = s.busiestSpeed(ctx, scope, now)
	} else {
		top, err = s.store.Leaderboard(ctx, record.SpeedScope(scope, speed), rated.Growth(now), 10)
	}
	if err != nil {
		return bot.Response{}, err
	}
	base := scope
	scope = record.SpeedScope(scope, speed)
	title = t.T("leaderboard.speed_title", "Title", title, "Speed", t.T("speed."+string(speed)))
	if len(top) == 0 && strings.TrimSpace(req.Options["speed"]) != "" {
		// The speed asked for has none: say so, and which speeds do.
		return s.otherSpeeds(ctx, t, base, speed, now)
	}
	if len(top) == 0 {
		return bot.Reply(t.T("leaderboard.empty")), nil
	}
	var lines []string
	mine := false
	for _, st := range top {
		lines = append(lines, standingLine(t, st))
		mine = mine || st.Player.ID == req.User.ID
	}
	if !mine {
		switch st, err := s.store.Standing(ctx, req.User.ID, scope, rated.Growth(now)); {
		case err == nil:
			lines = append(lines, "…", standingLine(t, st))
		case errors.Is(err, record.ErrNotFound):
			lines = append(lines, "", t.T("leaderboard.unrated_you"))
		default:
			return bot.Response{}, err
		}
	}
	return bot.Response{Message: &bot.Message{Embed: &bot.Embed{Title: title, Description: bot.JoinLines(lines, bot.MaxDescription),
		Footer: t.T("leaderboard.footer")}}}, nil
}

// otherSpeeds answers a leaderboard asked of a speed with no rated game in
// scope: it says so, and names the speeds that have some.
func (s *Service) otherSpeeds(ctx context.Context, t *catalog.Printer, scope string, asked timecontrol.Category, now time.Time) (bot.Response, error) {
	var played []string // as the reader's client shows the speed option's choices
	for _, speed := range timecontrol.Categories() {
		top, err := s.store.Leaderboard(ctx, record.SpeedScope(scope, speed), rated.Growth(now), 1)
		if err != nil {
			return bot.Response{}, err
		}
		if len(top) > 0 && speed != asked {
			played = append(played, t.T("speed."+string(speed)))
		}
	}
	if len(played) == 0 {
		return bot.Reply(t.T("leaderboard.empty")), nil
	}
	return bot.Reply(t.T("leaderboard.empty_speed", "Speed", strings.ToLower(t.T("speed."+string(asked)))) + " " +
		t.T("leaderboard.other_speeds", "Speeds", strings.Join(played, ", "), "First", played[0])), nil
}

// busiestSpeed is the speed with the most rated players in a scope, with
// its top ten; correspondence when nobody is rated yet.
func (s *Service) busiestSpeed(ctx context.Context, scope string, now time.Time) (timecontrol.Category, []record.Standing, error) {
	best, bestTop := timecontrol.Correspondence, []record.Standing(nil)
	for _, speed := range timecontrol.Categories() {
		top, err := s.store.Leaderboard(ctx, record.SpeedScope(scope, speed), rated.Growth(now), 10)
		if err != nil {
			return best, nil, err
		}
		if len(top) > len(bestTop) {
			best, bestTop = speed, top
		}
	}
	return best, bestTop, nil
}

func standingLine(t *catalog.Printer, st record.Standing) string {
	mark := ""
	if st.Provisional {
		mark = "?"
	}
	return t.T("leaderboard.line", "Rank", st.Rank, "Name", bot.Escape(st.Player.Name), "Rating", ratingText(st.Rating.Rating), "Mark", mark,
		"Count", st.Games, "W", st.Wins, "L", st.Losses, "D", st.Draws)
}

// ratingText writes a rating as a whole number.
func ratingText(r float64) string { return strconv.FormatFloat(r, 'f', 0, 64) }
