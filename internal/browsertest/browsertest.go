// Package browsertest starts the real headless browser the page tests
// drive: Debian's chromium (CI installs it), or a loud skip without one.
package browsertest

import (
	"context"
	"os/exec"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// Start runs a headless Chromium for the test and returns a context whose
// first tab is ready to drive; the browser ends with the test.
func Start(t *testing.T, timeout time.Duration) context.Context {
	t.Helper()
	path := ""
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			path = p
			break
		}
	}
	if path == "" {
		t.Skip("NO BROWSER: install Debian's chromium package to run the web page tests (CI does)")
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(path), chromedp.NoSandbox,
		chromedp.Flag("disable-gpu", true), chromedp.WindowSize(900, 1100),
		// Chromium leaves its singleton socket's directory in TMPDIR after
		// it is killed: in the test's own directory, it goes with the test.
		chromedp.Env("TMPDIR="+t.TempDir()))
	// The browser is started here, and again if it dies as it starts (it
	// did once in CI's run, "chrome failed to start", on a busy machine):
	// a crash of the browser's start says nothing of the pages tested.
	var err error
	for attempt := 1; attempt <= 3; attempt++ {
		actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
		ctx, cancel := chromedp.NewContext(actx)
		ctx, cancelTime := context.WithTimeout(ctx, timeout)
		stop := func() { cancelTime(); cancel(); cancelAlloc() }
		if err = chromedp.Do(ctx); err == nil {
			t.Cleanup(stop)
			return ctx
		}
		stop()
		t.Logf("the browser did not start (attempt %d): %v", attempt, err)
	}
	t.Fatalf("the browser did not start: %v", err)
	return nil
}

// Person is a tab of its own browser context (its own cookies, as another
// person's browser) in the browser ctx runs.
func Person(t *testing.T, ctx context.Context) context.Context {
	t.Helper()
	if err := chromedp.Do(ctx); err != nil { // the browser is up
		t.Fatal(err)
	}
	tab, cancel := chromedp.NewContext(ctx, chromedp.WithNewBrowserContext())
	t.Cleanup(cancel)
	return tab
}
