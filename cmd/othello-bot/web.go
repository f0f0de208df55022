package main

// This file serves the game pages: inside run and local when webAddress is
// set, or alone (othello-bot web) over the same database.

import (
	"context"
	"encoding/hex"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	botstorm "othello-bot/bot/storm"
	"othello-bot/config"
	"othello-bot/record"
	"othello-bot/storage"
	"othello-bot/web"
)

// pageInterval is how often live pages look for changed games.
const pageInterval = 250 * time.Millisecond

// pageURL gives a game page's public address, or nil without a publicURL.
func pageURL(publicURL string) func(string) string {
	if publicURL == "" {
		return nil
	}
	base := strings.TrimSuffix(publicURL, "/")
	return func(id string) string { return base + web.PagePath(id) }
}

// tournamentURL gives a tournament page's public address, or nil without
// a publicURL.
func tournamentURL(publicURL string) func(string) string {
	if publicURL == "" {
		return nil
	}
	base := strings.TrimSuffix(publicURL, "/")
	return func(id string) string { return base + web.TournamentPath(id) }
}

// SessionKeyEnv names the environment variable holding the key (hex, 32
// bytes or more) that signs players' sessions and private links: the same
// for every process that serves pages or gives links. Unset, each start
// makes its own, and links and sessions end with the process.
const SessionKeyEnv = "OTHELLO_SESSION_KEY"

// pagePlay is what lets players act on their pages: who they are, and the
// bot that plays for them.
type pagePlay struct {
	sessions *web.Sessions
	actor    web.Actor
	login    *web.DiscordLogin // nil: no "Log in with Discord"
	launcher web.Launcher      // starts games from the Activity
	storms   web.Storms        // Puzzle Storm, Streak and Racer on the pages
	now      func() time.Time  // the games' clock; nil: the machine's
}

// ClientSecretEnv names the environment variable holding the application's
// OAuth2 client secret, for "Log in with Discord" (never in the config
// file, which is often shared, nor in the log).
const ClientSecretEnv = "DISCORD_CLIENT_SECRET"

// discordLogin is "Log in with Discord" on the pages, when the client
// secret is in the environment and the pages have a public address (the
// redirect URI the Developer Portal must list is publicURL +
// login/discord/callback). Discord's consent page and API are at the
// configured discordAPI base, Discord itself unless a test's fake.
func discordLogin(c config.Config) *web.DiscordLogin {
	secret := os.Getenv(ClientSecretEnv)
	if secret == "" || c.PublicURL == "" || c.ApplicationID == "" {
		return nil
	}
	base := strings.TrimSuffix(c.DiscordAPI, "/")
	return &web.DiscordLogin{ClientID: c.ApplicationID, Secret: secret, AuthorizeURL: base + "/oauth2/authorize",
		APIBase: base + "/api/v10", RedirectURL: strings.TrimSuffix(c.PublicURL, "/") + "/login/discord/callback"}
}

// pageSessions signs players' sessions with the key from SessionKeyEnv.
func pageSessions() (*web.Sessions, bool, error) {
	v := os.Getenv(SessionKeyEnv)
	if v == "" {
		s, err := web.NewSessions(nil)
		return s, false, err
	}
	key, err := hex.DecodeString(strings.TrimSpace(v))
	if err != nil {
		return nil, false, fmt.Errorf("%s: not hex: %w", SessionKeyEnv, err)
	}
	s, err := web.NewSessions(key)
	if err != nil {
		return nil, false, fmt.Errorf("%s: %w", SessionKeyEnv, err)
	}
	return s, true, nil
}

// pageLink gives a player's private link to a game's page, or nil where
// it could not work: no publicURL, or pages served by another process that
// cannot share this one's key.
func pageLink(c config.Config, sessions *web.Sessions, keyShared bool) func(string, record.Player) string {
	if c.PublicURL == "" || sessions == nil || c.WebAddress == "" && !keyShared {
		return nil
	}
	base := strings.TrimSuffix(c.PublicURL, "/")
	return func(id string, p record.Player) string { return base + sessions.LoginPath(id, p) }
}

