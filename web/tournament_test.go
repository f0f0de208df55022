package web

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"othello-bot/game"
	"othello-bot/record"
	"othello-bot/timecontrol"
	"othello-bot/tournament"
)

// newTournament stores a Swiss of three with round 1 paired: alice beat
// bob (a finished game), carol had the bye; and a name that tries markup.
func (f *fixture) newTournament() *tournament.Tournament {
	f.t.Helper()
	ctx := context.Background()
	control, _ := timecontrol.Parse("3+2")
	tour := &tournament.Tournament{GuildID: "g", ChannelID: "hall", Name: "Friday <b>Swiss</b>", Format: tournament.Swiss,
		Rounds: 2, Size: 8, Rated: true, Control: control, StartsAt: time.Now(), CreatedAt: time.Now()}
	players := []record.Player{{ID: "1", Name: "alice"}, {ID: "2", Name: "bob"}, {ID: "3", Name: "<script>carol"}}
	if err := f.store.CreateTournament(ctx, tour, players[0]); err != nil {
		f.t.Fatal(err)
	}
	tour.Status = tournament.Running
	if err := f.store.UpdateTournament(ctx, tour); err != nil {
		f.t.Fatal(err)
	}
	for _, p := range players {
		if err := f.store.JoinTournament(ctx, tour.ID, p, "", 1500, time.Now()); err != nil {
			f.t.Fatal(err)
		}
	}
	if err := f.store.PairTournament(ctx, tour, []tournament.Pairing{
		{Game: tournament.Game{Round: 1, Black: "1", White: "2"}, Board: 1}, {Game: tournament.Game{Round: 1, Black: "3"}, Board: 2}}); err != nil {
		f.t.Fatal(err)
	}
	start, _ := game.NewPosition(8)
	now := time.Now()
	g := &record.Game{GuildID: "g", ChannelID: "thread", State: game.NewGame(start), Black: record.Human(players[0]),
		White: record.Human(players[1]), CreatedAt: now, UpdatedAt: now, TurnStartedAt: now, Control: control}
	if err := f.store.OpenPairingGame(ctx, tour.ID, 1, 1, g); err != nil {
		f.t.Fatal(err)
	}
	for i := 0; i < 6; i++ {
		f.play(g)
	}
	f.finish(g)
	return tour
}

func TestTournamentPage(t *testing.T) {
	f := newFixture(t)
	tour := f.newTournament()
	code, body := f.get(TournamentPath(tour.PublicID) + "?lang=en")
	if code != 200 {
		t.Fatalf("status %d", code)
	}
	for _, want := range []string{"Tournament #1: Friday &lt;b&gt;Swiss&lt;/b&gt;", "Swiss · 3&#43;2 · Blitz · 8x8 · rated",
		"<th>Bh</th>", "&lt;script&gt;carol: a bye (one point)", "Round 1", `href="/g/`, "1–0"} {
		if !strings.Contains(body, want) {
			t.Errorf("the page lacks %q:\n%s", want, body)
		}
	}
	if strings.Contains(body, "<script>carol") || strings.Contains(body, "<b>Swiss") {
		t.Error("a name reached the page as markup")
	}
	if code, body := f.get(TournamentPath(tour.PublicID) + "?lang=ja"); code != 200 || !strings.Contains(body, "順位表") {
		t.Errorf("in Japanese: %d", code)
	}
	for _, path := range []string{"/t/1", "/t/" + strings.Repeat("a", 24), "/t/../g"} {
		if code, _ := f.get(path); code != 404 {
			t.Errorf("%s: %d, want 404", path, code)
		}
	}
}

