package tournaments

// This file is how tournaments look in Discord: the sign-up message, the
// standings table, the round's pairings.

import (
	"context"
	"strings"

	"othello-bot/bot"
	"othello-bot/catalog"
	"othello-bot/customid"
	"othello-bot/gametext"
	"othello-bot/tournament"
)

// signupMessage shows a tournament's settings, start and entrants, with
// the Join and Leave buttons while entries are open.
func (s *Service) signupMessage(t *catalog.Printer, tour *tournament.Tournament, entrants []tournament.Entrant, teams []tournament.Team) bot.Message {
	var names []string
	active := 0
	for _, e := range entrants {
		if e.Withdrawn {
			continue
		}
		active++
		names = append(names, bot.Escape(bot.Clip(e.Name, 20)))
	}
	body := t.T("tournament.signup_body", "Status", t.T("tournament.status."+string(tour.Status)))
	if tour.TeamTop > 0 {
		body += "\n" + bot.Clip(teamsLine(t, tour, teams), 700)
	}
	body += "\n\n**" + t.T("tournament.field.entrants", "Count", active) + "**\n"
	list := t.T("tournament.no_entrants")
	if len(names) > 0 {
		// The description holds the most: 64 of the longest names, each
		// shortened a little; past what fits, a count.
		room := bot.MaxDescription - bot.Length(body)
		var b strings.Builder
		for i, n := range names {
			more := t.T("tournament.more", "Count", len(names)-i)
			if i > 0 && bot.Length(b.String())+2+bot.Length(n)+2+bot.Length(more) > room {
				b.WriteString(", " + more)
				break
			}
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(n)
		}
		list = b.String()
	}
	fields := []bot.Field{
		{Name: t.T("tournament.field.format"), Value: formatLine(t, tour), Inline: true},
		{Name: t.T("field.time_control"), Value: bot.ControlName(t, tour.Control), Inline: true},
		{Name: t.T("tournament.field.board"), Value: t.T("choice.size", "N", tour.Size), Inline: true},
		{Name: t.T("tournament.field.rated"), Value: yesNo(t, tour.Rated), Inline: true},
		{Name: t.T("tournament.field.starts"), Value: startsText(t, tour), Inline: true},
	}
	m := bot.Message{Embed: &bot.Embed{Title: t.T("tournament.title", "ID", tour.ID, "Name", bot.Escape(tour.Name)),
		Description: body + list, Fields: fields, URL: s.tournamentURL(tour)}}
	if entriesOpen(tour, s.Now()) {
		m.Components = []bot.Row{{Buttons: []bot.ButtonSpec{
			{Label: t.T("tournament.button.join"), CustomID: customid.Make("tjoin", tour.ID), Style: bot.Success},
			{Label: t.T("tournament.button.leave"), CustomID: customid.Make("tleave", tour.ID), Style: bot.Secondary},
		}}}
	}
	return m
}

// tournamentURL is the tournament's web page, "" without one.
func (s *Service) tournamentURL(t *tournament.Tournament) string {
	if s.cfg.URL == nil || t.PublicID == "" {
		return ""
	}
	return s.cfg.URL(t.PublicID)
}

// startsText says when a tournament starts (or started).
func startsText(t *catalog.Printer, tour *tournament.Tournament) string {
	if tour.StartsAt.IsZero() {
		return t.T("tournament.by_hand")
	}
	return bot.Stamp(tour.StartsAt, bot.StampFull) + " (" + bot.Stamp(tour.StartsAt, bot.StampRelative) + ")"
}

// formatLine names a tournament's format with its length.
func formatLine(t *catalog.Printer, tour *tournament.Tournament) string {
	switch tour.Format {
	case tournament.Swiss:
		return t.T("tournament.format.swiss_rounds", "Count", tour.Rounds)
	case tournament.RoundRobin:
		if tour.Double {
			return t.T("tournament.format.double")
		}
		return t.T("choice.format.roundrobin")
	}
	return t.T("tournament.format.arena_minutes", "Count", int(tour.Duration.Minutes()))
}

func yesNo(t *catalog.Printer, b bool) string {
	if b {
		return t.T("tournament.yes")
	}
	return t.T("tournament.no")
}

// pairingLines are a round's pairings, one a line, with each game's thread.
func pairingLines(t *catalog.Printer, pairings []tournament.Pairing, entrants []tournament.Entrant, round int) []string {
	names := map[string]string{}
	for _, e := range entrants {
		names[e.ID] = bot.Escape(bot.Clip(e.Name, 32))
	}
	var lines []string
	for _, p := range pairings {
		if p.Round != round {
			continue
		}
		switch {
		case p.Bye():
			lines = append(lines, t.T("tournament.line.bye", "Name", names[p.Black]))
		case p.ForfeitBy != "":
			lines = append(lines, t.T("tournament.line.forfeit", "Black", names[p.Black], "White", names[p.White], "Name", names[p.ForfeitBy]))
		default:
			where := ""
			if p.GameChannelID != "" {
				where = "<#" + p.GameChannelID + ">"
			}
			result := ""
			if p.Done() {
				result = t.T("tournament.result." + outcomeKey(p.Outcome))
			}
			lines = append(lines, t.T("tournament.line.game", "Board", p.Board, "Black", names[p.Black], "White", names[p.White],
				"Where", where, "Result", result))
		}
	}
	return lines
}

