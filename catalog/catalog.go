// Package catalog holds every word the bot says to people, in every language
// it speaks, and formats them for a reader: messages with named placeholders,
// plurals by each language's own rules (CLDR, through go-i18n), numbers and
// durations.
//
// Each language is one file, messages/LANG.toml, embedded. English is the
// reference: every key it has, every other language must have, with the same
// placeholders (the package's tests check both). A third language is one more
// file and one line in Supported's list.
package catalog

import (
	"embed"
	"fmt"
	"io/fs"
	"log/slog"
	"path"
	"strings"
	"sync"
	"time"

	"github.com/BurntSushi/toml"
	"github.com/nicksnyder/go-i18n/v2/i18n"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// Lang is a language the bot speaks, as a Discord locale code.
type Lang string

const (
	English  Lang = "en"
	Japanese Lang = "ja"
)

// supported lists the languages with a message file, English first.
var supported = []Lang{English, Japanese}

// Supported returns the languages the bot speaks, English first.
func Supported() []Lang { return append([]Lang(nil), supported...) }

// Match reads a locale (Discord's "ja", "en-US", "en-GB", a stored "ja", an
// Accept-Language tag) as one of the supported languages.
func Match(locale string) (Lang, bool) {
	base, _, _ := strings.Cut(strings.ToLower(strings.TrimSpace(locale)), "-")
	base, _, _ = strings.Cut(base, "_")
	for _, l := range supported {
		if string(l) == base {
			return l, true
		}
	}
	return "", false
}

// FromLocale is Match with English for anything unknown or empty.
func FromLocale(locale string) Lang {
	if l, ok := Match(locale); ok {
		return l
	}
	return English
}

// FromAcceptLanguage picks the supported language a browser's
// Accept-Language header likes best; English when it names none of them
// or cannot be read.
func FromAcceptLanguage(header string) Lang {
	tags, _, err := language.ParseAcceptLanguage(header)
	if err != nil {
		return English
	}
	for _, tag := range tags { // sorted by preference
		base, _ := tag.Base()
		if l, ok := Match(base.String()); ok {
			return l
		}
	}
	return English
}

//go:embed messages/*.toml
var files embed.FS

var (
	loadOnce sync.Once
	bundle   *i18n.Bundle
	loadErr  error
	printers sync.Map // Lang -> *Printer
)

func load() (*i18n.Bundle, error) {
	loadOnce.Do(func() {
		bundle = i18n.NewBundle(language.English)
		bundle.RegisterUnmarshalFunc("toml", toml.Unmarshal)
		for _, l := range supported {
			name := path.Join("messages", string(l)+".toml")
			data, err := fs.ReadFile(files, name)
			if err == nil {
				_, err = bundle.ParseMessageFileBytes(data, name)
			}
			if err != nil {
				loadErr = fmt.Errorf("catalog: reading %s: %w", name, err)
				return
			}
		}
	})
	return bundle, loadErr
}

// templates writes every message's template (placeholders.go).
var templates = &placeholderParser{}

// Printer writes messages in one language.
type Printer struct {
	lang    Lang
	loc     *i18n.Localizer
	numbers *message.Printer
	// plain holds the messages written without placeholders' values, id
	// -> text: the same every time, and a board's labels ask for dozens
	// a move (the template engine was 7% of a move's CPU).
	plain sync.Map
}

// For returns the printer of a language; an unsupported one gets English.
func For(l Lang) *Printer {
	if _, ok := Match(string(l)); !ok {
		l = English
	}
	if p, ok := printers.Load(l); ok {
		return p.(*Printer)
	}
	b, err := load()
	if err != nil {
		// The embedded files are checked by the tests; a broken build
		// must not start.
		panic(err)
	}
	p := &Printer{lang: l, loc: i18n.NewLocalizer(b, string(l), string(English)),
		numbers: message.NewPrinter(language.Make(string(l)))}
	printers.Store(l, p)
	return p
}

// Lang is the printer's language.
func (p *Printer) Lang() Lang { return p.lang }

// T writes the message id with its placeholders given as name, value
// pairs: T("challenge.sent", "Name", n, "Expiry", e). A "Count" value picks
// the plural form. A message missing in this language falls back to
// English; one missing everywhere shows as its id (and is logged), which
// the tests forbid.
func (p *Printer) T(id string, pairs ...any) string {
	if len(pairs) == 0 {
		if s, ok := p.plain.Load(id); ok {
			return s.(string)
		}
	}
	var data map[string]any
	if len(pairs) > 0 {
		data = make(map[string]any, len(pairs)/2)
		for i := 0; i+1 < len(pairs); i += 2 {
			k, _ := pairs[i].(string)
			data[k] = pairs[i+1]
		}
	}
	cfg := &i18n.LocalizeConfig{MessageID: id, TemplateData: data, TemplateParser: templates}
	if n, ok := data["Count"]; ok {
		cfg.PluralCount = n
	}
	s, err := p.loc.Localize(cfg)
	if err != nil {
		slog.Error("catalog: a message could not be written", "id", id, "lang", p.lang, "err", err)
		if s == "" {
			return "⟦" + id + "⟧"
		}
		return s
	}
	if len(pairs) == 0 {
		p.plain.Store(id, s)
	}
	return s
}

// Int writes a whole number in the language's way (digit grouping).
func (p *Printer) Int(n int) string { return p.numbers.Sprint(n) }

// Duration writes a span for people, rounded up to its two largest units:
// "10 minutes", "1 hour 30 minutes", "45 seconds" ("1時間30分").
func (p *Printer) Duration(d time.Duration) string {
	units := []struct {
		size time.Duration
		id   string
	}{{24 * time.Hour, "unit.day"}, {time.Hour, "unit.hour"}, {time.Minute, "unit.minute"}, {time.Second, "unit.second"}}
	if d < 0 {
		d = 0
	}
	for i, u := range units {
		if d < u.size && i < len(units)-1 {
			continue
		}
		if i == len(units)-1 {
			return p.T(u.id, "Count", int((d+u.size-1)/u.size))
		}
		small := units[i+1].size
		d = (d + small - 1) / small * small // round up to the smaller unit
		out := p.T(u.id, "Count", int(d/u.size))
		if rest := d % u.size / small; rest > 0 {
			out = p.T("unit.pair", "Big", out, "Small", p.T(units[i+1].id, "Count", int(rest)))
		}
		return out
	}
	return p.T("unit.second", "Count", 0)
}
