package bot

// This file is /leaderboard, /stats and /history.

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"othello-bot/game"
	"othello-bot/record"
	"othello-bot/render"
)

// subject is the user a /stats or /history is about: the option, or the
// caller.
func subject(req Request) record.Player {
	id := strings.TrimSpace(req.Options["user"])
	if id == "" || id == req.User.ID {
		return req.User
	}
	name := req.UserNames[id]
	if name == "" {
		name = id
	}
	return record.Player{ID: id, Name: name}
}

// noGamesYet is the friendly answer about someone without finished games.
func noGamesYet(req Request, who record.Player) Response {
	if who.ID == req.User.ID {
		return reply("You haven't finished a game yet. /start plays me, /challenge plays a friend.")
	}
	return reply("%s hasn't finished a game yet.", name(who))
}

func (s *Service) leaderboard(ctx context.Context, req Request) (Response, error) {
	scope, title := record.GlobalScope, "Leaderboard · everywhere"
	switch strings.ToLower(strings.TrimSpace(req.Options["scope"])) {
	case "", "server":
		if req.GuildID != "" {
			scope, title = req.GuildID, "Leaderboard · this server"
		}
	case "global":
	default:
		return refuse("The scope must be server or global."), nil
	}
	now := s.clock.Now()
	top, err := s.store.Leaderboard(ctx, scope, growth(now), 10)
	if err != nil {
		return Response{}, err
	}
	if len(top) == 0 {
		return reply("No rated games here yet. /challenge someone to start the ladder!"), nil
	}
	var lines []string
	mine := false
	for _, st := range top {
		lines = append(lines, standingLine(st))
		mine = mine || st.Player.ID == req.User.ID
	}
	if !mine {
		switch st, err := s.store.Standing(ctx, req.User.ID, scope, growth(now)); {
		case err == nil:
			lines = append(lines, "…", standingLine(st))
		case errors.Is(err, record.ErrNotFound):
			lines = append(lines, "", "You have no rating here yet: play a rated /challenge to join.")
		default:
			return Response{}, err
		}
	}
	return Response{Message: &Message{Embed: &Embed{Title: title, Description: joinLines(lines, MaxDescription),
		Footer: "W-L-D in rated games. Provisional ratings (still uncertain: few or long-ago games) are marked ? and listed after the others."}}}, nil
}

func standingLine(st record.Standing) string {
	mark := ""
	if st.Provisional {
		mark = "?"
	}
	return fmt.Sprintf("**%d.** %s · %.0f%s · %s, %d-%d-%d", st.Rank, name(st.Player), st.Rating.Rating, mark,
		plural(st.Games, "game"), st.Wins, st.Losses, st.Draws)
}

