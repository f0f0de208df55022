package web

// This file is a tournament's page: its standings with the tie-breaks,
// and every round's pairings, each linked to its game's page. It is
// written on the server, in the reader's language; no script runs.

import (
	_ "embed"
	"errors"
	"html/template"
	"net/http"
	"strconv"
	"strings"

	"othello-bot/catalog"
	"othello-bot/gametext"
	"othello-bot/record"
	"othello-bot/tournament"
)

//go:embed tournament.html
var tournamentHTML string

var tournamentPage = template.Must(template.New("tournament").Parse(tournamentHTML))

// TournamentPath is the path of a tournament's page.
func TournamentPath(publicID string) string { return "/t/" + publicID }

type tableRow struct {
	Cells     []string
	Withdrawn bool
}

type pairingLine struct {
	Text, Link, Result string
}

type roundView struct {
	Title string
	Lines []pairingLine
}

func (s *Server) tournamentPage(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	t := readerWords(r)
	if len(id) > 64 || strings.Trim(id, "0123456789abcdef") != "" {
		http.NotFound(w, r)
		return
	}
	tour, err := s.src.TournamentByPublicID(r.Context(), id)
	if errors.Is(err, record.ErrNotFound) {
		http.NotFound(w, r)
		return
	}
	var entrants []tournament.Entrant
	var pairings []tournament.Pairing
	if err == nil {
		entrants, err = s.src.Entrants(r.Context(), tour.ID)
	}
	if err == nil {
		pairings, err = s.src.Pairings(r.Context(), tour.ID)
	}
	var teams []tournament.Team
	if err == nil && tour.TeamTop > 0 {
		teams, err = s.src.Teams(r.Context(), tour.ID)
	}
	if err != nil {
		s.log.Error("web: loading a tournament", "id", id, "err", err)
		http.Error(w, t.T("web.load_failed"), http.StatusInternalServerError)
		return
	}
	names := map[string]string{}
	for _, e := range entrants {
		names[e.ID] = e.Name
	}
	games := make([]tournament.Game, len(pairings))
	for i, p := range pairings {
		games[i] = p.Game
	}
	standings := tournament.Standings(tour.Format, entrants, games)
	head, rows := standingsRows(t, tour.Format, standings)
	var rounds []roundView
	for _, p := range pairings {
		if len(rounds) == 0 || rounds[len(rounds)-1].Title != roundTitle(t, tour, p) {
			rounds = append(rounds, roundView{Title: roundTitle(t, tour, p)})
		}
		rv := &rounds[len(rounds)-1]
		line := pairingLine{}
		switch {
		case p.Bye():
			line.Text = t.T("tournament.line.bye", "Name", names[p.Black])
		case p.ForfeitBy != "":
			line.Text = t.T("tournament.line.forfeit", "Black", names[p.Black], "White", names[p.White], "Name", names[p.ForfeitBy])
		default:
			line.Text = t.T("web.tournament.pairing", "Black", names[p.Black], "White", names[p.White])
			if p.GamePublicID != "" {
				line.Link = PagePath(p.GamePublicID) + "?lang=" + string(t.Lang())
			}
			if p.Done() {
				line.Result = pairingResult(t, p)
			} else {
				line.Result = t.T("web.tournament.playing")
			}
		}
		rv.Lines = append(rv.Lines, line)
	}
	// The newest round first: it is what people come to see.
	for i, j := 0, len(rounds)-1; i < j; i, j = i+1, j-1 {
		rounds[i], rounds[j] = rounds[j], rounds[i]
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Security-Policy", pagePolicy)
	w.Header().Set("Cache-Control", "no-cache")
	w.Header().Set("Vary", "Accept-Language")
	err = tournamentPage.Execute(w, struct {
		Lang                               catalog.Lang
		Title, Status, Settings, TieBreaks string
		Head                               []string
		Rows                               []tableRow
		Teams                              teamsView
		Rounds                             []roundView
		W                                  struct{ Standings, Reload string }
	}{Lang: t.Lang(), Title: t.T("tournament.title", "ID", tour.ID, "Name", tour.Name),
		Teams:     teamTable(t, tour, standings, entrants, teams),
		Status:    t.T("tournament.status." + string(tour.Status)),
		Settings:  settingsLine(t, tour),
		TieBreaks: t.T("tournament.tiebreaks." + string(tour.Format)),
		Head:      head, Rows: rows, Rounds: rounds,
		W: struct{ Standings, Reload string }{t.T("web.tournament.standings"), t.T("web.tournament.reload")}})
	if err != nil {
		s.log.Warn("web: writing a tournament page", "err", err)
	}
}

func roundTitle(t *catalog.Printer, tour *tournament.Tournament, p tournament.Pairing) string {
	if tour.Format == tournament.Arena {
		return t.T("web.tournament.arena_games")
	}
	return t.T("tournament.round_field", "Round", p.Round)
}

func pairingResult(t *catalog.Printer, p tournament.Pairing) string {
	key := "draw"
	switch p.Outcome {
	case tournament.BlackWins:
		key = "black"
	case tournament.WhiteWins:
		key = "white"
	}
	out := t.T("tournament.result." + key)
	if !p.Forfeit {
		out += " (" + strconv.Itoa(p.BlackDiscs) + "–" + strconv.Itoa(p.WhiteDiscs) + ")"
	}
	return out
}

func settingsLine(t *catalog.Printer, tour *tournament.Tournament) string {
	parts := []string{t.T("choice.format." + string(tour.Format)), t.T("time.control", "Control", tour.Control.String(),
		"Speed", t.T("speed."+string(tour.Control.Category()))), t.T("choice.size", "N", tour.Size)}
	if tour.Rated {
		parts = append(parts, t.T("web.tournament.rated"))
	}
	return strings.Join(parts, " · ")
}

// standingsRows lays out the standings with the format's tie-breaks.
func standingsRows(t *catalog.Printer, format tournament.Format, rows []tournament.Standing) ([]string, []tableRow) {
	var out []tableRow
	for _, r := range rows {
		name := r.Name
		if r.OnFire {
			name += " 🔥"
		}
		out = append(out, tableRow{Cells: gametext.StandingsRow(format, r, name), Withdrawn: r.Withdrawn})
	}
	return gametext.Words{T: t}.StandingsHead(format), out
}

// teamsView is a team battle's standings by team (Title "" for another
// tournament).
type teamsView struct {
	Title string
	Head  []string
	Rows  [][]string
}

// teamTable ranks a team battle's teams: each team's points (its best
// TeamTop players') and who scored them.
func teamTable(t *catalog.Printer, tour *tournament.Tournament, rows []tournament.Standing, entrants []tournament.Entrant, teams []tournament.Team) teamsView {
	if tour.TeamTop == 0 {
		return teamsView{}
	}
	names := map[string]string{}
	for _, tm := range teams {
		names[tm.GuildID] = tm.Name
	}
	teamOf := map[string]string{}
	for _, e := range entrants {
		teamOf[e.ID] = e.Team
	}
	v := teamsView{Title: t.T("web.tournament.teams", "Top", tour.TeamTop),
		Head: []string{"#", t.T("web.tournament.team_head"), t.T("web.tournament.points_head"), t.T("web.tournament.players_head")}}
	for _, ts := range tournament.TeamStandings(rows, teamOf, tour.TeamTop) {
		var players []string
		for _, p := range ts.Players[:ts.Counted] {
			players = append(players, p.Name+" "+strconv.FormatFloat(p.Points, 'f', -1, 64))
		}
		v.Rows = append(v.Rows, []string{strconv.Itoa(ts.Rank), names[ts.Team], strconv.FormatFloat(ts.Points, 'f', -1, 64), strings.Join(players, ", ")})
	}
	return v
}
