package app

import (
	"os/exec"
	"strings"
	"testing"
)

// The store stores what it is told: storage depends on no rule that
// computes (ratings, puzzles, the engine), and the domain packages on no
// adapter or store.
func TestPackageLayering(t *testing.T) {
	deps := func(pkg string) map[string]bool {
		out, err := exec.Command("go", "list", "-deps", pkg).Output()
		if err != nil {
			t.Skipf("go list: %v", err)
		}
		m := map[string]bool{}
		for _, l := range strings.Fields(string(out)) {
			m[l] = true
		}
		return m
	}
	for pkg, banned := range map[string][]string{
		"othello-bot/storage":    {"othello-bot/rating", "othello-bot/puzzle", "othello-bot/engine", "othello-bot/bot"},
		"othello-bot/tournament": {"othello-bot/storage", "othello-bot/bot", "github.com/bwmarrin/discordgo"},
		"othello-bot/puzzle":     {"othello-bot/storage", "othello-bot/bot", "github.com/bwmarrin/discordgo"},
		"othello-bot/bot":        {"othello-bot/storage", "github.com/bwmarrin/discordgo", "othello-bot/bot/tournaments"},
		"othello-bot/schedule":   {"othello-bot/storage", "othello-bot/bot"},
	} {
		d := deps(pkg)
		for _, b := range banned {
			if d[b] {
				t.Errorf("%s depends on %s", pkg, b)
			}
		}
	}
}
