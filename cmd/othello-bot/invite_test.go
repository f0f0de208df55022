package main

import (
	"os"
	"regexp"
	"strconv"
	"testing"
)

// The invite links in the README and operators' guide ask for exactly the
// permissions the operators' table lists, so a permission added to one
// (Create Events, in 2026) is not missing from the other.
func TestInviteLinksAskForTheTablesPermissions(t *testing.T) {
	guide, err := os.ReadFile("../../docs/operators.md")
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	// The table of the invite's permissions: "| `1<<N` | Name | what for |",
	// up to the first blank line after its header.
	table := regexp.MustCompile("(?s)\\| bit \\| permission \\| what for \\|\n(.*?)\n\n").FindSubmatch(guide)
	if table == nil {
		t.Fatal("docs/operators.md has no table of the invite's permissions")
	}
	var want int64
	for _, m := range regexp.MustCompile("\\| `1<<(\\d+)` \\|").FindAllSubmatch(table[1], -1) {
		bit, _ := strconv.Atoi(string(m[1]))
		want |= 1 << bit
	}
	links := 0
	for _, doc := range [][]byte{guide, readme} {
		for _, m := range regexp.MustCompile(`scope=bot\+applications\.commands&permissions=(\d+)`).FindAllSubmatch(doc, -1) {
			links++
			if got, _ := strconv.ParseInt(string(m[1]), 10, 64); got != want {
				t.Errorf("an invite asks for permissions=%d; the table lists %d", got, want)
			}
		}
	}
	if links < 3 || want&(1<<44) == 0 {
		t.Errorf("%d invite links, table %d: want the README's and the guide's two, with Create Events", links, want)
	}
}