func (s *Service) stats(ctx context.Context, req Request) (Response, error) {
	who := subject(req)
	now := s.clock.Now()
	history, err := s.store.History(ctx, who.ID, 200)
	if err != nil {
		return Response{}, err
	}
	if len(history) == 0 {
		return noGamesYet(req, who), nil
	}
	var fields []Field
	for _, sc := range []struct{ name, scope string }{{"Rating here", req.GuildID}, {"Rating everywhere", record.GlobalScope}} {
		if sc.scope == "" {
			continue
		}
		st, err := s.store.Standing(ctx, who.ID, sc.scope, growth(now))
		switch {
		case errors.Is(err, record.ErrNotFound):
			fields = append(fields, Field{Name: sc.name, Value: "not rated yet", Inline: true})
		case err != nil:
			return Response{}, err
		default:
			// A wide interval ("1338 ± 581") reads as nonsense to players;
			// until the rating settles, say that instead.
			value := fmt.Sprintf("%.0f ± %.0f (#%d)", st.Rating.Rating, 2*st.Deviation, st.Rank)
			if st.Provisional {
				value = fmt.Sprintf("%.0f, provisional: %s so far (#%d)", st.Rating.Rating, plural(st.Games, "rated game"), st.Rank)
			}
			fields = append(fields, Field{Name: sc.name, Value: fmt.Sprintf("%s · %d-%d-%d", value, st.Wins, st.Losses, st.Draws), Inline: true})
		}
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
			u++
		}
	}
	all := fmt.Sprintf("%d won, %d lost, %d drawn", w, l, d)
	if u > 0 {
		all += fmt.Sprintf(", %d unfinished", u)
	}
	fields = append(fields, Field{Name: "All games", Value: all, Inline: true},
		Field{Name: "Streak", Value: streak(history), Inline: true})
	levels, err := s.store.RecordAgainstBot(ctx, who.ID)
	if err != nil {
		return Response{}, err
	}
	if len(levels) > 0 {
		var parts []string
		best := 0
		for _, lv := range levels {
			parts = append(parts, fmt.Sprintf("L%d %d-%d-%d", lv.Level, lv.Wins, lv.Losses, lv.Draws))
			if lv.Wins > 0 {
				best = lv.Level
			}
		}
		fields = append(fields, Field{Name: "Against the bot (W-L-D)", Value: strings.Join(parts, " · ")})
		bestText := "none yet"
		if best > 0 {
			bestText = fmt.Sprintf("level %d", best)
		}
		fields = append(fields, Field{Name: "Best level beaten", Value: bestText, Inline: true})
	}
	return Response{Message: &Message{Embed: &Embed{Title: clip("Stats · "+name(who), MaxEmbedTitle), Fields: fields}}}, nil
}

// streak describes the run of equal results ending with the latest game;
// aborted games do not count.
func streak(h []record.HistoryEntry) string {
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
		return plural(n, "win") + " in a row"
	case record.Lost:
		return plural(n, "loss") + " in a row"
	case record.Drew:
		return plural(n, "draw") + " in a row"
	}
	return "none yet"
}

// maxTranscript keeps a long game's moves from overflowing the message;
// Discord allows 4096 characters in an embed's description.
const maxTranscript = 280

func (s *Service) history(ctx context.Context, req Request) (Response, error) {
	who := subject(req)
	hist, err := s.store.History(ctx, who.ID, 10)
	if err != nil {
		return Response{}, err
	}
	if len(hist) == 0 {
		return noGamesYet(req, who), nil
	}
	var entries []string
	for _, h := range hist {
		var b strings.Builder
		verb := h.Result.String()
		how := ""
		if h.Reason == record.EndResign || h.Reason == record.EndTimeout {
			how = " by " + map[record.EndReason]string{record.EndResign: "resignation", record.EndTimeout: "time"}[h.Reason]
		}
		if h.Takebacks > 0 {
			how += " · " + plural(h.Takebacks, "takeback")
		}
		fmt.Fprintf(&b, "**#%d** %s · %s %s vs %s · %s %d–%d%s (%dx%d)\n", h.GameID, h.FinishedAt.Format("2006-01-02"),
			render.Disc(h.Color), h.Color, sideName(h.Opponent), verb, h.Mine, h.Theirs, how, h.Size, h.Size)
		t := h.Transcript
		if len(t) > maxTranscript {
			t = t[:maxTranscript] + fmt.Sprintf("… (%d moves in all)", len(movesIn(h.Transcript, h.Size)))
		}
		if t != "" {
			fmt.Fprintf(&b, "`%s`\n", t)
		}
		entries = append(entries, strings.TrimRight(b.String(), "\n"))
	}
	return Response{Message: &Message{Embed: &Embed{Title: clip("Recent games · "+name(who), MaxEmbedTitle), Description: joinLines(entries, MaxDescription),
		Footer: "Transcripts are in the standard notation (f5d6c3…); paste them into any Othello program."}}}, nil
}

func movesIn(transcript string, size int) []game.Square {
	m, _ := game.ParseTranscript(transcript, size)
	return m
}
