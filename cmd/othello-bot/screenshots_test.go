package main

import (
	"html"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"othello-bot/internal/browsertest"
)

// TestScreenshots writes the pictures README.md and docs/players.md show,
// from a real game through `local --web` in a real Chromium, when
// OTHELLO_SCREENSHOTS names the folder to write them to:
//
//	OTHELLO_SCREENSHOTS=$PWD/docs/screenshots go test ./cmd/othello-bot -run Screenshots
//
// The chat board's emoji need a colour emoji font (Debian's
// fonts-noto-color-emoji). Without the variable it skips: the pictures
// are documentation, not a check.
func TestScreenshots(t *testing.T) {
	dir := os.Getenv("OTHELLO_SCREENSHOTS")
	if dir == "" {
		t.Skip("set OTHELLO_SCREENSHOTS to a folder to write the README's screenshots into")
	}
	l := startLocal(t)
	defer func() { l.in.Close(); <-l.done }()
	// The Tiger, then a few moves more, on a 5+3 clock.
	script := "alice: /challenge @bob color:black rated:false time:5+3\nbob: click Accept\n"
	for i, m := range strings.Fields("f5 d6 c3 d3 c4 f4 f6 f3 e6 e7 d7 c6") {
		who := "alice"
		if i%2 == 1 {
			who = "bob"
		}
		script += who + ": /move " + m + "\n"
	}
	l.in.Write([]byte(script + "alice: /board\n"))
	var link string
	for deadline := time.Now().Add(30 * time.Second); link == ""; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("no private link in:\n%s", l.out.String())
		}
		for _, m := range loginLink.FindAllStringSubmatch(l.out.String(), -1) {
			if m[1] == "alice" {
				link = m[2]
			}
		}
	}
	browser := browsertest.Start(t, 2*time.Minute)
	shot := func(name string, width, height int64, mobile bool) {
		t.Helper()
		tab := browsertest.Person(t, browser)
		var opts []chromedp.EmulateViewportOption
		if mobile {
			opts = append(opts, chromedp.EmulateMobile, chromedp.EmulateScale(2))
		}
		if err := chromedp.Do(tab, chromedp.EmulateViewport(width, height, opts...), chromedp.Navigate(link),
			chromedp.WaitVisible(chromedp.CSS("#moves button"))); err != nil {
			t.Fatal(err)
		}
		time.Sleep(500 * time.Millisecond) // the last move's animation
		png, err := chromedp.Run(tab, chromedp.CaptureScreenshot())
		if err != nil {
			t.Fatal(err)
		}
		writeShot(t, dir, name, png)
	}
	shot("board-1024.png", 1024, 900, false)
	shot("board-390.png", 390, 844, true)

	// The chat board: the game's last message in the terminal, set as
	// Discord sets a message (dark theme, its font), in the same browser.
	out := l.out.String()
	i := strings.LastIndex(out, "== Game #1")
	if i < 0 {
		t.Fatalf("no game message in:\n%s", out)
	}
	msg := out[i:]
	if j := strings.Index(msg, "\n--- "); j >= 0 {
		msg = msg[:j]
	}
	// The terminal leaves out the zero-width spaces the message carries
	// between the column letters (two regional indicators side by side
	// are a flag): put them back, as Discord receives it.
	msg = lettersApart.ReplaceAllString(msg, "$1\u200b")
	text := buttons.ReplaceAllString(html.EscapeString(msg), `<span class="btn">$1</span>`)
	text = menus.ReplaceAllString(text, `<span class="select">$1 ▾</span>`)
	page := filepath.Join(t.TempDir(), "chat.html")
	body := `<!doctype html><meta charset="utf-8"><style>
body { background: #313338; color: #dbdee1; font: 16px/1.375 "gg sans", "Noto Sans", "Helvetica Neue", Arial, sans-serif; margin: 0; padding: 16px; }
.msg { display: inline-block; } .who { color: #f2f3f5; font-weight: 600; } .bot { background: #5865f2; color: #fff; font-size: 10px; border-radius: 3px; padding: 1px 4px; margin-left: 4px; vertical-align: middle; }
.text { white-space: pre; margin-top: 2px; } .btn { display: inline-block; background: #4e5058; color: #fff; border-radius: 3px; padding: 2px 16px; margin: 8px 8px 0 0; }
.select { display: inline-block; background: #1e1f22; border: 1px solid #1e1f22; border-radius: 4px; padding: 6px 10px; margin: 6px 0 0; width: 380px; overflow: hidden; text-overflow: ellipsis; vertical-align: top; }
</style><div class="msg"><span class="who">othello-bot</span><span class="bot">APP</span><div class="text">` +
		text + `</div></div>`
	if err := os.WriteFile(page, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	tab := browsertest.Person(t, browser)
	if err := chromedp.Do(tab, chromedp.EmulateViewport(520, 900), chromedp.Navigate("file://"+page)); err != nil {
		t.Fatal(err)
	}
	png, err := chromedp.Run(tab, chromedp.Screenshot(chromedp.CSS(".msg")))
	if err != nil {
		t.Fatal(err)
	}
	writeShot(t, dir, "chat-board.png", png)
}

// buttons are the terminal's [Label] buttons (a link's with its address
// after the label), menus its <select: a | b> menus; drawn as Discord's.
var (
	buttons      = regexp.MustCompile(`\[([^\]\n]{1,40}?)(?: ↗ [^\]\n]*)?\]`)
	menus        = regexp.MustCompile(`&lt;select: ([^\n]*?)&gt;`)
	lettersApart = regexp.MustCompile(`([\x{1F1E6}-\x{1F1FF}])`)
)

func writeShot(t *testing.T, dir, name string, png []byte) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s (%d bytes)", filepath.Join(dir, name), len(png))
}
