package bot

import (
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode/utf16"

	"othello-bot/catalog"
	"othello-bot/game"
	"othello-bot/record"
	"othello-bot/timecontrol"
)

// longName is a 32-character name (Discord's longest) made of the
// characters escaping doubles.
var longName = strings.Repeat("*_|", 11)[:32]

func limitService() *Service {
	// Pages and the Activity on: a game message's every button is there.
	page := func(id string) string { return "https://othello.example.com/g/" + id }
	return &Service{cfg: Config{MaxEmojiSize: 10, MoveTimeout: 24 * time.Hour, ChallengeExpiry: 10 * time.Minute, PageURL: page, Activity: true},
		log: slog.New(slog.NewTextHandler(io.Discard, nil)), clock: &fakeClock{now: time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)}}
}

func checkLimits(t *testing.T, what string, m *Message) {
	t.Helper()
	if errs := m.LimitErrors(); len(errs) > 0 {
		t.Errorf("%s breaks Discord's limits: %v", what, errs)
	}
}

// longestControl is the widest time control a player may type.
var longestControl = timecontrol.Control{Base: timecontrol.MaxMinutes * time.Minute, Increment: timecontrol.MaxIncrement * time.Second}

// randomGame plays a whole game of the given size between two long-named
// members, returning it at every ply.
func randomGame(t *testing.T, size int, visit func(g *record.Game)) *record.Game {
	start, _ := game.NewPosition(size)
	a := record.Player{ID: strings.Repeat("1", 19), Name: longName}
	b := record.Player{ID: strings.Repeat("2", 19), Name: "@everyone <@&1> " + longName[:16]}
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	// The longest control a player may type, on a running clock: every
	// clock field at its widest.
	g := &record.Game{ID: 999999, GuildID: strings.Repeat("3", 19), PublicID: strings.Repeat("f", 32), Black: record.Human(a), White: record.Human(b), State: game.NewGame(start), Status: record.Active,
		Deadline: now.Add(3 * time.Hour), Version: 1, Control: longestControl, Left: [2]time.Duration{3 * time.Hour, 3 * time.Hour},
		TurnStartedAt: now}
	rng := rand.New(rand.NewPCG(uint64(size), 1))
	for !g.State.Over() {
		visit(g)
		moves := g.Position().LegalMoves()
		if _, err := g.State.Play(moves[rng.IntN(len(moves))]); err != nil {
			t.Fatal(err)
		}
		g.Version++
	}
	return g
}

// Game messages stay within every limit at the largest emoji board and
// the largest board, with the longest names, from the first move to every
// kind of ending.
func TestGameMessagesWithinLimits(t *testing.T) {
	s := limitService()
	for _, lang := range catalog.Supported() {
		tr := catalog.For(lang)
		for _, size := range []int{10, 26} {
			gameWithinLimits(t, s, tr, size)
		}
	}
}

func gameWithinLimits(t *testing.T, s *Service, tr *catalog.Printer, size int) {
	n := 0
	g := randomGame(t, size, func(g *record.Game) {
		if n++; n%25 == 1 || size == 10 {
			checkLimits(t, fmt.Sprintf("%s: %dx%d game at ply %d", tr.Lang(), size, size, len(g.Plies())),
				s.GameMessage(tr, g, []string{tr.T("play.played", "Side", SideLabel(tr, g, game.Black), "Square", "z26"),
					tr.T("play.passes", "Side", SideLabel(tr, g, game.White))}))
		}
	})
	b, w := g.Position().Count()
	for _, reason := range []record.EndReason{record.EndNormal, record.EndResign, record.EndTimeout, record.EndAbort, record.EndAbandoned, record.EndModerator} {
		g.Status = record.Finished
		g.Result = &record.Result{BlackDiscs: b, WhiteDiscs: w, Winner: g.Position().Winner(), Reason: reason}
		m := s.GameMessage(tr, g, []string{tr.T("resign.resigned", "Name", name(g.Black.Player)), ResultLine(tr, g)})
		checkLimits(t, fmt.Sprintf("%s: %dx%d game ended by %s", tr.Lang(), size, size, reason), m)
		if size == 26 && (len(m.Files) != 2 || !strings.HasSuffix(m.Files[1].Name, "-transcript.txt") ||
			!strings.Contains(string(m.Files[1].Data), game.FormatTranscript(game.MovesOf(g.Plies()), 26))) {
			t.Errorf("26x26: the whole transcript is not attached: %v", m.Files)
		}
	}
}

var mentionLike = regexp.MustCompile(`(^|[^\\])<[@#][!&]?\d+>`)

// Names are escaped: markdown and mentions in a name change nothing.
func TestNamesAreEscaped(t *testing.T) {
	for _, n := range []string{"**bold**", "`code`", "||spoiler||", "@everyone", "<@123>", "<@&1>", "<#5>", "a_b_", "> quote", "~~s~~",
		"line\nbreak", ":smile:", "[link](http://x)"} {
		got := Escape(n)
		if mentionLike.MatchString(got) {
			t.Errorf("escape(%q) = %q still reads as a mention", n, got)
		}
		for _, bad := range []string{"**", "``", "||", "~~", "\n", "](", "@everyone"} {
			if strings.Contains(got, bad) {
				t.Errorf("escape(%q) = %q still holds %q", n, got, bad)
			}
		}
	}
}