func outcomeKey(o tournament.Outcome) string {
	switch o {
	case tournament.BlackWins:
		return "black"
	case tournament.WhiteWins:
		return "white"
	}
	return "draw"
}

// standingsMessage is the standings table.
func (s *Service) standingsMessage(ctx context.Context, t *catalog.Printer, tour *tournament.Tournament) (bot.Message, error) {
	entrants, err := s.store.Entrants(ctx, tour.ID)
	if err != nil {
		return bot.Message{}, err
	}
	pairings, err := s.store.Pairings(ctx, tour.ID)
	if err != nil {
		return bot.Message{}, err
	}
	rows := tournament.Standings(tour.Format, entrants, tournament.Games(pairings))
	table := standingsTable(t, tour.Format, rows)
	teamFields, err := s.teamField(ctx, t, tour, rows, entrants)
	if err != nil {
		return bot.Message{}, err
	}
	status := t.T("tournament.status." + string(tour.Status))
	if tour.Status == tournament.Running && tour.Format != tournament.Arena {
		status = t.T("tournament.round_of", "Round", tour.Round, "Rounds", tour.Rounds)
	}
	if tour.Format == tournament.Arena && tour.Status == tournament.Running {
		status = t.T("tournament.arena_until", "When", bot.Stamp(tour.EndsAt, bot.StampRelative))
	}
	desc := status + "\n```\n" + table + "\n```"
	if len(entrants) == 0 {
		desc = status + "\n" + t.T("tournament.no_entrants")
	}
	title, footer := t.T("tournament.standings_title", "ID", tour.ID, "Name", bot.Escape(tour.Name)), t.T("tournament.tiebreaks."+string(tour.Format))
	// The embed's total bounds the table beside a team battle's fields.
	room := bot.MaxEmbedTotal - bot.Length(title) - bot.Length(footer)
	for _, f := range teamFields {
		room -= bot.Length(f.Name) + bot.Length(f.Value)
	}
	return bot.Message{Embed: &bot.Embed{Title: title, Description: bot.Clip(desc, min(bot.MaxDescription, room)), Footer: footer,
		URL: s.tournamentURL(tour), Fields: teamFields}}, nil
}

// roundMessages are a round's pairings, each with its game's thread: as
// many messages as the boards need, none cut.
func (s *Service) roundMessages(ctx context.Context, t *catalog.Printer, tour *tournament.Tournament, round int) ([]bot.Message, error) {
	pairings, err := s.store.Pairings(ctx, tour.ID)
	if err != nil {
		return nil, err
	}
	entrants, err := s.store.Entrants(ctx, tour.ID)
	if err != nil {
		return nil, err
	}
	title := t.T("tournament.round_title", "ID", tour.ID, "Name", bot.Escape(tour.Name), "Round", round, "Rounds", tour.Rounds)
	var out []bot.Message
	for _, part := range chunks(pairingLines(t, pairings, entrants, round), bot.MaxDescription) {
		out = append(out, bot.Message{Embed: &bot.Embed{Title: title, Description: strings.Join(part, "\n"), URL: s.tournamentURL(tour)}})
	}
	return out, nil
}

// chunks splits lines into runs whose joined length stays within max.
func chunks(lines []string, max int) [][]string {
	var out [][]string
	var cur []string
	size := 0
	for _, l := range lines {
		if len(cur) > 0 && size+1+bot.Length(l) > max {
			out = append(out, cur)
			cur, size = nil, 0
		}
		if len(cur) > 0 {
			size++
		}
		cur = append(cur, l)
		size += bot.Length(l)
	}
	if len(cur) > 0 {
		out = append(out, cur)
	}
	return out
}

// standingsTable lays the standings out in columns, for a code block.
func standingsTable(t *catalog.Printer, format tournament.Format, rows []tournament.Standing) string {
	table := [][]string{gametext.Words{T: t}.StandingsHead(format)}
	for _, r := range rows {
		name := bot.Clip(r.Name, 16)
		if r.Withdrawn {
			name = bot.Clip(r.Name, 14) + " ✗"
		}
		if r.OnFire {
			name = bot.Clip(r.Name, 14) + " 🔥"
		}
		table = append(table, gametext.StandingsRow(format, r, name))
	}
	return columns(table)
}

// columns pads each column to its widest cell, in the columns a
// monospace font gives each character (a wide one takes two).
func columns(rows [][]string) string {
	width := map[int]int{}
	for _, r := range rows {
		for i, c := range r {
			width[i] = max(width[i], gametext.Width(c))
		}
	}
	var b strings.Builder
	for n, r := range rows {
		if n > 0 {
			b.WriteByte('\n')
		}
		for i, c := range r {
			if i > 0 {
				b.WriteString("  ")
			}
			b.WriteString(c)
			if i < len(r)-1 {
				b.WriteString(strings.Repeat(" ", width[i]-gametext.Width(c)))
			}
		}
	}
	return b.String()
}
