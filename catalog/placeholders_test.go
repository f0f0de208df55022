package catalog

import (
	"fmt"
	"strings"
	"testing"

	i18ntemplate "github.com/nicksnyder/go-i18n/v2/i18n/template"
)

// stringer prints through its method, as text/template prints it.
type stringer struct{}

func (stringer) String() string { return "via String" }

// Every form of every message in every language writes what go-i18n's own
// parser writes, with strings, whole numbers, other values and values
// missing.
func TestPlaceholdersWriteWhatTextTemplateWrites(t *testing.T) {
	reference := &i18ntemplate.TextParser{}
	fast := 0
	for _, l := range Supported() {
		for id, forms := range messages(t, l) {
			for form, src := range forms {
				names := fields(t, id, src)
				valueSets := map[string]map[string]any{"strings": {}, "numbers": {}, "mixed": {}, "missing": {}, "nil data": nil}
				for i, n := range names {
					valueSets["strings"][n] = "<b>" + n + "</b> & 'x'"
					valueSets["numbers"][n] = -1234567 * (i + 1)
					valueSets["mixed"][n] = []any{int64(42), 2.5, stringer{}, true, "s"}[i%5]
					if i > 0 {
						valueSets["missing"][n] = "here"
					}
				}
				want, err := reference.Parse(src, "", "")
				if err != nil {
					t.Fatalf("%s %s %s: %v", l, id, form, err)
				}
				got, err := templates.Parse(src, "", "")
				if err != nil {
					t.Fatalf("%s %s %s: %v", l, id, form, err)
				}
				if _, ok := got.(*fieldTemplate); ok {
					fast++
				}
				for set, values := range valueSets {
					var data any
					if values != nil {
						data = values
					}
					w, werr := want.Execute(data)
					g, gerr := got.Execute(data)
					if w != g || (werr == nil) != (gerr == nil) {
						t.Errorf("%s %s (%s) with %s: %q (%v), want %q (%v)", l, id, form, set, g, gerr, w, werr)
					}
				}
			}
		}
	}
	if fast == 0 {
		t.Fatal("no template was kept as text and fields")
	}
	t.Logf("%d templates kept as text and fields", fast)
}

// Templates that are more than placeholders go through text/template.
func TestPlaceholdersLeaveTheRestToTextTemplate(t *testing.T) {
	for _, src := range []string{`{{if .A}}yes{{end}}`, `{{.A.B}}`, `{{printf "%d" .A}}`, `{{$x := .A}}{{$x}}`, `{{.}}`, `{{.A | len}}`} {
		got, err := templates.Parse(src, "", "")
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		if _, ok := got.(*fieldTemplate); ok {
			t.Errorf("%s kept as text and fields", src)
		}
	}
	got, err := templates.Parse("[[.A]] and {{.B}}", "[[", "]]")
	if err != nil {
		t.Fatal(err)
	}
	if s, err := got.Execute(map[string]any{"A": 7}); err != nil || s != "7 and {{.B}}" {
		t.Fatalf("own delimiters: %q, %v", s, err)
	}
	if s := fmt.Sprint(strings.Count(For(English).T("play.played", "Side", "X", "Square", "d3"), "d3")); s != "1" {
		t.Fatalf("play.played through the printer: %s", s)
	}
}
