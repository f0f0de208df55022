// Package customid writes and reads the custom ids of the bot's buttons
// and select menus: an action and its arguments joined by ":"
// ("move:12:7"). One codec for every component, so a handler reads
// exactly what its builder wrote, and a custom id pressed from an old or
// forged message reads as no argument rather than a wrong one.
package customid

import (
	"strconv"
	"strings"
)

// Max is Discord's limit on a custom id's length (message components).
const Max = 100

// Make is action with its arguments: numbers, or words without ":".
func Make(action string, args ...any) string {
	var b strings.Builder
	b.WriteString(action)
	for _, a := range args {
		b.WriteByte(':')
		switch v := a.(type) {
		case int:
			b.WriteString(strconv.Itoa(v))
		case int64:
			b.WriteString(strconv.FormatInt(v, 10))
		case string:
			b.WriteString(strings.ReplaceAll(v, ":", ""))
		default:
			panic("customid: an argument is a number or a word")
		}
	}
	return b.String()
}

// ID is a custom id read.
type ID struct {
	Action string
	args   []string
}

// Parse reads a custom id.
func Parse(s string) ID {
	action, rest, found := strings.Cut(s, ":")
	id := ID{Action: action}
	if found {
		id.args = strings.Split(rest, ":")
	}
	return id
}

// Int is the i-th argument as a number; false when there is none or it
// is not one.
func (id ID) Int(i int) (int64, bool) {
	w, ok := id.Word(i)
	if !ok {
		return 0, false
	}
	n, err := strconv.ParseInt(w, 10, 64)
	return n, err == nil
}

// Word is the i-th argument; false when there is none.
func (id ID) Word(i int) (string, bool) {
	if i < 0 || i >= len(id.args) {
		return "", false
	}
	return id.args[i], true
}