// A real browser shows the page under its content security policy: the
// standings table's rows, and the link to the game's page works.
func TestTournamentPageInABrowser(t *testing.T) {
	f := newFixture(t)
	tour := f.newTournament()
	ctx := browser(t)
	if err := chromedp.Do(ctx, chromedp.Navigate(f.srv.URL+TournamentPath(tour.PublicID)+"?lang=en"),
		chromedp.WaitVisible(chromedp.CSS("table.standings"))); err != nil {
		t.Fatal(err)
	}
	rows, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("table.standings tbody tr").length`))
	if err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("ul.pairings a")), chromedp.WaitVisible(chromedp.CSS("#board circle"))); err != nil {
		t.Fatal(err)
	}
	title, err := chromedp.Run(ctx, chromedp.Text(chromedp.ID("title")))
	if err != nil {
		t.Fatal(err)
	}
	if rows != 3 || !strings.Contains(title, "alice") {
		t.Fatalf("%d rows; the game page's title %q", rows, title)
	}
}

// A team battle's page adds the teams: each ranked by its best players'
// points, who scored them, names as text, in both languages.
func TestTeamBattlePage(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	control, _ := timecontrol.Parse("3+2")
	tour := &tournament.Tournament{GuildID: "g", ChannelID: "hall", Name: "Battle", Format: tournament.Arena, Duration: time.Hour,
		Size: 8, Control: control, StartsAt: time.Now(), CreatedAt: time.Now(), TeamTop: 1, HostTeam: "<i>Lions"}
	alice, bob, carol := record.Player{ID: "1", Name: "alice"}, record.Player{ID: "2", Name: "bob"}, record.Player{ID: "3", Name: "carol"}
	if err := f.store.CreateTournament(ctx, tour, alice); err != nil {
		t.Fatal(err)
	}
	if ok, err := f.store.InviteTeam(ctx, tour.ID, "g2", time.Now()); !ok || err != nil {
		t.Fatal(ok, err)
	}
	if ok, err := f.store.AcceptTeam(ctx, tour.ID, "g2", "den", "Tigers", time.Now()); !ok || err != nil {
		t.Fatal(ok, err)
	}
	tour.Status = tournament.Running
	if err := f.store.UpdateTournament(ctx, tour); err != nil {
		t.Fatal(err)
	}
	for _, e := range []struct {
		p    record.Player
		team string
	}{{alice, "g"}, {bob, "g2"}, {carol, "g"}} {
		if err := f.store.JoinTournament(ctx, tour.ID, e.p, e.team, 1500, time.Now()); err != nil {
			t.Fatal(err)
		}
	}
	if err := f.store.PairTournament(ctx, tour, []tournament.Pairing{{Game: tournament.Game{Round: 1, Black: "1", White: "2"}, Board: 1}}); err != nil {
		t.Fatal(err)
	}
	start, _ := game.NewPosition(8)
	now := time.Now()
	g := &record.Game{GuildID: "g", ChannelID: "thread", State: game.NewGame(start), Black: record.Human(alice),
		White: record.Human(bob), CreatedAt: now, UpdatedAt: now, TurnStartedAt: now, Control: control}
	if err := f.store.OpenPairingGame(ctx, tour.ID, 1, 1, g); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 6; i++ {
		f.play(g)
	}
	f.finish(g) // alice wins: 2 arena points for the Lions
	code, body := f.get(TournamentPath(tour.PublicID) + "?lang=en")
	if code != 200 {
		t.Fatalf("status %d", code)
	}
	for _, want := range []string{"Teams: each team&#39;s best 1 count", "<td>&lt;i&gt;Lions</td><td>2</td><td>alice 2</td>",
		"<td>Tigers</td><td>0</td><td>bob 0</td>"} {
		if !strings.Contains(body, want) {
			t.Errorf("the page lacks %q:\n%s", want, body)
		}
	}
	if _, body := f.get(TournamentPath(tour.PublicID) + "?lang=ja"); !strings.Contains(body, "チーム：各チーム上位1人の得点") {
		t.Error("no teams in Japanese")
	}
	if _, body := f.get(TournamentPath(f.newTournament().PublicID) + "?lang=en"); strings.Contains(body, "class=\"standings teams\"") {
		t.Error("a tournament that is no team battle shows teams")
	}
}
