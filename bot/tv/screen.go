package tv

// This file is the screen — the message showing a game on TV — and the
// choice of the game, and /settings tv:.

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"time"

	"othello-bot/bot"
	"othello-bot/catalog"
	"othello-bot/engine"
	"othello-bot/game"
	"othello-bot/record"
	"othello-bot/render"
	"othello-bot/tv"
)

// Evaluation settings of the bar: a quick search, exact near the end; a
// board larger than 8x8 has no bar.
const (
	barDepth     = 6
	barExactFrom = 14
	barWait      = 2 * time.Second // a busy engine leaves the bar out
)

// screen is the message showing g: its game message without the menu and
// buttons that act on it (the players have those), under the TV's title,
// with the evaluation bar and a Watch button to its page.
func (s *Service) screen(ctx context.Context, t *catalog.Printer, g *record.Game) bot.Message {
	var notes []string
	if plies := g.Plies(); len(plies) > 0 {
		// The last move (and a pass it forced), as the game's channel
		// heard it.
		i := len(plies) - 1
		if plies[i].Square.IsPass() && i > 0 {
			i--
		}
		for _, p := range plies[i:] {
			if p.Square.IsPass() {
				notes = append(notes, t.T("play.passes", "Side", bot.SideLabel(t, g, p.Color)))
			} else {
				notes = append(notes, t.T("play.played", "Side", bot.SideLabel(t, g, p.Color), "Square", p.Square.String()))
			}
		}
	}
	m := *s.GameMessage(t, g, notes)
	var watch []bot.ButtonSpec // the game message's Watch buttons, without the players'
	for _, row := range m.Components {
		for _, b := range row.Buttons {
			if bot.Watches(b) {
				watch = append(watch, b)
			}
		}
	}
	m.Game, m.Components = nil, nil
	if m.Embed == nil {
		return m
	}
	e := *m.Embed
	e.Title = bot.Clip(t.T("tv.title", "Title", e.Title), bot.MaxEmbedTitle)
	if bar, ok := s.bar(ctx, t, g); ok {
		e.Fields = append(e.Fields, bot.Field{Name: t.T("tv.evaluation"), Value: bar})
	}
	m.Embed = &e
	if len(watch) > 0 {
		m.Components = []bot.Row{{Buttons: watch}}
	}
	return m
}

// bar is the evaluation bar of a running game on 8x8 or smaller: the
// engine's quick view (a finished game shows its result instead).
func (s *Service) bar(ctx context.Context, t *catalog.Printer, g *record.Game) (string, bool) {
	p := g.Position()
	if _, _, ok := p.Bitboards(); !ok || g.Status != record.Active || !p.HasMoves() {
		return "", false
	}
	sctx, cancel := context.WithTimeout(ctx, barWait)
	defer cancel()
	scores, err := s.eng.ScoreMoves(sctx, p, barDepth, barExactFrom)
	if err != nil || len(scores) == 0 {
		if !errors.Is(err, context.DeadlineExceeded) {
			s.Logger(ctx).Warn("tv: evaluating", "game", g.ID, "err", err)
		}
		return "", false
	}
	value, exact := scores[0].Eval.Discs(), scores[0].Eval.Exact
	if p.ToMove() == game.White {
		value = -value
	}
	line := tv.Bar(value, p.Size()*p.Size(), exact, render.Disc(game.Black), render.Disc(game.White))
	key := "tv.value"
	if exact {
		key = "tv.value_exact"
	}
	lead := t.T("tv.even")
	switch {
	case value > 0:
		lead = t.T(key, "Side", t.T("analysis.side.black"), "Discs", discs(value, exact))
	case value < 0:
		lead = t.T(key, "Side", t.T("analysis.side.white"), "Discs", discs(-value, exact))
	}
	return line + "\n" + lead, true
}

