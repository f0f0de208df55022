package local

// This file prints what the bot shows, as Discord would show it, and keeps
// what was shown for click and select.

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"othello-bot/bot"
	"othello-bot/catalog"
)

func (a *Adapter) find(user, channel string, match func(*shown) bool) *shown {
	a.mu.Lock()
	defer a.mu.Unlock()
	for i := len(a.messages) - 1; i >= 0; i-- {
		m := a.messages[i]
		if m.channel == channel && (m.visible == "" || m.visible == user) && match(m) {
			return m
		}
	}
	return nil
}

func (a *Adapter) note(format string, args ...any) {
	a.mu.Lock()
	defer a.mu.Unlock()
	fmt.Fprintf(a.out, format+"\n", args...)
}

func (a *Adapter) show(m bot.Message, user, channel string) *shown {
	a.mu.Lock()
	defer a.mu.Unlock()
	if t := a.threads[channel]; t != nil && t.archived {
		t.archived = false // a message in an archived thread reopens it, as on Discord
	}
	s := &shown{id: len(a.messages) + 1, msg: m, channel: channel}
	if m.Ephemeral {
		s.visible = user
	}
	a.messages = append(a.messages, s)
	a.print(s, false)
	s.msg.Files = dropData(s.msg.Files)
	return s
}

// dropData forgets pictures once they are saved: kept, they would pile up
// (tens of MB after a long session of large boards).
func dropData(files []bot.File) []bot.File {
	out := make([]bot.File, len(files))
	for i, f := range files {
		out[i] = bot.File{Name: f.Name}
	}
	return out
}

func (a *Adapter) replace(s *shown, m bot.Message, user string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	s.msg = m
	if m.Ephemeral {
		s.visible = user
	}
	a.print(s, true)
	s.msg.Files = dropData(s.msg.Files)
}

// grant gives a member permissions, as a server's roles would, and says
// so with the catalog message done (or usage, for a line without a valid
// name).
func (a *Adapter) grant(user string, perms int64, done, usage string) {
	if !validName(user) {
		a.note("%s", a.t().T(usage))
		return
	}
	a.mu.Lock()
	if a.granted == nil {
		a.granted = map[string]int64{}
	}
	a.granted[user] |= perms
	a.mu.Unlock()
	a.note("%s", a.t().T(done, "User", user))
}

// t writes the terminal's own lines, in its language.
func (a *Adapter) t() *catalog.Printer { return catalog.For(catalog.FromLocale(a.Locale)) }

func isQuit(line string) bool {
	t := strings.ToLower(strings.TrimSpace(line))
	return t == "quit" || t == "exit"
}

// print writes a message as Discord would show it, markdown bold removed.
func (a *Adapter) print(s *shown, edited bool) {
	var b strings.Builder
	tr := a.t()
	head := tr.T("local.message", "N", s.id)
	if t := a.threads[s.channel]; t != nil {
		head += tr.T("local.in_thread", "Thread", s.channel, "Name", t.name)
	} else if s.channel != ChannelID {
		head += tr.T("local.in_channel", "Channel", s.channel)
	}
	if edited {
		head += tr.T("local.edited")
	}
	if s.visible != "" {
		head += tr.T("local.only_visible", "User", s.visible)
	}
	b.WriteString("--- " + head + " ---\n")
	m := s.msg
	if m.Content != "" {
		b.WriteString(m.Content + "\n")
	}
	if e := m.Embed; e != nil {
		if e.Title != "" {
			b.WriteString("== " + e.Title + " ==\n")
		}
		if e.URL != "" {
			b.WriteString(tr.T("local.watch", "URL", e.URL) + "\n")
		}
		if e.Description != "" {
			b.WriteString(e.Description + "\n")
		}
		for _, f := range e.Fields {
			b.WriteString(f.Name + ": " + f.Value + "\n")
		}
		if e.Footer != "" {
			b.WriteString(e.Footer + "\n")
		}
	}
	for _, row := range m.Components {
		if row.Menu != nil {
			vals := make([]string, len(row.Menu.Options))
			for i, o := range row.Menu.Options {
				vals[i] = o.Value
			}
			b.WriteString("<select: " + strings.Join(vals, " | ") + ">\n")
		}
		var btns []string
		for _, bt := range row.Buttons {
			if bt.URL != "" {
				btns = append(btns, "["+bt.Label+" ↗ "+bt.URL+"]")
				continue
			}
			btns = append(btns, "["+bt.Label+"]")
		}
		if len(btns) > 0 {
			b.WriteString(strings.Join(btns, " ") + "\n")
		}
	}
	for _, f := range m.Files {
		b.WriteString(tr.T("local.attachment", "Path", a.save(f)) + "\n")
	}
	fmt.Fprint(a.out, a.plain(b.String()))
}

