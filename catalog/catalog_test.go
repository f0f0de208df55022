package catalog

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"text/template/parse"

	"github.com/BurntSushi/toml"
)

// messages reads a language's file as id -> plural form -> text, the way
// go-i18n flattens it.
func messages(t *testing.T, l Lang) map[string]map[string]string {
	t.Helper()
	data, err := fs.ReadFile(files, "messages/"+string(l)+".toml")
	if err != nil {
		t.Fatal(err)
	}
	var raw map[string]any
	if err := toml.Unmarshal(data, &raw); err != nil {
		t.Fatalf("%s: %v", l, err)
	}
	out := map[string]map[string]string{}
	var walk func(prefix string, m map[string]any)
	walk = func(prefix string, m map[string]any) {
		for k, v := range m {
			id := strings.TrimPrefix(prefix+"."+k, ".")
			switch v := v.(type) {
			case string:
				out[id] = map[string]string{"other": v}
			case map[string]any:
				if _, plural := v["other"]; plural {
					forms := map[string]string{}
					for f, s := range v {
						forms[f], _ = s.(string)
					}
					out[id] = forms
					continue
				}
				walk(id, v)
			}
		}
	}
	walk("", raw)
	return out
}

// fields are the placeholders a message uses, in every form.
func fields(t *testing.T, id, text string) []string {
	trees, err := parse.Parse(id, text, "{{", "}}")
	if err != nil {
		t.Errorf("%s: %v", id, err)
		return nil
	}
	var out []string
	var walk func(n parse.Node)
	walk = func(n parse.Node) {
		switch n := n.(type) {
		case *parse.ListNode:
			for _, c := range n.Nodes {
				walk(c)
			}
		case *parse.ActionNode:
			for _, c := range n.Pipe.Cmds {
				for _, a := range c.Args {
					walk(a)
				}
			}
		case *parse.FieldNode:
			out = append(out, strings.Join(n.Ident, "."))
		}
	}
	walk(trees[id].Root)
	sort.Strings(out)
	return slices.Compact(out)
}

// Every language has every English message, nothing more, with the same
// placeholders; plural messages have the forms their language needs.
func TestEveryLanguageHasEveryMessage(t *testing.T) {
	en := messages(t, English)
	if len(en) < 300 {
		t.Errorf("only %d English messages: the catalog did not load whole", len(en))
	}
	for _, l := range Supported()[1:] {
		other := messages(t, l)
		for id, forms := range en {
			theirs, ok := other[id]
			if !ok {
				t.Errorf("%s lacks %q", l, id)
				continue
			}
			want := fields(t, id, forms["other"])
			for f, text := range theirs {
				if got := fields(t, id, text); !slices.Equal(got, want) {
					t.Errorf("%s %q (%s) has placeholders %v, English %v", l, id, f, got, want)
				}
			}
			if _, plural := forms["one"]; plural {
				if _, ok := theirs["other"]; !ok {
					t.Errorf("%s %q has no other form", l, id)
				}
			}
		}
		for id := range other {
			if _, ok := en[id]; !ok {
				t.Errorf("%s has %q, which English does not", l, id)
			}
		}
	}
	for id, forms := range en {
		if _, one := forms["one"]; one {
			if got, want := fields(t, id, forms["one"]), fields(t, id, forms["other"]); !slices.Equal(got, want) {
				t.Errorf("en %q: one has %v, other %v", id, got, want)
			}
		}
		for f, text := range forms {
			if strings.TrimSpace(text) == "" {
				t.Errorf("en %q (%s) is empty", id, f)
			}
		}
	}
}

// The catalog's words reach the reader through T, with every placeholder
// filled (a missing one would print "<no value>").
func TestEveryMessageWrites(t *testing.T) {
	for _, l := range Supported() {
		p := For(l)
		for id, forms := range messages(t, l) {
			var pairs []any
			for _, f := range fields(t, id, forms["other"]) {
				pairs = append(pairs, f, 2)
			}
			got := p.T(id, pairs...)
			if strings.Contains(got, "<no value>") || strings.Contains(got, "⟦") {
				t.Errorf("%s %q writes %q", l, id, got)
			}
			if len(pairs) == 0 { // kept from the first writing: the same again
				if again := p.T(id); again != got {
					t.Errorf("%s %q writes %q, then %q", l, id, got, again)
				}
			}
		}
	}
}

// userFacing are the packages whose words reach people.
var userFacing = []string{"bot", "bot/tournaments", "bot/puzzles", "bot/review", "bot/stats", "bot/hints", "bot/downtime", "bot/takeback", "bot/pageplay", "bot/tv", "bot/aborts", "bot/pairing", "bot/ranks", "bot/resigns", "bot/follows", "opening", "bot/local", "bot/discord", "bot/ratelimit", "bot/train", "bot/habits", "bot/storm",
	"render", "analysis", "termgame", "catalog", "gametext", "web"}

