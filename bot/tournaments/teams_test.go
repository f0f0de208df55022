package tournaments

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"othello-bot/bot"
	"othello-bot/catalog"
	"othello-bot/tournament"
)

// longName is a 32-character name (Discord's longest; a team's too) made
// of the characters escaping doubles.
var longName = strings.Repeat("*_|", 11)[:32]

type clockCore struct {
	Core
	now time.Time
}

func (c clockCore) Now() time.Time { return c.now }

// A team battle's messages at their largest — ten teams of the longest
// names, 64 players of the longest names with points in the hundreds —
// keep within Discord's limits in both languages: the sign-up message
// with its teams, and the standings with the table and the teams' field.
func TestTeamBattleMessagesWithinLimits(t *testing.T) {
	now := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
	s := &Service{Core: clockCore{now: now}}
	tour := &tournament.Tournament{ID: 1 << 40, GuildID: "g0", Name: longName, Format: tournament.Arena, Duration: time.Hour, Size: 26,
		TeamTop: tournament.MaxTeamTop, Status: tournament.SignUp, CreatedAt: now}
	var teams []tournament.Team
	for i := 0; i < tournament.MaxTeams; i++ {
		teams = append(teams, tournament.Team{GuildID: fmt.Sprint("g", i), Name: longName, InvitedAt: now, AcceptedAt: now})
	}
	var entrants []tournament.Entrant
	var rows []tournament.Standing
	for i := 0; i < tournament.MaxEntrants; i++ {
		id := fmt.Sprint("p", i)
		entrants = append(entrants, tournament.Entrant{ID: id, Name: longName, Team: fmt.Sprint("g", i%tournament.MaxTeams)})
		rows = append(rows, tournament.Standing{Rank: i + 1, ID: id, Name: longName, Points: float64(999 - i), Games: 99, Performance: 2999})
	}
	for _, l := range catalog.Supported() {
		p := catalog.For(l)
		signup := s.signupMessage(p, tour, entrants, teams)
		check(t, "the sign-up", &signup)
		fields := teamFields(p, tour, rows, entrants, teams)
		shown := 0
		for _, f := range fields {
			shown += strings.Count(f.Value, "\n") + 1
		}
		if shown != tournament.MaxTeams || strings.Contains(fields[len(fields)-1].Value, "… +") {
			t.Fatalf("%d of %d teams shown in %d fields", shown, tournament.MaxTeams, len(fields))
		}
		m := bot.Message{Embed: &bot.Embed{Title: p.T("tournament.standings_title", "ID", tour.ID, "Name", bot.Escape(tour.Name)),
			Description: "```\n" + standingsTable(p, tour.Format, rows) + "\n```",
			Footer:      p.T("tournament.tiebreaks." + string(tour.Format)), Fields: fields}}
		room := bot.MaxEmbedTotal - bot.Length(m.Embed.Title) - bot.Length(m.Embed.Footer)
		for _, f := range fields {
			room -= bot.Length(f.Name) + bot.Length(f.Value)
		}
		m.Embed.Description = bot.Clip(m.Embed.Description, min(bot.MaxDescription, room))
		check(t, "the standings", &m)
		for _, key := range []string{"team.game", "team.accepted", "team.accepted_host", "team.invited", "team.joined"} {
			text := p.T(key, "Mention", "<@12345678901234567890>", "ID", tour.ID, "Opponent", bot.Escape(longName), "Name", bot.Escape(longName),
				"Team", bot.Escape(longName), "Top", tournament.MaxTeamTop)
			check(t, key, &bot.Message{Content: text})
		}
	}
}

func check(t *testing.T, what string, m *bot.Message) {
	t.Helper()
	if errs := m.LimitErrors(); len(errs) > 0 {
		t.Errorf("%s breaks Discord's limits: %v", what, errs)
	}
}
