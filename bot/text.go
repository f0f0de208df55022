package bot

// This file writes text for people and for Discord: escaped names, mentions,
// timestamps and durations.

import (
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode"

	"othello-bot/record"
)

// Escape makes a user-chosen text (a display name) safe to put in a
// message: Discord markdown characters are escaped, so "**" or "||" in a
// nickname cannot change the formatting, and mentions are broken up, so
// a nickname like "@everyone" or "<@123>" is shown as typed and never
// pings (allowed_mentions stops the ping as well; this stops the blue
// highlight too). Line breaks become spaces.
func Escape(s string) string {
	var b strings.Builder
	for _, r := range record.PlainName(s) {
		switch r {
		case '\\', '*', '_', '~', '`', '|', '>', '<', '#', '-', '[', ']', '(', ')', ':', '!':
			b.WriteByte('\\')
		case '\n', '\r', '\t':
			r = ' '
		}
		b.WriteRune(r)
		if r == '@' {
			b.WriteRune(zeroWidthSpace)
		}
	}
	return b.String()
}

const zeroWidthSpace = '\u200b'

// name is a player's display name, escaped for a message.
func name(p record.Player) string { return Escape(p.Name) }

// plainName is a player's display name for places Discord shows as plain
// text (select menu placeholders, button labels): no markdown there, so
// nothing to escape, only line breaks to remove and the length to bound.
func plainName(p record.Player) string {
	return Clip(strings.Join(strings.Fields(p.Name), " "), 40)
}

// Mention pings a user, when the message allows that user's mention.
func Mention(userID string) string { return "<@" + userID + ">" }

// Discord timestamp styles: every reader sees them in their own time zone.
const (
	StampFull     = 'f' // "22 November 2026 12:00"
	StampRelative = 'R' // "in 24 hours"
)

// Stamp writes a time as a Discord timestamp.
func Stamp(t time.Time, style rune) string {
	return fmt.Sprintf("<t:%d:%c>", t.Unix(), style)
}

// Typed is what a player typed, as a message quotes it: at most 16
// characters, its markdown shown as typed, anything unprintable written
// as an escape. The words around it put it in their language's quotes.
func Typed(text string) string {
	if r := []rune(text); len(r) > 16 {
		text = string(r[:16]) + "…"
	}
	for _, r := range text {
		if !unicode.IsPrint(r) && r != ' ' {
			q := strconv.Quote(text)
			text = q[1 : len(q)-1]
			break
		}
	}
	return Escape(text)
}
