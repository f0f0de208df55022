package tournament

import (
	"cmp"
	"slices"
	"time"
)

// A team battle (lichess's): each player's points go to their team, and a
// team scores the points of its best Top players; teammates never meet.

// Limits of a team battle: the players counted per team, the teams, a
// team's name.
const (
	MaxTeamTop     = 20
	MaxTeams       = 10
	MaxTeamNameLen = 32
)

// Team is a server in a team battle: the host's from the start, another
// once invited and then accepted there, with the channel its players
// hear of their games in.
type Team struct {
	GuildID, ChannelID    string
	Name                  string
	InvitedAt, AcceptedAt time.Time // AcceptedAt zero: invited only
}

// Accepted says whether the team plays.
func (t Team) Accepted() bool { return !t.AcceptedAt.IsZero() }

// TeamStanding is a team's line in a team battle's standings.
type TeamStanding struct {
	Rank   int // equal for teams equal on points
	Team   string
	Points float64
	// Players are the team's players in their order in the standings;
	// the first Counted of them make its points.
	Players []Standing
	Counted int
}

// TeamStandings ranks the teams of a battle from the players' standings:
// each team's points are its best top players' (every player's when top
// is 0 or more than it has); ties share a rank and are listed by their
// best player's place.
func TeamStandings(rows []Standing, teamOf map[string]string, top int) []TeamStanding {
	byTeam := map[string]*TeamStanding{}
	var order []*TeamStanding
	for _, r := range rows {
		team := teamOf[r.ID]
		if team == "" {
			continue
		}
		ts := byTeam[team]
		if ts == nil {
			ts = &TeamStanding{Team: team}
			byTeam[team] = ts
			order = append(order, ts)
		}
		ts.Players = append(ts.Players, r)
	}
	out := make([]TeamStanding, 0, len(order))
	for _, ts := range order {
		// The standings are ranked already; withdrawn players' points
		// still count, as they were scored.
		slices.SortStableFunc(ts.Players, func(a, b Standing) int { return cmp.Compare(b.Points, a.Points) })
		ts.Counted = len(ts.Players)
		if top > 0 {
			ts.Counted = min(top, len(ts.Players))
		}
		for _, p := range ts.Players[:ts.Counted] {
			ts.Points += p.Points
		}
		out = append(out, *ts)
	}
	slices.SortStableFunc(out, func(a, b TeamStanding) int { return cmp.Compare(b.Points, a.Points) })
	for i := range out {
		out[i].Rank = i + 1
		if i > 0 && out[i].Points == out[i-1].Points {
			out[i].Rank = out[i-1].Rank
		}
	}
	return out
}
