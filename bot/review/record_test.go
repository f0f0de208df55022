package review

import (
	"strings"
	"testing"

	"othello-bot/catalog"
	"othello-bot/game"
	"othello-bot/notation"
	"othello-bot/record"
)

// Every message of every kind of analysis is written in every language:
// their keys are built from the subject's kind, out of the catalog
// test's sight.
func TestEverySubjectIsWorded(t *testing.T) {
	start, _ := game.NewPosition(8)
	state, err := game.Replay(start, []game.Square{{Col: 5, Row: 4}})
	if err != nil {
		t.Fatal(err)
	}
	g := &record.Game{ID: 7, Black: record.Human(record.Player{ID: "1", Name: "ann"}), White: record.Bot(5), State: state}
	rec, err := notation.Read(`[Black "a *bold* name that is longer than any Discord name"] [White "<@123>"] f5d6c3`)
	if err != nil {
		t.Fatal(err)
	}
	pos, err := notation.Read(start.Board64() + " X")
	if err != nil {
		t.Fatal(err)
	}
	subjects := map[string]*subject{"game": gameSubject(g), "record": recordSubject(rec), "position": recordSubject(pos)}
	if subjects["position"].kind != ofPosition || subjects["record"].kind != ofRecord {
		t.Fatal("a record's kind is wrong")
	}
	for _, l := range catalog.Supported() {
		p := catalog.For(l)
		for name, s := range subjects {
			for _, suffix := range []string{"already", "started", "working", "restarted", "failed", "title"} {
				if text := s.say(p, suffix); strings.Contains(text, "⟦") || strings.Contains(text, "<no value>") {
					t.Errorf("%s %s %s: %q", l, name, suffix, text)
				}
			}
			for _, n := range []int{1, 2} {
				for _, text := range []string{s.say(p, "queued", "Count", n), s.say(p, "progress", "Done", 1, "Count", n)} {
					if strings.Contains(text, "⟦") || strings.Contains(text, "<no value>") {
						t.Errorf("%s %s: %q", l, name, text)
					}
				}
			}
		}
		// A record's names are clipped to a Discord name's length and
		// escaped: no markdown, no mention.
		title := subjects["record"].say(p, "title")
		if strings.Contains(title, "*bold*") || strings.Contains(title, "<@123>") || strings.Contains(title, "longer than any") {
			t.Errorf("%s: a record's names shown raw: %q", l, title)
		}
	}
}

// Every refusal of a record is worded in every language, with what it
// names.
func TestRecordRefusalsAreWorded(t *testing.T) {
	for _, text := range []string{"", "hello", "f5d6c3c3", "f5 d6 Nf3", "f5d6z99", strings.Repeat("-", 63) + " X",
		"(;GM[Chess];)", strings.Repeat("f5", notation.MaxLen)} {
		_, err := notation.Read(text)
		e, ok := notation.ErrorOf(err)
		if !ok {
			t.Fatalf("%.20q read", text)
		}
		for _, l := range catalog.Supported() {
			msg := refusal(catalog.For(l), e)
			if strings.Contains(msg, "⟦") || strings.Contains(msg, "<no value>") {
				t.Errorf("%s %s: %q", l, e.Kind, msg)
			}
			if e.Move > 0 && !strings.Contains(msg, e.Text) {
				t.Errorf("%s %s: %q does not name %q", l, e.Kind, msg, e.Text)
			}
		}
	}
}
