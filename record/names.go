package record

import "strings"

// PlainName is a display name without the invisible characters that
// change the order or the lines of the text around it: bidirectional
// controls (a right-to-left override in a name would reverse the rest of
// the bot's line), and line and paragraph separators. Names are shown
// in chat, on pages and in exports; each place takes them through here.
func PlainName(s string) string {
	if !strings.ContainsFunc(s, reorders) {
		return s
	}
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\u2028' || r == '\u2029':
			return ' '
		case reorders(r):
			return -1
		}
		return r
	}, s)
}

// reorders says whether r is a bidirectional control (Unicode's
// Bidi_Control property) or a line or paragraph separator.
func reorders(r rune) bool {
	switch {
	case r == '\u061c', r == '\u200e', r == '\u200f':
		return true
	case r >= '\u202a' && r <= '\u202e', r >= '\u2066' && r <= '\u2069':
		return true
	case r == '\u2028' || r == '\u2029':
		return true
	}
	return false
}
