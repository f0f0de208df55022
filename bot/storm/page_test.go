package storm

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"othello-bot/bot"
	"othello-bot/catalog"
	"othello-bot/puzzle"
	"othello-bot/record"
	"othello-bot/storm"
	"othello-bot/web"
)

// pageLinks are real page links (signed by web.Sessions) under a long
// public address, as the chat would give them.
type pageLinks struct{ s *web.Sessions }

const longBase = "https://othello-bot.a-rather-long-host-name-for-a-community-server.example.org"

func (l pageLinks) RunLink(id int64, p record.Player) string {
	return longBase + l.s.RunLoginPath(id, p)
}
func (l pageLinks) RaceLink(id int64) string { return longBase + l.s.RacePath(id) }

func newPageLinks(t *testing.T) pageLinks {
	s, err := web.NewSessions(nil)
	if err != nil {
		t.Fatal(err)
	}
	return pageLinks{s}
}

// A run's link to its page fits a link button at the largest: the
// longest name of characters a token spells out at length, the largest
// run number, a long public address; so does a race's.
func TestPageLinksWithinLimits(t *testing.T) {
	ctx := context.Background()
	f := newFakeStore(t)
	s := New(fakeCore{t0}, f)
	s.LinkPages(newPageLinks(t))
	worst := record.Player{ID: "18446744073709551615", Name: strings.Repeat("<", 32)}
	for _, l := range catalog.Supported() {
		p := catalog.For(l)
		r := storm.New(storm.Storm, worst, "g", []int64{1, 2}, t0)
		r.ID = 1<<63 - 1
		m, err := s.runMessage(ctx, p, r, nil)
		if err != nil {
			t.Fatal(err)
		}
		check(t, "a run with its page's link", m)
		if len(m.Components) != 2 || m.Components[1].Buttons[0].URL == "" {
			t.Fatalf("no link to the run's page: %+v", m.Components)
		}
		race := storm.Race{ID: 1<<63 - 1, Host: worst, Status: storm.Racing, End: t0.Add(storm.RaceDuration)}
		track := trackMessage(p, race, nil, s.raceLink(race.ID))
		check(t, "a race with its page's link", &track)
	}
}

