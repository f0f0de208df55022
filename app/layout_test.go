package app

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
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
		"othello-bot/storage":    {"othello-bot/rating", "othello-bot/rating/rated", "othello-bot/puzzle", "othello-bot/engine", "othello-bot/bot"},
		"othello-bot/tournament": {"othello-bot/storage", "othello-bot/bot", "github.com/bwmarrin/discordgo"},
		"othello-bot/puzzle":     {"othello-bot/storage", "othello-bot/bot", "github.com/bwmarrin/discordgo"},
		"othello-bot/bot": {"othello-bot/storage", "github.com/bwmarrin/discordgo", "othello-bot/bot/tournaments",
			"github.com/prometheus/client_golang/prometheus", "othello-bot/metrics"},
		"othello-bot/schedule": {"othello-bot/storage", "othello-bot/bot"},
		// The game flow: typed operations, no words, chat or Discord.
		"othello-bot/play":         {"othello-bot/bot", "othello-bot/catalog", "othello-bot/storage", "github.com/bwmarrin/discordgo"},
		"othello-bot/rating/rated": {"othello-bot/storage", "othello-bot/bot", "github.com/bwmarrin/discordgo"},
	} {
		d := deps(pkg)
		for _, b := range banned {
			if d[b] {
				t.Errorf("%s depends on %s", pkg, b)
			}
		}
	}
}

// The shape the code keeps (issue #43): no source file of bot/, storage/
// or a capability over 350 lines, the bot package itself under 4,500
// lines, and no store interface over 25 methods.
func TestPackageSizes(t *testing.T) {
	files, err := filepath.Glob("../bot/*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, pattern := range []string{"../bot/*/*.go", "../bot/*/*/*.go", "../storage/*.go", "../storage/*/*.go", "../schedule/*.go", "*.go"} {
		more, _ := filepath.Glob(pattern)
		files = append(files, more...)
	}
	botLines := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		n := strings.Count(string(data), "\n")
		if n > 350 {
			t.Errorf("%s has %d lines", f, n)
		}
		if filepath.Dir(f) == "../bot" {
			botLines += n
		}
	}
	if botLines >= 4500 {
		t.Errorf("package bot has %d lines", botLines)
	}
	fset := token.NewFileSet()
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, f, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(file, func(n ast.Node) bool {
			ts, ok := n.(*ast.TypeSpec)
			if !ok || !strings.HasSuffix(ts.Name.Name, "Store") {
				return true
			}
			if it, ok := ts.Type.(*ast.InterfaceType); ok && len(it.Methods.List) > 25 {
				t.Errorf("%s: %s has %d methods", f, ts.Name.Name, len(it.Methods.List))
			}
			return true
		})
	}
}