var (
	timestampRE = regexp.MustCompile(`<t:(-?\d+):([tTdDfFR])>`)
	// An escaped name's "<@123>" has a zero-width space after its @ and
	// an escaped ">", so it is no mention and is shown as typed.
	mentionRE = regexp.MustCompile(`<@!?([^>\\\x{200b}]+)>`)
	channelRE = regexp.MustCompile(`<#([^>]+)>`)
	linkRE    = regexp.MustCompile(`\[([^\]]+)\]\([^)]+\)`)
	escapedRE = regexp.MustCompile(`\\([^0-9A-Za-z\s])`)
)

// plain turns Discord's markup into what a reader sees: bold marks
// dropped, escapes undone, mentions as @name, timestamps in words.
func (a *Adapter) plain(s string) string {
	s = strings.ReplaceAll(s, "**", "")
	var b strings.Builder
	last := 0
	for _, m := range timestampRE.FindAllStringSubmatchIndex(s, -1) {
		b.WriteString(s[last:m[0]])
		last = m[1]
		unix, _ := strconv.ParseInt(s[m[2]:m[3]], 10, 64)
		t := time.Unix(unix, 0).UTC()
		// Discord writes a timestamp in the reader's language; here it
		// reads in its sentence's, so a Japanese sentence is not broken
		// by English words on an English terminal.
		tr := a.t()
		if japaneseAround(s, m[0], m[1]) {
			tr = catalog.For(catalog.Japanese)
		}
		if s[m[4]:m[5]] == "R" {
			b.WriteString(relative(tr, t.Sub(a.Clock.Now())))
		} else {
			b.WriteString(t.Format(tr.T("local.date_layout")))
		}
	}
	s = b.String() + s[last:]
	s = mentionRE.ReplaceAllString(s, "@$1")
	s = channelRE.ReplaceAllString(s, "#$1")
	s = linkRE.ReplaceAllString(s, "$1") // the terminal has nowhere to link to
	s = escapedRE.ReplaceAllString(s, "$1")
	return strings.ReplaceAll(s, "\u200b", "")
}

// japaneseAround says whether the text right around s[from:to] is
// Japanese: the character after it, or else the one before, is kana, a
// kanji or full-width punctuation.
func japaneseAround(s string, from, to int) bool {
	r, _ := utf8.DecodeRuneInString(s[to:])
	if r == utf8.RuneError || unicode.IsSpace(r) {
		r, _ = utf8.DecodeLastRuneInString(s[:from])
	}
	return unicode.In(r, unicode.Hiragana, unicode.Katakana, unicode.Han) || r >= 0x3000 && r <= 0x303f || r >= 0xff00 && r <= 0xffef
}

// relative says how far off a time is, as Discord's relative timestamps
// do in the reader's language: "in 10 minutes", "3 hours ago", "10分後".
func relative(tr *catalog.Printer, d time.Duration) string {
	past := d < 0
	if past {
		d = -d
	}
	if d < time.Second {
		return tr.T("local.just_now") // as Discord says it
	}
	n, unit := int((d.Seconds() + 0.5)), "unit.second"
	for _, u := range []struct {
		size time.Duration
		id   string
	}{{24 * time.Hour, "unit.day"}, {time.Hour, "unit.hour"}, {time.Minute, "unit.minute"}} {
		if d >= u.size {
			n, unit = int((d+u.size/2)/u.size), u.id
			break
		}
	}
	span := tr.T(unit, "Count", n)
	if past {
		return tr.T("local.ago", "Span", span)
	}
	return tr.T("local.in", "Span", span)
}

// save writes an attachment to ImageDir and returns its path (or why not).
func (a *Adapter) save(f bot.File) string {
	path := filepath.Join(a.ImageDir, filepath.Base(f.Name))
	if err := os.MkdirAll(a.ImageDir, 0o755); err != nil {
		return a.t().T("local.not_saved", "File", f.Name, "Err", err.Error())
	}
	if err := os.WriteFile(path, f.Data, 0o644); err != nil {
		return a.t().T("local.not_saved", "File", f.Name, "Err", err.Error())
	}
	return path
}
