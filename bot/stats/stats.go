package stats

// This file is /stats and /history.

import (
	"context"
	"errors"
	"slices"
	"strings"
	"time"

	"othello-bot/bot"
	"othello-bot/catalog"
	"othello-bot/game"
	"othello-bot/opening"
	"othello-bot/rating/rated"
	"othello-bot/record"
	"othello-bot/render"
	"othello-bot/timecontrol"
)

// noGamesYet is the friendly answer about someone without finished games.
func noGamesYet(req bot.Request, who record.Player) bot.Response {
	if who.ID == req.User.ID {
		return bot.Reply(req.Pub().T("stats.none_yours"))
	}
	return bot.Reply(req.Pub().T("stats.none_theirs", "Name", bot.Escape(who.Name)))
}

func (s *Service) stats(ctx context.Context, req bot.Request) (bot.Response, error) {
	who := bot.Subject(req)
	now := s.Now()
	history, err := s.store.History(ctx, who.ID, 200)
	if err != nil {
		return bot.Response{}, err
	}
	t := req.Pub()
	var more []bot.Field
	for _, f := range s.more {
		fs, err := f(ctx, t, who.ID)
		if err != nil {
			return bot.Response{}, err
		}
		more = append(more, fs...)
	}
	if len(history) == 0 {
		if len(more) == 0 {
			return noGamesYet(req, who), nil
		}
		return statsMessage(t, who, more), nil
	}
	asked, ok := speedOf(req)
	if !ok {
		return bot.Refuse(req.Me().T("leaderboard.bad_speed")), nil
	}
	named := strings.TrimSpace(req.Options["speed"]) != ""
	speeds := []timecontrol.Category{asked}
	if !named {
		speeds = timecontrol.Categories()
	}
	var fields, fallback []bot.Field
	shown := false
	for _, speed := range speeds {
		rated, err := s.speedFields(ctx, t, req, who, speed, now)
		if err != nil {
			return bot.Response{}, err
		}
		// Without a speed asked for, a speed shows where the player has
		// played it; correspondence too when no speed has a rating, to say
		// so.
		if named || rated.played {
			fields = append(fields, rated.fields...)
			shown = true
		}
		if speed == timecontrol.Correspondence {
			fallback = rated.fields
		}
	}
	if !shown {
		fields = append(fields, fallback...)
	}
	w, l, d, u := 0, 0, 0, 0
	for _, h := range history {
		switch h.Result {
		case record.Won:
			w++
		case record.Lost:
			l++
		case record.Drew:
			d++
		case record.AbortedGame:
			// Aborted before both sides moved twice, it never was a game;
			// abandoned or ended by a moderator, it is unfinished.
			if h.Reason != record.EndAbort {
				u++
			}
		}
	}
	all := t.T("stats.all", "W", w, "L", l, "D", d)
	if u > 0 {
		all = t.T("stats.all_unfinished", "W", w, "L", l, "D", d, "U", u)
	}
	fields = append(fields, bot.Field{Name: t.T("stats.all_games"), Value: all, Inline: true},
		bot.Field{Name: t.T("stats.streak"), Value: streak(t, history), Inline: true})
	if fav := favouriteOpenings(t, history, 3); fav != "" {
		fields = append(fields, bot.Field{Name: t.T("stats.favourite_openings"), Value: fav})
	}
	levels, err := s.store.RecordAgainstBot(ctx, who.ID)
	if err != nil {
		return bot.Response{}, err
	}
	if len(levels) > 0 {
		var parts []string
		best := 0
		for _, lv := range levels {
			parts = append(parts, t.T("stats.level_record", "Level", lv.Level, "W", lv.Wins, "L", lv.Losses, "D", lv.Draws))
			if lv.Wins > 0 {
				best = lv.Level
			}
		}
		fields = append(fields, bot.Field{Name: t.T("stats.against_bot"), Value: strings.Join(parts, " · ")})
		bestText := t.T("stats.none_yet")
		if best > 0 {
			bestText = t.T("stats.level", "Level", best)
		}
		fields = append(fields, bot.Field{Name: t.T("stats.best_level"), Value: bestText, Inline: true})
	}
	return statsMessage(t, who, append(fields, more...)), nil
}

func statsMessage(t *catalog.Printer, who record.Player, fields []bot.Field) bot.Response {
	return bot.Response{Message: &bot.Message{Embed: &bot.Embed{Title: bot.Clip(t.T("stats.title", "Name", bot.Escape(who.Name)), bot.MaxEmbedTitle), Fields: fields}}}
}

// streak describes the run of equal results ending with the latest game;
// aborted games do not count.
func streak(t *catalog.Printer, h []record.HistoryEntry) string {
	var kind record.Outcome
	n := 0
	for _, e := range h {
		if e.Result == record.AbortedGame {
			continue
		}
		if kind == 0 {
			kind = e.Result
		}
		if e.Result != kind {
			break
		}
		n++
	}
	switch kind {
	case record.Won:
		return t.T("streak.wins", "Count", n)
	case record.Lost:
		return t.T("streak.losses", "Count", n)
	case record.Drew:
		return t.T("streak.draws", "Count", n)
	}
	return t.T("stats.none_yet")
}