// stormLinks are the pages of runs and races.
type stormLinks struct {
	base     string
	sessions *web.Sessions
}

func (l stormLinks) RunLink(id int64, p record.Player) string {
	return l.base + l.sessions.RunLoginPath(id, p)
}

func (l stormLinks) RaceLink(id int64) string { return l.base + l.sessions.RacePath(id) }

// stormPages are the links to runs' and races' pages, or nil where this
// process does not serve them: they play through its bot, so a process
// that only serves pages (othello-bot web) has none.
func stormPages(c config.Config, sessions *web.Sessions) botstorm.Links {
	if c.PublicURL == "" || c.WebAddress == "" || sessions == nil {
		return nil
	}
	return stormLinks{base: strings.TrimSuffix(c.PublicURL, "/"), sessions: sessions}
}

// serveWeb serves the game pages on addr until ctx ends; it returns once
// listening (or failing to), then serves in the background. done is closed
// when the server has stopped.
func serveWeb(ctx context.Context, addr string, perAddress int, store *storage.Store, logger *slog.Logger, play *pagePlay) (done chan struct{}, err error) {
	pages := web.New(store, logger)
	pages.MaxWatchersPerAddress = perAddress
	if play != nil && play.now != nil {
		pages.Now = play.now
	}
	if play != nil {
		pages.EnablePlay(play.sessions, play.actor)
		if play.storms != nil {
			pages.EnableStorms(play.storms)
		}
		if play.login != nil {
			pages.EnableDiscordLogin(play.login)
			// The same board as a Discord Activity, under /activity/.
			pages.EnableActivity(play.login.ClientID, play.login, store, play.launcher)
		}
	}
	_, stop, err := serveAside(addr, pages, "game pages", logger)
	if err != nil {
		return nil, err
	}
	go pages.Run(ctx, pageInterval)
	done = make(chan struct{})
	go func() {
		<-ctx.Done()
		stop()
		close(done)
	}()
	return done, nil
}

// startWeb serves the game pages alongside a bot when addr is set; the
// returned func stops them and waits until they have.
func startWeb(ctx context.Context, c config.Config, store *storage.Store, logger *slog.Logger, play *pagePlay) (stop func(), err error) {
	addr := c.WebAddress
	if addr == "" {
		return func() {}, nil
	}
	if c.PublicURL == "" {
		// Served, but nothing can link to them: the first thing an
		// operator trying the pages meets (/board gives no link).
		hint := ""
		if _, here, err := tryPages(addr); err == nil {
			hint = " (on one machine: " + here + ")"
		}
		logger.Warn("web: webAddress is set but publicURL is not: the pages are served, but no message links to them; set publicURL to the address players reach them by" + hint)
	}
	ctx, cancel := context.WithCancel(ctx)
	done, err := serveWeb(ctx, addr, c.WebWatchersPerAddress, store, logger, play)
	if err != nil {
		cancel()
		return nil, err
	}
	return func() { cancel(); <-done }, nil
}

func runWeb(args []string, _ io.Reader, stdout io.Writer) error {
	fs := newFlags("web")
	df := addDataFlags(fs)
	addr := fs.String("addr", "", "address to serve on, like :8080 (default: the config's webAddress, else :8080)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	c, err := df.load()
	if err != nil {
		return err
	}
	if *addr == "" {
		*addr = c.WebAddress
	}
	if *addr == "" {
		*addr = ":8080"
	}
	logger := newLogger(c)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	store, err := openStore(ctx, c, logger)
	if err != nil {
		return err
	}
	defer closeStore(store, logger)
	// Alone, with no bot to play through, the pages are for watching.
	done, err := serveWeb(ctx, *addr, c.WebWatchersPerAddress, store, logger, nil)
	if err != nil {
		return err
	}
	_, stopAside, err := startAside(c, store, logger)
	if err != nil {
		return err
	}
	defer stopAside()
	fmt.Fprintf(stdout, "serving game pages on %s (Ctrl-C stops)\n", *addr)
	<-done
	return nil
}