// Challenge messages, help and the move menu stay within limits with the
// longest names and the most legal moves.
func TestOtherMessagesWithinLimits(t *testing.T) {
	s := limitService()
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	a := record.Player{ID: strings.Repeat("1", 19), Name: longName}
	b := record.Player{ID: strings.Repeat("2", 19), Name: longName}
	for _, status := range []record.ChallengeStatus{record.ChallengePending, record.ChallengeExpired, record.ChallengeDeclined, record.ChallengeCanceled} {
		c := &record.Challenge{ID: 1 << 40, Challenger: a, Opponent: b, Size: 26, Rated: true, Status: status, CreatedAt: now, ExpiresAt: now.Add(time.Hour),
			Control: longestControl}
		for _, lang := range catalog.Supported() {
			checkLimits(t, string(lang)+": challenge "+string(status), s.challengeMessage(catalog.For(lang), c, 123456789))
		}
	}
	for _, lang := range catalog.Supported() {
		checkLimits(t, string(lang)+": help", help(catalog.For(lang)).Message)
	}
	// The most legal moves: the menu holds 25 and says so.
	most := 0
	var busiest *record.Game
	randomGame(t, 26, func(g *record.Game) {
		if n := len(g.Position().LegalMoves()); n > most {
			state, err := game.ReplayPlies(g.State.Start(), g.Plies())
			if err != nil {
				t.Fatal(err)
			}
			most, busiest = n, &record.Game{ID: g.ID, Black: g.Black, White: g.White, State: state, Status: record.Active, Version: g.Version}
		}
	})
	for _, lang := range catalog.Supported() {
		m := s.GameMessage(catalog.For(lang), busiest, nil)
		checkLimits(t, fmt.Sprintf("%s: menu of %d moves", lang, most), m)
		if most <= MaxMenuOptions || len(m.Components[0].Menu.Options) != MaxMenuOptions {
			t.Errorf("%d legal moves, %d in the menu", most, len(m.Components[0].Menu.Options))
		}
	}
}

// The last guard cuts what is over a limit, to the limit.
func TestFitCutsToTheLimits(t *testing.T) {
	m := &Message{Content: strings.Repeat("x", 3000), Embed: &Embed{Title: strings.Repeat("t", 300),
		Description: strings.Repeat("🟩", 3000), Footer: strings.Repeat("f", 3000)}}
	for i := 0; i < 30; i++ {
		m.Embed.Fields = append(m.Embed.Fields, Field{Name: "n", Value: strings.Repeat("v", 2000)})
	}
	if errs := m.fit(); len(errs) == 0 {
		t.Fatal("nothing reported")
	}
	if errs := m.LimitErrors(); len(errs) > 0 {
		t.Fatalf("after fit: %v", errs)
	}
}

// "Watch in Discord" sits beside the Watch link on a server's game
// messages, running and finished, only where the app has the Activity;
// a game outside servers (a user's install) has the link alone.
func TestWatchInDiscordOnlyWithTheActivity(t *testing.T) {
	buttons := func(s *Service, g *record.Game) (link, here string) {
		for _, row := range s.GameMessage(catalog.For(catalog.English), g, nil).Components {
			for _, b := range row.Buttons {
				switch {
				case b.URL != "":
					link = b.URL
				case strings.HasPrefix(b.CustomID, "watchhere:"):
					here = b.CustomID
				}
			}
		}
		return
	}
	s := limitService()
	g := randomGame(t, 8, func(g *record.Game) {
		if len(g.Plies()) != 10 {
			return
		}
		if link, here := buttons(s, g); link != "https://othello.example.com/g/"+g.PublicID || here != "watchhere:999999" {
			t.Errorf("a running game's buttons: link %q, %q", link, here)
		}
	})
	g.Status, g.Result = record.Finished, &record.Result{Reason: record.EndNormal}
	if _, here := buttons(s, g); here != "watchhere:999999" {
		t.Errorf("a finished game has no Watch in Discord: %q", here)
	}
	s.cfg.Activity = false
	if link, here := buttons(s, g); link == "" || here != "" {
		t.Errorf("without the Activity: link %q, %q", link, here)
	}
	s.cfg.Activity, g.GuildID = true, ""
	if link, here := buttons(s, g); link == "" || here != "" {
		t.Errorf("outside servers: link %q, %q", link, here)
	}
}

// JoinLines keeps whole lines within the limit and counts what it left
// out in a form with no words (it serves every language).
func TestJoinLinesCountsWhatItLeavesOut(t *testing.T) {
	lines := []string{"aaaa", "bbbb", "cccc", "dddd"}
	if got := JoinLines(lines, 100); got != "aaaa\nbbbb\ncccc\ndddd" {
		t.Errorf("all fit: %q", got)
	}
	got := JoinLines(lines, 12)
	if got != "aaaa\n… +3" || Length(got) > 12 {
		t.Errorf("cut: %q", got)
	}
	if got := JoinLines(nil, 10); got != "" {
		t.Errorf("none: %q", got)
	}
}

// Length counts as Discord does, in UTF-16 units, whatever the text:
// emoji, Japanese, invalid bytes.
func FuzzLength(f *testing.F) {
	for _, s := range []string{"", "abc", "⚫🇦1️⃣", "オセロ", "\xed\xa0\x80", "\xff", "𝄞x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := Length(s), len(utf16.Encode([]rune(s))); got != want {
			t.Fatalf("Length(%q) = %d, want %d", s, got, want)
		}
	})
}
