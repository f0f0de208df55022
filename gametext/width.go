package gametext

import "golang.org/x/text/width"

// Width is how many columns a monospace font gives s: East Asian wide and
// full-width characters (漢字, かな, full-width forms) take two, every
// other character one. Tables in code blocks pad by it.
func Width(s string) int {
	n := 0
	for _, r := range s {
		switch width.LookupRune(r).Kind() {
		case width.EastAsianWide, width.EastAsianFullwidth:
			n += 2
		default:
			n++
		}
	}
	return n
}