// maxTranscript keeps a long game's moves from overflowing the message;
// Discord allows 4096 characters in an embed's description.
const maxTranscript = 280

func (s *Service) history(ctx context.Context, req bot.Request) (bot.Response, error) {
	who := bot.Subject(req)
	hist, err := s.store.History(ctx, who.ID, 10)
	if err != nil {
		return bot.Response{}, err
	}
	if len(hist) == 0 {
		return noGamesYet(req, who), nil
	}
	t := req.Pub()
	var entries []string
	for _, h := range hist {
		var b strings.Builder
		how := ""
		switch h.Reason {
		case record.EndResign:
			how = t.T("history.by_resignation")
		case record.EndTimeout:
			how = t.T("history.on_time")
		}
		if h.Takebacks > 0 {
			how += t.T("history.takebacks", "Count", h.Takebacks)
		}
		if h.Control != "" {
			how += t.T("history.control", "Control", h.Control)
		}
		if h.Size == 8 {
			if o, ok := opening.Standard().Name(movesIn(h.Transcript, h.Size)); ok {
				how += t.T("history.opening", "Name", o.Name(t))
			}
		}
		b.WriteString(t.T("history.entry", "ID", h.GameID, "Date", h.FinishedAt.Format("2006-01-02"),
			"Disc", render.Disc(h.Color), "Color", colorWord(t, h.Color), "Opponent", bot.SideName(t, h.Opponent),
			"Result", t.T("history.result."+h.Result.String()), "Mine", h.Mine, "Theirs", h.Theirs, "How", how, "Size", h.Size))
		b.WriteString("\n")
		tr := h.Transcript
		if len(tr) > maxTranscript {
			tr = tr[:maxTranscript] + t.T("history.moves_in_all", "Count", len(movesIn(h.Transcript, h.Size)))
		}
		if tr != "" {
			b.WriteString("`" + tr + "`\n")
		}
		entries = append(entries, strings.TrimRight(b.String(), "\n"))
	}
	return bot.Response{Message: &bot.Message{Embed: &bot.Embed{Title: bot.Clip(t.T("history.title", "Name", bot.Escape(who.Name)), bot.MaxEmbedTitle), Description: bot.JoinLines(entries, bot.MaxDescription),
		Footer: t.T("history.footer")}}}, nil
}

// colorWord names a colour in the reader's words.
func colorWord(t *catalog.Printer, c game.Color) string {
	if c == game.White {
		return t.T("color.white")
	}
	return t.T("color.black")
}

func movesIn(transcript string, size int) []game.Square {
	m, _ := game.ParseTranscript(transcript, size)
	return m
}

// speedOf reads the speed option: correspondence when none is given.
func speedOf(req bot.Request) (timecontrol.Category, bool) {
	v := strings.ToLower(strings.TrimSpace(req.Options["speed"]))
	if v == "" {
		return timecontrol.Correspondence, true
	}
	c := timecontrol.Category(v)
	return c, slices.Contains(timecontrol.Categories(), c)
}

// speedRatings are /stats's fields of one speed; played says the player
// has a rating of that speed anywhere shown.
type speedRatings struct {
	fields []bot.Field
	played bool
}

// speedFields are a player's ratings of one speed, here and everywhere.
// Correspondence keeps the fields' names from before clocks.
func (s *Service) speedFields(ctx context.Context, t *catalog.Printer, req bot.Request, who record.Player, speed timecontrol.Category, now time.Time) (speedRatings, error) {
	var out speedRatings
	for _, sc := range []struct{ name, scope string }{{t.T("stats.rating_here"), req.GuildID}, {t.T("stats.rating_everywhere"), record.GlobalScope}} {
		if sc.scope == "" {
			continue
		}
		fieldName := sc.name
		if speed != timecontrol.Correspondence {
			fieldName = t.T("stats.rating_speed", "Where", sc.name, "Speed", t.T("speed."+string(speed)))
		}
		st, err := s.store.Standing(ctx, who.ID, record.SpeedScope(sc.scope, speed), rated.Growth(now))
		switch {
		case errors.Is(err, record.ErrNotFound):
			out.fields = append(out.fields, bot.Field{Name: fieldName, Value: t.T("stats.not_rated"), Inline: true})
		case err != nil:
			return out, err
		default:
			out.played = true
			// A wide interval ("1338 ± 581") reads as nonsense to players;
			// until the rating settles, say that instead.
			value := t.T("stats.rating", "Rating", ratingText(st.Rating.Rating), "Deviation", ratingText(2*st.Deviation), "Rank", st.Rank)
			if st.Provisional {
				value = t.T("stats.provisional", "Rating", ratingText(st.Rating.Rating), "Count", st.Games, "Rank", st.Rank)
			}
			out.fields = append(out.fields, bot.Field{Name: fieldName, Value: t.T("stats.rating_record", "Rating", value, "W", st.Wins, "L", st.Losses, "D", st.Draws), Inline: true})
		}
	}
	return out, nil
}