// The page plays a run by the chat's rules, through the same store: right
// answers on the page, the fifth earning the combo's time; a miss costs
// 10 s; an answer to a step the run has left, or to another's run, is
// refused and moves nothing; the chat's menu for a step the page answered
// is refused too. What the page is sent never holds the answer.
func TestRunOnThePage(t *testing.T) {
	ctx := context.Background()
	f := newFakeStore(t)
	s := New(fakeCore{t0}, f)
	en := catalog.For(catalog.English)
	alice, bob := record.Player{ID: "1", Name: "alice"}, record.Player{ID: "2", Name: "bob"}
	v, err := s.StartRun(ctx, en, alice, "g", "storm")
	if err != nil || v.ID == 0 || v.Over || v.LeftMs != storm.Duration.Milliseconds() || len(v.Legal) == 0 || len(v.Cells) != 64 {
		t.Fatalf("a run started on the page: %+v %v", v, err)
	}
	if bad, err := s.StartRun(ctx, en, alice, "g", "blitz"); err != nil || bad.Refused == "" || bad.ID != 0 {
		t.Fatalf("an unknown mode: %+v %v", bad, err)
	}
	if _, err := s.ShowRun(ctx, en, bob, v.ID); !errors.Is(err, web.ErrNotYours) {
		t.Fatalf("bob sees alice's run: %v", err)
	}
	if _, err := s.AnswerRun(ctx, en, bob, v.ID, 0, 0, "a1"); !errors.Is(err, web.ErrNotYours) {
		t.Fatalf("bob answers alice's run: %v", err)
	}
	for v.Score < storm.ComboStep {
		r, _ := f.Run(ctx, v.ID)
		rec, _ := f.Puzzle(ctx, r.Puzzle())
		right := rec.Line[r.Step]
		sent, _ := json.Marshal(v)
		if strings.Contains(string(sent), `"`+right.String()+`"`) {
			t.Fatalf("the page is sent the answer %s: %s", right, sent)
		}
		if !slices.Contains(v.Legal, right.Row*8+right.Col) {
			t.Fatalf("the right move %s is not offered: %v", right, v.Legal)
		}
		if v, err = s.AnswerRun(ctx, en, alice, v.ID, r.Index, r.Step, right.String()); err != nil || v.Refused != "" {
			t.Fatalf("a right answer: %+v %v", v, err)
		}
	}
	if v.LeftMs != (storm.Duration+3*time.Second).Milliseconds() || !strings.Contains(strings.Join(v.Notes, " "), "+3 s") {
		t.Fatalf("after five right: clock %d ms, notes %q", v.LeftMs, v.Notes)
	}
	r, _ := f.Run(ctx, v.ID)
	stale, err := s.AnswerRun(ctx, en, alice, v.ID, r.Index-1, 0, "a1")
	if err != nil || stale.Refused == "" || stale.Index != r.Index || stale.Score != r.Solved {
		t.Fatalf("a stale answer: %+v %v", stale, err)
	}
	rec, _ := f.Puzzle(ctx, r.Puzzle())
	pos, _ := rec.Position(r.Step)
	wrong := ""
	for _, m := range pos.LegalMoves() {
		if verdict, _, _ := rec.Answer(r.Step, m); verdict == puzzle.Wrong {
			wrong = m.String()
			break
		}
	}
	if wrong == "" {
		t.Skip("the sixth puzzle has no wrong move")
	}
	if v, err = s.AnswerRun(ctx, en, alice, v.ID, r.Index, r.Step, wrong); err != nil || v.Misses != 1 || v.Combo != 0 ||
		v.LeftMs != (storm.Duration+3*time.Second-storm.MissPenalty).Milliseconds() {
		t.Fatalf("a miss: %+v %v", v, err)
	}
	// The chat's menu still on the sixth puzzle: refused, nothing moved.
	menu, err := s.answer(ctx, bot.Request{Kind: bot.Select, CustomID: "storm:1:5:0", Values: []string{rec.Line[r.Step].String()}, User: alice})
	if err != nil || menu.Update || menu.Message == nil || !strings.Contains(menu.Message.Content, "answered this already") {
		t.Fatalf("the chat's stale menu: %+v %v", menu.Message, err)
	}
	if after, _ := f.Run(ctx, v.ID); after.Index != v.Index || after.Misses != 1 {
		t.Fatalf("the stale menu moved the run: %+v", after)
	}
}

// Once the clock has run out the page shows the result and offers
// another run of the same mode; a streak has no clock and ends at its
// miss.
func TestRunOverOnThePage(t *testing.T) {
	ctx := context.Background()
	f := newFakeStore(t)
	core := &fakeCore{t0}
	s := New(core, f)
	en := catalog.For(catalog.English)
	alice := record.Player{ID: "1", Name: "alice"}
	v, err := s.StartRun(ctx, en, alice, "", "storm")
	if err != nil {
		t.Fatal(err)
	}
	s.Core = fakeCore{t0.Add(storm.Duration)}
	over, err := s.ShowRun(ctx, en, alice, v.ID)
	if err != nil || !over.Over || over.Again != "storm" || over.LeftMs != 0 || !strings.Contains(strings.Join(over.Result, "\n"), "Score: 0") {
		t.Fatalf("a run whose clock ran out: %+v %v", over, err)
	}
	if strings.Contains(strings.Join(over.Result, "\n"), "**") {
		t.Errorf("Discord's bold marks on the page: %q", over.Result)
	}
	late, err := s.AnswerRun(ctx, en, alice, v.ID, 0, 0, "a1")
	if err != nil || !late.Over {
		t.Fatalf("an answer after the clock: %+v %v", late, err)
	}
	s.Core = fakeCore{t0}
	st, err := s.StartRun(ctx, en, alice, "", "streak")
	if err != nil || st.LeftMs != -1 || st.Mode != "streak" {
		t.Fatalf("a streak: %+v %v", st, err)
	}
}