// proseLiteral looks like words for people: a capitalised word, or two
// words.
var (
	proseLiteral = regexp.MustCompile(`^[A-Z][a-z]+$|^[A-Z][a-z]+[ ,.;:!?]|[A-Za-z]{2,}[ ,;:!?]+[A-Za-z]{2,}`)
	headerName   = regexp.MustCompile(`^[A-Z][a-z]+(-[A-Z][a-z]+)+$`)
)

// allowed are the places whose literals are not for people.
var allowed = map[string]string{
	"bot/threads.go deletedNote":            "the results log's note: a data format, in English",
	"bot/aborts/aborts.go noReasonNote":     "the results log's note: a data format, in English",
	"bot/limits.go *":                       "which limit a message broke, for the log",
	"bot/capability.go Mount":               "a wiring mistake, for the developer",
	"bot/tournaments/tournaments.go Routes": "entry points of the command table, by their names",
	"bot/train/train.go Routes":             "entry points of the command table, by their names",
	"bot/autocomplete.go autocomplete":      "a command's path in the table, compared",
	"bot/puzzles/puzzles.go Jobs":           "a timed job's name, for the log",
	"bot/pairing/pairing.go Jobs":           "a timed job's name, for the log",
	"bot/ranks/reconcile.go Jobs":           "a timed job's name, for the log",
	"bot/pageplay/discord.go enqueue":       "a background task's name, for the log",
	"bot/discord/commands.go where":         "where commands are registered, for the log",
	"bot/discord/interactions.go deliver":   "what failed, for the log",
	"bot/discord/apibase.go *":              "Discord's address",
	"bot/discord/identify.go dialVia":       "the proxy's authorization scheme (HTTP)",
	"web/live.go events":                    "the server-sent events protocol",
	"web/live.go stamp":                     "the server-sent events protocol",
	"web/live.go payload":                   "the server-sent events protocol",
	"web/page.go pagePolicy":                "the Content-Security-Policy",
	"web/discordlogin.go avatarURL":         "Discord's CDN address",
	"web/play.go sameOrigin":                "HTTP header names",
	"web/discordlogin.go identify":          "OAuth2's request headers",
	"web/session.go session":                "HTTP header names",
	"web/discordlogin.go memberOf":          "OAuth2's request headers",
	"web/activity.go activityPolicy":        "the Content-Security-Policy",
}

// No string literal in the user-facing packages reads as prose, except
// in the log, errors for the log, and the few data formats listed: every
// word for people comes from the catalog.
func TestNoWordsBypassTheCatalog(t *testing.T) {
	placeholders = map[string]bool{}
	for id, forms := range messages(t, English) {
		for _, f := range fields(t, id, forms["other"]) {
			placeholders[f] = true
		}
	}
	eachSource(t, func(fset *token.FileSet, rel string, f *ast.File) { checkFile(t, fset, rel, f) })
}

// eachSource parses every non-test Go file of the user-facing packages.
func eachSource(t *testing.T, visit func(fset *token.FileSet, rel string, f *ast.File)) {
	t.Helper()
	fset := token.NewFileSet()
	for _, dir := range userFacing {
		paths, _ := filepath.Glob(filepath.Join("..", dir, "*.go"))
		for _, path := range paths {
			if strings.HasSuffix(path, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			visit(fset, strings.TrimPrefix(filepath.ToSlash(path), "../"), f)
		}
	}
}

// placeholders are the names of the catalog's placeholders: code names
// them, people never read them.
var placeholders map[string]bool

func checkFile(t *testing.T, fset *token.FileSet, rel string, f *ast.File) {
	// Calls whose string arguments are not for people: the log and
	// errors (wrapped into the log), and the catalog's own ids.
	skip := map[ast.Node]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		if sel, ok := call.Fun.(*ast.SelectorExpr); ok {
			if header, ok := sel.X.(*ast.CallExpr); ok && sel.Sel.Name == "Set" {
				if h, ok := header.Fun.(*ast.SelectorExpr); ok && h.Sel.Name == "Header" {
					for _, a := range call.Args { // an HTTP header and its value
						skip[a] = true
					}
				}
			}
			switch sel.Sel.Name {
			case "Debug", "Info", "Warn", "Error", "With", "Errorf", "New", "T", "note", "Fatal", "Fatalf", "logFailure":
				for _, a := range call.Args {
					skip[a] = true
				}
			}
		}
		return true
	})
	for _, d := range f.Decls {
		where := ""
		switch d := d.(type) {
		case *ast.FuncDecl:
			where = d.Name.Name
		case *ast.GenDecl:
			for _, sp := range d.Specs {
				if v, ok := sp.(*ast.ValueSpec); ok && len(v.Names) > 0 {
					where = v.Names[0].Name
				}
			}
		}
		ast.Inspect(d, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.ImportSpec, *ast.Field:
				return false
			case *ast.BasicLit:
				if n.Kind != token.STRING || skip[n] {
					return true
				}
				s, err := strconv.Unquote(n.Value)
				if err != nil || !proseLiteral.MatchString(s) || placeholders[s] || headerName.MatchString(s) {
					return true
				}
				_, here := allowed[rel+" "+where]
				_, file := allowed[rel+" *"]
				if !here && !file {
					t.Errorf("%s: %q in %s does not come from the catalog", fset.Position(n.Pos()), s, where)
				}
			}
			return !skip[n]
		})
	}
}

