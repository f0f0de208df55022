// Command notices writes THIRD_PARTY_NOTICES: the licence of every module
// compiled into othello-bot, and of Go itself, as the binary and the image
// must carry them. Run from the repository's root:
//
//	go run ./cmd/notices > THIRD_PARTY_NOTICES
//
// A test fails when the committed file is not what this writes.
package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// licenceFile matches the files a module's licence lives in.
var licenceFile = regexp.MustCompile(`(?i)^(licen[cs]e|copying|notice|patents)(\.(md|txt))?$`)

// extra are licences a module names but does not ship (fonts inside
// bitmapfont under the SIL Open Font License), kept in docker/licenses.
var extra = map[string][]string{
	"github.com/hajimehoshi/bitmapfont/v3": {"docker/licenses/OFL-1.1.txt"},
}

type module struct{ path, version, dir string }

func main() {
	if err := write(os.Stdout, "./cmd/othello-bot"); err != nil {
		fmt.Fprintln(os.Stderr, "notices:", err)
		os.Exit(1)
	}
}

func write(w io.Writer, pkg string) error {
	mods, err := modules(pkg)
	if err != nil {
		return err
	}
	goroot, err := goEnv("GOROOT")
	if err != nil {
		return err
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "Third-party notices for othello-bot\n\n")
	fmt.Fprintf(&b, "The othello-bot binary (and its container image) contains the Go\n")
	fmt.Fprintf(&b, "standard library and runtime and the modules below, each under its own\n")
	fmt.Fprintf(&b, "licence, reproduced here. SQLite, compiled in by go-sqlite3, is in the\n")
	fmt.Fprintf(&b, "public domain. Written by `go run ./cmd/notices > THIRD_PARTY_NOTICES`.\n")
	if err := section(&b, "Go (standard library and runtime)", goroot, nil, ""); err != nil {
		return err
	}
	for _, m := range mods {
		source := "https://proxy.golang.org/" + proxyEscape(m.path) + "/@v/" + proxyEscape(m.version) + ".zip"
		if err := section(&b, m.path+" "+m.version, m.dir, extra[m.path], source); err != nil {
			return err
		}
	}
	// The Activity's script, bundled from npm packages (web/activity).
	js, err := os.ReadFile("web/activity/NOTICES")
	if err != nil {
		return fmt.Errorf("the Activity's notices (written by go generate ./web): %w", err)
	}
	fmt.Fprintf(&b, "\n%s", js)
	_, err = w.Write(b.Bytes())
	return err
}

// modules lists the modules whose packages pkg is built from.
func modules(pkg string) ([]module, error) {
	out, err := exec.Command("go", "list", "-deps", "-f",
		"{{with .Module}}{{if not .Main}}{{.Path}}\t{{.Version}}\t{{.Dir}}{{end}}{{end}}", pkg).Output()
	if err != nil {
		return nil, fmt.Errorf("go list %s: %w", pkg, err)
	}
	seen := map[string]bool{}
	var mods []module
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		f := strings.Split(sc.Text(), "\t")
		if len(f) != 3 || seen[f[0]] {
			continue
		}
		seen[f[0]] = true
		mods = append(mods, module{f[0], f[1], f[2]})
	}
	sort.Slice(mods, func(i, j int) bool { return mods[i].path < mods[j].path })
	return mods, nil
}

// proxyEscape writes a module path as the module proxy's addresses do:
// each capital letter as "!" and the letter in lower case.
func proxyEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		if 'A' <= r && r <= 'Z' {
			b.WriteByte('!')
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return b.String()
}

func goEnv(key string) (string, error) {
	out, err := exec.Command("go", "env", key).Output()
	if err != nil {
		return "", fmt.Errorf("go env %s: %w", key, err)
	}
	return strings.TrimSpace(string(out)), nil
}

// section writes one component's licence files, the licence sections of
// its README (fonts' licences live there), and any extra texts. A module
// under the Mozilla Public License also says where its source is, as that
// licence asks of a binary (its section 3.2).
func section(b *bytes.Buffer, title, dir string, extras []string, source string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("%s: %w", title, err)
	}
	fmt.Fprintf(b, "\n%s\n%s\n", strings.Repeat("=", 72), title)
	found := false
	for _, e := range entries {
		if e.IsDir() || !licenceFile.MatchString(e.Name()) {
			continue
		}
		text, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return err
		}
		fmt.Fprintf(b, "%s\n-- %s --\n\n%s\n", strings.Repeat("=", 72), e.Name(), strings.TrimRight(string(text), "\n"))
		found = true
		if source != "" && strings.Contains(string(text), "Mozilla Public License") {
			fmt.Fprintf(b, "\n-- source --\n\nUsed unmodified; its Source Code Form: %s\n", source)
		}
	}
	if readme, err := os.ReadFile(filepath.Join(dir, "README.md")); err == nil {
		for _, s := range licenceSections(string(readme)) {
			fmt.Fprintf(b, "\n-- README.md --\n\n%s\n", s)
			found = true
		}
	}
	for _, path := range extras {
		text, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		fmt.Fprintf(b, "\n-- %s --\n\n%s\n", filepath.Base(path), strings.TrimRight(string(text), "\n"))
	}
	if !found {
		return fmt.Errorf("%s: no licence file in %s", title, dir)
	}
	return nil
}

// licenceSections are a README's second-level sections about licences or
// the sources whose licences they name (bitmapfont lists its fonts so).
func licenceSections(readme string) []string {
	var out []string
	parts := regexp.MustCompile(`(?m)^## `).Split(readme, -1)
	for _, p := range parts[1:] {
		heading, _, _ := strings.Cut(p, "\n")
		h := strings.ToLower(heading)
		if h != "license" && h != "licence" && (strings.Contains(h, "license") || strings.Contains(h, "licence") || h == "sources") {
			out = append(out, "## "+strings.TrimRight(p, "\n"))
		}
	}
	return out
}