// discs writes a margin: whole when exact, else with one decimal.
func discs(v float64, exact bool) string {
	if exact {
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	return strconv.FormatFloat(v, 'f', 1, 64)
}

// best is the server's best live game for the screen, by tv.Pick.
func (s *Service) best(ctx context.Context, guildID string) (*record.Game, bool, error) {
	games, err := s.store.RunningGames(ctx, guildID, "", maxCandidates)
	if err != nil || len(games) == 0 {
		return nil, false, err
	}
	byID := map[int64]*record.Game{}
	cands := make([]tv.Candidate, 0, len(games))
	for _, g := range games {
		c := tv.Candidate{GameID: g.ID, Tournament: g.TournamentID != 0, Moves: len(g.State.Moves())}
		for i, col := range []game.Color{game.Black, game.White} {
			if c.Ratings[i], err = s.rating(ctx, g, g.Side(col)); err != nil {
				return nil, false, err
			}
		}
		byID[g.ID] = g
		cands = append(cands, c)
	}
	pick, _ := tv.Pick(cands)
	return byID[pick.GameID], true, nil
}

// rating is a side's rating in the game's speed on this server: the bot
// its level's, a player without one tv.DefaultRating.
func (s *Service) rating(ctx context.Context, g *record.Game, side record.Side) (float64, error) {
	if side.IsBot() {
		if r, ok := engine.LevelRating(side.Level); ok {
			return float64(r), nil
		}
		return tv.DefaultRating, nil
	}
	r, err := s.store.Rating(ctx, side.Player.ID, record.SpeedScope(g.GuildID, g.Control.Category()))
	if errors.Is(err, record.ErrNotFound) {
		return tv.DefaultRating, nil
	}
	return r.Rating, err
}

// Settings answers /settings tv: (here or off), for members with Manage
// Server.
func (s *Service) Settings(ctx context.Context, req bot.Request) (bot.Response, bool, error) {
	choice := strings.TrimSpace(req.Options["tv"])
	if choice == "" {
		return bot.Response{}, false, nil
	}
	me := req.Me()
	if len(req.Options) > 1 {
		return bot.Refuse(me.T("tv.one_at_a_time")), true, nil
	}
	if refusal, ok := bot.ServerSetting(req, "tv.need_manage_server"); !ok {
		return refusal, true, nil
	}
	channel := ""
	switch choice {
	case "here":
		if missing := s.MissingPermission(req, 8, record.StyleEmoji); missing != "" {
			return bot.Refuse(me.T("tv.cannot_post", "Permission", me.T(missing))), true, nil
		}
		channel = req.ChannelID
	case "off":
	default:
		return bot.Refuse(me.T("tv.bad_channel")), true, nil
	}
	if err := s.store.SetTV(ctx, req.GuildID, channel, s.Now()); err != nil {
		return bot.Response{}, true, err
	}
	s.Logger(ctx).Info("tv set", "guild", req.GuildID, "channel", channel)
	if channel == "" {
		return bot.Refuse(me.T("tv.off")), true, nil
	}
	return bot.Refuse(me.T("tv.set", "Channel", "<#"+channel+">")), true, nil
}

// SettingsOptions are the options of /settings the TV owns.
func (s *Service) SettingsOptions() []bot.OptionSpec {
	return []bot.OptionSpec{{Name: "tv", Kind: bot.StringOption,
		Choices: []bot.OptionChoice{bot.ChoiceFor("choice.tv.here", "here"), bot.ChoiceFor("choice.tv.off", "off")}}}
}

// SettingsLines say where the server's TV is.
func (s *Service) SettingsLines(ctx context.Context, req bot.Request) ([]string, error) {
	if req.GuildID == "" {
		return nil, nil
	}
	sets, err := s.store.TVSettings(ctx)
	if err != nil {
		return nil, err
	}
	for _, set := range sets {
		if set.GuildID == req.GuildID {
			return []string{req.Me().T("tv.show", "Channel", "<#"+set.ChannelID+">")}, nil
		}
	}
	return []string{req.Me().T("tv.show_off")}, nil
}
