package bot

// This file is Discord's limits on messages: checked, and enforced as a
// last guard.

import (
	"fmt"
	"strings"
	"unicode/utf16"
)

// Discord's limits on what a message may hold
// (https://discord.com/developers/docs/resources/message and
// .../interactions/message-components). Lengths are counted in UTF-16
// code units, as Discord's own clients count them, which is never less
// than the count of characters.
const (
	MaxContent       = 2000
	MaxEmbedTitle    = 256
	MaxDescription   = 4096
	MaxFields        = 25
	MaxFieldName     = 256
	MaxFieldValue    = 1024
	MaxFooter        = 2048
	MaxEmbedTotal    = 6000
	MaxRows          = 5
	MaxButtonsPerRow = 5
	MaxCustomID      = 100
	MaxButtonLabel   = 80
	MaxButtonURL     = 512 // a link button's url (Discord's button object)
	MaxMenuOptions   = 25
	MaxOptionLabel   = 100
	MaxOptionValue   = 100
	MaxPlaceholder   = 150
	MaxChoices       = 25 // autocomplete suggestions
	MaxChoiceName    = 100
	MaxFileSize      = 10 << 20
)

// Length counts a text as Discord does.
func Length(s string) int {
	n := 0
	for _, r := range s { // counted, not encoded: every message is measured, some twice
		n += max(1, utf16.RuneLen(r)) // an invalid byte is one U+FFFD
	}
	return n
}

// Clip shortens s to at most n units, ending with "…" when cut.
func Clip(s string, n int) string {
	if Length(s) <= n {
		return s
	}
	rs := []rune(s)
	for len(rs) > 0 && Length(string(rs))+1 > n {
		rs = rs[:len(rs)-1]
	}
	return string(rs) + "…"
}

// LimitErrors lists every Discord limit the message breaks; none for a
// message Discord accepts.
func (m Message) LimitErrors() []string {
	var errs []string
	check := func(what string, n, max int) {
		if n > max {
			errs = append(errs, fmt.Sprintf("%s is %d, the limit is %d", what, n, max))
		}
	}
	check("content", Length(m.Content), MaxContent)
	if e := m.Embed; e != nil {
		check("embed title", Length(e.Title), MaxEmbedTitle)
		check("embed description", Length(e.Description), MaxDescription)
		check("embed fields", len(e.Fields), MaxFields)
		check("embed footer", Length(e.Footer), MaxFooter)
		for i, f := range e.Fields {
			check(fmt.Sprintf("field %d name", i+1), Length(f.Name), MaxFieldName)
			check(fmt.Sprintf("field %d value", i+1), Length(f.Value), MaxFieldValue)
		}
		check("embed total", e.total(), MaxEmbedTotal)
	}
	check("component rows", len(m.Components), MaxRows)
	for i, row := range m.Components {
		check(fmt.Sprintf("row %d buttons", i+1), len(row.Buttons), MaxButtonsPerRow)
		if row.Menu != nil && len(row.Buttons) > 0 {
			errs = append(errs, fmt.Sprintf("row %d has a menu and buttons", i+1))
		}
		for _, b := range row.Buttons {
			check("button "+b.CustomID+" custom_id", Length(b.CustomID), MaxCustomID)
			check("button "+b.CustomID+" label", Length(b.Label), MaxButtonLabel)
			check("button url", Length(b.URL), MaxButtonURL)
		}
		if mn := row.Menu; mn != nil {
			check("menu custom_id", Length(mn.CustomID), MaxCustomID)
			check("menu placeholder", Length(mn.Placeholder), MaxPlaceholder)
			check("menu options", len(mn.Options), MaxMenuOptions)
			if len(mn.Options) == 0 {
				errs = append(errs, "menu without options")
			}
			for _, o := range mn.Options {
				check("menu option label", Length(o.Label), MaxOptionLabel)
				check("menu option value", Length(o.Value), MaxOptionValue)
			}
		}
	}
	for _, f := range m.Files {
		check("file "+f.Name, len(f.Data), MaxFileSize)
	}
	return errs
}

// total is what Discord counts against the 6,000 units of an embed.
func (e *Embed) total() int {
	n := Length(e.Title) + Length(e.Description) + Length(e.Footer)
	for _, f := range e.Fields {
		n += Length(f.Name) + Length(f.Value)
	}
	return n
}

// fit is the last guard before a message leaves the bot: anything over a
// limit is cut (and reported), so Discord never answers 400. The builders
// are meant to stay inside the limits by themselves; tests check that they
// do, at the largest board and with the longest names.
func (m *Message) fit() []string {
	errs := m.LimitErrors()
	if len(errs) == 0 {
		return nil
	}
	m.Content = Clip(m.Content, MaxContent)
	if e := m.Embed; e != nil {
		e.Title = Clip(e.Title, MaxEmbedTitle)
		e.Description = Clip(e.Description, MaxDescription)
		e.Footer = Clip(e.Footer, MaxFooter)
		e.Fields = atMost(e.Fields, MaxFields)
		for i := range e.Fields {
			e.Fields[i].Name = Clip(e.Fields[i].Name, MaxFieldName)
			e.Fields[i].Value = Clip(e.Fields[i].Value, MaxFieldValue)
		}
		if over := e.total() - MaxEmbedTotal; over > 0 {
			e.Description = Clip(e.Description, max(0, Length(e.Description)-over-1))
		}
		for e.total() > MaxEmbedTotal && len(e.Fields) > 0 {
			e.Fields = e.Fields[:len(e.Fields)-1]
		}
		if over := e.total() - MaxEmbedTotal; over > 0 {
			e.Footer = Clip(e.Footer, max(0, Length(e.Footer)-over-1))
		}
	}
	m.Components = atMost(m.Components, MaxRows)
	for i := range m.Components {
		row := &m.Components[i]
		row.Buttons = atMost(row.Buttons, MaxButtonsPerRow)
		for j := range row.Buttons {
			row.Buttons[j].Label = Clip(row.Buttons[j].Label, MaxButtonLabel)
		}
		if mn := row.Menu; mn != nil {
			mn.Placeholder = Clip(mn.Placeholder, MaxPlaceholder)
			mn.Options = atMost(mn.Options, MaxMenuOptions)
			for k := range mn.Options {
				mn.Options[k].Label = Clip(mn.Options[k].Label, MaxOptionLabel)
			}
		}
	}
	return errs
}

// atMost is the first n of s.
func atMost[T any](s []T, n int) []T { return s[:min(len(s), n)] }

// JoinLines joins lines with newlines, stopping before the total would
// pass max units; it says how many lines were left out as "… +N", which
// reads the same in every language (it has no printer to write words).
func JoinLines(lines []string, max int) string {
	var b strings.Builder
	for i, l := range lines {
		more := fmt.Sprintf("… +%d", len(lines)-i)
		if i == len(lines)-1 {
			more = "" // nothing after the last line to announce
		}
		if Length(b.String())+Length(l)+1+Length(more) > max {
			b.WriteString(more)
			break
		}
		b.WriteString(l + "\n")
	}
	return strings.TrimRight(b.String(), "\n")
}