// Every message id the code writes is in the catalog with the
// placeholders the code fills; every message is written somewhere (or
// built from a prefix the code names).
func TestCodeAndCatalogAgree(t *testing.T) {
	en := messages(t, English)
	used := map[string]bool{}
	prefixes := []string{}
	eachSource(t, func(fset *token.FileSet, _ string, f *ast.File) {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.BasicLit:
				if n.Kind != token.STRING {
					return true
				}
				s, _ := strconv.Unquote(n.Value)
				if _, ok := en[s]; ok {
					used[s] = true
				} else if strings.HasSuffix(s, ".") && !strings.Contains(s, " ") {
					prefixes = append(prefixes, s)
				}
			case *ast.CallExpr:
				checkCall(t, fset, en, n)
			}
			return true
		})
	})
	// Ids built from a prefix: command texts, statuses, labels.
	prefixes = append(prefixes, "cmd.", "choice.", "unit.", "permission.", "history.result.", "analysis.label.", "challenge.status.", "term.passes.", "term.scripted.")
	var unused []string
	for id := range en {
		if used[id] || slices.ContainsFunc(prefixes, func(p string) bool { return strings.HasPrefix(id, p) }) {
			continue
		}
		unused = append(unused, id)
	}
	sort.Strings(unused)
	if len(unused) > 0 {
		t.Errorf("messages no code writes: %v", unused)
	}
}

// checkCall checks a T(id, name, value, …) call with a literal id: the
// message exists and every placeholder it has is given.
func checkCall(t *testing.T, fset *token.FileSet, en map[string]map[string]string, call *ast.CallExpr) {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "T" || len(call.Args) == 0 {
		return
	}
	lit, ok := call.Args[0].(*ast.BasicLit)
	if !ok {
		return // an id built at run time: checked by use
	}
	id, _ := strconv.Unquote(lit.Value)
	forms, ok := en[id]
	if !ok {
		t.Errorf("%s: T(%q): no such message", fset.Position(call.Pos()), id)
		return
	}
	if call.Ellipsis != token.NoPos {
		return // pairs passed on from a slice
	}
	var given []string
	for i := 1; i < len(call.Args); i += 2 {
		if k, ok := call.Args[i].(*ast.BasicLit); ok {
			name, _ := strconv.Unquote(k.Value)
			given = append(given, name)
		}
	}
	for _, w := range fields(t, id, forms["other"]) {
		if !slices.Contains(given, w) {
			t.Errorf("%s: T(%q) does not fill {{.%s}}", fset.Position(call.Pos()), id, w)
		}
	}
}

// Every package under bot/ (a capability, an adapter) speaks to people:
// none may be left out of userFacing, or its words would go unchecked.
func TestEveryBotPackageIsChecked(t *testing.T) {
	dirs, err := filepath.Glob(filepath.Join("..", "bot", "*", "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]bool{}
	for _, d := range userFacing {
		listed[d] = true
	}
	for _, path := range dirs {
		dir := strings.TrimPrefix(filepath.ToSlash(filepath.Dir(path)), "../")
		if !listed[dir] {
			t.Errorf("%s is not in userFacing", dir)
		}
	}
}

// Japanese speaks of placing a disc with one verb, 打つ; 指す is shogi's
// and chess's (#44).
func TestJapaneseUsesOneVerbForAMove(t *testing.T) {
	shogi := regexp.MustCompile(`指[さしすせそ]`)
	for id, forms := range messages(t, Lang("ja")) {
		for form, text := range forms {
			if shogi.MatchString(text) {
				t.Errorf("%s (%s) says 指す for a move: %s", id, form, text)
			}
		}
	}
}

// Inside a Japanese sentence the punctuation is full-width: （）、。！？：
// next to Japanese text, not their ASCII forms (#44). A colon in an option
// (言語:ja) is the command's syntax, not punctuation.
func TestJapanesePunctuationIsFullWidth(t *testing.T) {
	const jp = `[\x{3040}-\x{30ff}\x{4e00}-\x{9fff}]`
	half := regexp.MustCompile(jp + `[,.!?;()]|[,!?;(]` + jp + `|\)` + jp + `|` + jp + `:(\s|$)`)
	for id, forms := range messages(t, Lang("ja")) {
		for form, text := range forms {
			if m := half.FindString(text); m != "" {
				t.Errorf("%s (%s): half-width punctuation %q in a Japanese sentence: %s", id, form, m, text)
			}
		}
	}
}

// A message kept by one language's printer is not another's.
func TestPlainMessagesKeptPerLanguage(t *testing.T) {
	const id = "language.name"
	en, ja := For(English).T(id), For(Japanese).T(id)
	if en == ja || For(English).T(id) != en || For(Japanese).T(id) != ja {
		t.Fatalf("%q and %q, then %q and %q", en, ja, For(English).T(id), For(Japanese).T(id))
	}
}
