// Package local runs the bot in a terminal: each input line is a slash
// command, a click, a select or a wait, from a named user; each bot message
// is printed as Discord would show it. It drives the same bot.Service, store
// and results log as the Discord adapter; only the transport differs.
package local

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"othello-bot/bot"
	"othello-bot/catalog"
	"othello-bot/lineio"
	"othello-bot/record"
)

// Channel and guild the terminal plays in.
const (
	ChannelID = "terminal"
	GuildID   = "local"
)

// Clock is a clock that only moves when told: `wait 11m` moves it on.
type Clock struct {
	mu  sync.Mutex
	now time.Time
}

// NewClock starts a clock at t.
func NewClock(t time.Time) *Clock { return &Clock{now: t.UTC()} }

func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Advance moves the clock on.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// shown is a message printed so far, kept for click and select.
type shown struct {
	id      int
	msg     bot.Message
	visible string // the only user who sees it, for ephemeral messages
	channel string
}

// thread is a thread the bot opened.
type thread struct {
	parent, name string
	archived     bool
}

// Adapter is the terminal transport. It is also the service's Notifier.
type Adapter struct {
	svc         Service
	Clock       *Clock
	DefaultUser string
	// ImageDir is where attached board pictures are saved.
	ImageDir string
	// SearchPuzzles makes each wait search finished games for puzzles, as
	// a running bot does in the background (off in tests, which ask).
	SearchPuzzles bool
	// ShutdownGrace is how long a line in flight may go on after Run's
	// context is cancelled.
	ShutdownGrace time.Duration
	// Locale is the terminal's language: its own lines, the local
	// server's Discord language, and every user's unless a "locale" line
	// gives theirs (Discord's locale codes: "en-US", "ja").
	Locale string

	mu       sync.Mutex
	out      io.Writer
	messages []*shown
	granted  map[string]int64  // the member permissions given by name (moderator, admin)
	locales  map[string]string // a user's Discord language, by name
	threads  map[string]*thread
	nthreads int
	// run makes message ids unique across runs on one database: a timer
	// that edits a message from an earlier run must not hit this run's
	// message with the same number.
	run string
}

// New returns an adapter printing to out. Give it its service with
// SetService before Run, as the Discord adapter takes its.
func New(out io.Writer, clock *Clock, defaultUser string) *Adapter {
	if defaultUser == "" {
		defaultUser = "you"
	}
	return &Adapter{out: out, Clock: clock, DefaultUser: defaultUser, ImageDir: "boards", ShutdownGrace: 30 * time.Second,
		run: strconv.FormatInt(time.Now().UnixNano(), 36)}
}

// maxPuzzleSearch is how many finished games one wait searches for puzzles.
const maxPuzzleSearch = 20

// Service is what the terminal drives: the core service with its
// capabilities and their timed work (app.App is one).
type Service interface {
	Handle(ctx context.Context, req bot.Request) bot.Response
	Posted(ctx context.Context, channelID string, m *bot.Message, messageID string)
	ChannelDeleted(ctx context.Context, channelID string)
	// Tick runs the timed work that is due (the terminal's clock moves
	// only with wait).
	Tick(ctx context.Context)
	// SearchPuzzles searches up to n finished games for puzzles.
	SearchPuzzles(ctx context.Context, n int) (int, error)
	WaitAnalyses()
	Shutdown()
}

// SetService gives the adapter the command logic.
func (a *Adapter) SetService(svc Service) { a.svc = svc }

// Service returns the command logic the adapter drives.
func (a *Adapter) Service() Service { return a.svc }

// Run reads input lines until the end, answering each, then shuts the
// service down once everything in flight is done.
//
// A cancelled ctx (SIGINT, SIGTERM) stops the reading; the line being
// handled still finishes, for up to ShutdownGrace.
func (a *Adapter) Run(ctx context.Context, in io.Reader) error {
	work, cancel := bot.Detach(ctx, a.ShutdownGrace)
	defer cancel()
	a.note("%s", a.t().T("local.welcome"))
	lines := lineio.New(in, 0)
	for {
		line, err := lines.Next()
		var tooLong *lineio.TooLongError
		switch {
		case errors.Is(err, io.EOF):
			// The input is done, not the work it asked for: analyses
			// finish before the terminal closes.
			a.svc.WaitAnalyses()
			a.svc.Shutdown()
			return nil
		case errors.As(err, &tooLong):
			a.note("(%v)", err)
			continue
		case err != nil:
			a.svc.Shutdown()
			return fmt.Errorf("reading input: %w", err)
		}
		if ctx.Err() != nil || isQuit(line) {
			a.svc.Shutdown()
			return nil
		}
		a.Line(work, line)
	}
}

// Line handles one input line.
func (a *Adapter) Line(ctx context.Context, line string) {
	user, text := a.DefaultUser, strings.TrimSpace(line)
	if text == "" {
		return
	}
	if speaker, _, ok := strings.Cut(text, ":"); strings.HasPrefix(text, "#") && !(ok && validSpeaker(speaker)) {
		return // a comment; "#lobby: /start" is a line in #lobby
	}
	if name, rest, ok := strings.Cut(text, ":"); ok && !strings.HasPrefix(text, "/") && validSpeaker(name) {
		user, text = strings.TrimSpace(name), strings.TrimSpace(rest)
		if strings.HasPrefix(user, "#") { // "#lobby: /start": the default user
			user = a.DefaultUser + " " + user
		}
	}
	player := record.Player{ID: user, Name: user}
	channel := ChannelID
	if name, rest, ok := strings.Cut(user, " #"); ok && validName(name) && validName(rest) {
		user, channel = name, rest
		player = record.Player{ID: user, Name: user}
	}
	req := bot.Request{User: player, GuildID: GuildID, ChannelID: channel, Locale: a.Locale, GuildLocale: a.Locale}
	a.mu.Lock()
	if th := a.threads[channel]; th != nil { // as Discord says with the interaction's channel
		req.InThread, req.ParentID = true, th.parent
	}
	req.MemberPermissions = a.granted[user]
	if l, ok := a.locales[user]; ok {
		req.Locale = l
	}
	a.mu.Unlock()
	t := a.t()
	word, rest, _ := strings.Cut(text, " ")
	rest = strings.TrimSpace(rest)
	var target *shown
	switch {
	case strings.EqualFold(text, "help"):
		a.note("%s", t.T("local.help"))
		return
	case strings.HasPrefix(text, "/"):
		req.Kind = bot.Command
		req.Command, req.Options, req.UserNames = parseCommand(text)
		req.Command, req.Subcommand, _ = strings.Cut(req.Command, " ")
		req.Options = bot.CanonicalOptions(req.Path(), req.Options)
	case word == "click":
		req.Kind = bot.Button
		target = a.find(user, channel, func(m *shown) bool {
			for _, row := range m.msg.Components {
				for _, b := range row.Buttons {
					if strings.EqualFold(b.Label, rest) && !b.Disabled {
						req.CustomID = b.CustomID
						return true
					}
				}
			}
			return false
		})
		if target == nil {
			a.note("%s", t.T("local.no_button", "Label", strconv.Quote(rest), "User", user))
			return
		}
	case word == "select":
		req.Kind = bot.Select
		target = a.find(user, channel, func(m *shown) bool {
			for _, row := range m.msg.Components {
				if row.Menu != nil {
					req.CustomID = row.Menu.CustomID
					return true
				}
			}
			return false
		})
		if target == nil {
			a.note("%s", t.T("local.no_menu", "User", user))
			return
		}
		req.Values = []string{rest}
	case word == "moderator":
		a.grant(rest, bot.PermManageMessages|bot.PermManageThreads, "local.moderator", "local.moderator_usage")
		return
	case word == "admin":
		a.grant(rest, bot.PermManageGuild, "local.admin", "local.admin_usage")
		return
	case word == "locale":
		who, loc, _ := strings.Cut(rest, " ")
		loc = strings.TrimSpace(loc)
		if !validName(who) || loc == "" {
			a.note("%s", t.T("local.locale_usage"))
			return
		}
		a.mu.Lock()
		if a.locales == nil {
			a.locales = map[string]string{}
		}
		a.locales[who] = loc
		a.mu.Unlock()
		a.note("%s", t.T("local.locale", "User", who, "Locale", loc))
		return
	case word == "delete":
		id := strings.TrimPrefix(rest, "#")
		a.mu.Lock()
		_, ok := a.threads[id]
		delete(a.threads, id)
		var children []string
		if !ok && id != "" {
			// A channel: its threads go with it, as on Discord.
			for tid, th := range a.threads {
				if th.parent == id {
					children = append(children, tid)
					delete(a.threads, tid)
				}
			}
			sort.Strings(children)
		}
		a.mu.Unlock()
		switch {
		case ok:
			a.note("%s", t.T("local.deleted", "Thread", id))
		case id == "" || strings.HasPrefix(id, threadPrefix):
			a.note("%s", t.T("local.delete_usage", "Example", threadPrefix+"1"))
			return
		default:
			a.note("%s", t.T("local.deleted_channel", "Channel", id))
		}
		a.svc.ChannelDeleted(ctx, id)
		for _, tid := range children {
			a.svc.ChannelDeleted(ctx, tid)
		}
		return
	case word == "wait":
		d, err := time.ParseDuration(rest)
		if err != nil || d < 0 {
			a.note("%s", t.T("local.wait_usage"))
			return
		}
		a.Clock.Advance(d)
		a.note("%s", t.T("local.later", "Duration", t.Duration(d)))
		a.svc.Tick(ctx)
		// Time passing is when a running bot searches finished games for
		// puzzles.
		if !a.SearchPuzzles {
			return
		}
		if _, err := a.svc.SearchPuzzles(ctx, maxPuzzleSearch); err != nil {
			a.note("%s", t.T("local.puzzles_failed"))
		}
		return
	default:
		a.note("%s", t.T("local.not_understood", "Line", strconv.Quote(text)))
		return
	}
	resp := a.svc.Handle(ctx, req)
	if m := resp.Message; m != nil {
		shown := target
		if resp.Update && target != nil {
			a.replace(target, *m, user)
		} else {
			shown = a.show(*m, user, channel)
		}
		a.svc.Posted(ctx, req.ChannelID, m, a.id(shown))
	}
	for i := range resp.Followups {
		m := &resp.Followups[i]
		a.svc.Posted(ctx, req.ChannelID, m, a.id(a.show(*m, user, channel)))
	}
}

// id is the message id the service knows a shown message by.
func (a *Adapter) id(s *shown) string { return a.run + "." + strconv.Itoa(s.id) }

// validSpeaker is what may stand before the colon of a line: a user name,
// a channel (#lobby), or both (alice #lobby).
func validSpeaker(s string) bool {
	user, channel, hasChannel := strings.Cut(strings.TrimSpace(s), "#")
	user = strings.TrimSpace(user)
	if !hasChannel {
		return validName(user)
	}
	return (user == "" || validName(user)) && validName(channel)
}

func validName(s string) bool {
	if s == "" || len(s) > 32 {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' || r == '.') {
			return false
		}
	}
	return true
}

// parseCommand reads "/name opt:value opt:@user ..." or, for a command of
// subcommands, "/name sub opt:value ..." (returned as "name sub"). A value
// runs to the next option.
func parseCommand(text string) (string, map[string]string, map[string]string) {
	fields := strings.Fields(strings.TrimPrefix(text, "/"))
	opts, users := map[string]string{}, map[string]string{}
	if len(fields) == 0 {
		return "", opts, users
	}
	cmd := strings.ToLower(fields[0])
	if c, ok := bot.LookupLocalized(cmd); ok {
		cmd = c // a command typed by its name in another language
	}
	args := fields[1:]
	if c, ok := bot.LookupCommand(cmd); ok && len(c.Subcommands) > 0 && len(args) > 0 && !strings.Contains(args[0], ":") {
		sub := strings.ToLower(args[0])
		if s, found := c.Sub(sub); found {
			sub = s.Name
		}
		cmd, args = cmd+" "+sub, args[1:]
	}
	last := ""
	for _, f := range args {
		name, value, ok := strings.Cut(f, ":")
		if !ok && last != "" && !strings.HasPrefix(f, "@") {
			// Words after an option's value go on with it, as a text
			// option may hold spaces: /abort reason:asked for it.
			opts[last] += " " + f
			continue
		}
		if !ok {
			// A bare value fills the command's first option: /move d3.
			name, value = "", f
		}
		last = name
		if strings.HasPrefix(value, "@") {
			value = strings.TrimPrefix(value, "@")
			users[value] = value
		}
		opts[name] = value
	}
	if v, ok := opts[""]; ok {
		delete(opts, "")
		// A bare value fills the command's first option, as Discord's
		// client fills the first one typed.
		if c, known := bot.LookupCommand(cmd); known && len(c.Options) > 0 {
			if first := c.Options[0].Name; opts[first] == "" {
				opts[first] = v
			}
		}
	}
	return cmd, opts, users
}

func (a *Adapter) find(user, channel string, match func(*shown) bool) *shown {
	a.mu.Lock()
	defer a.mu.Unlock()
	for i := len(a.messages) - 1; i >= 0; i-- {
		m := a.messages[i]
		if m.channel == channel && (m.visible == "" || m.visible == user) && match(m) {
			return m
		}
	}
	return nil
}

func (a *Adapter) note(format string, args ...any) {
	a.mu.Lock()
	defer a.mu.Unlock()
	fmt.Fprintf(a.out, format+"\n", args...)
}

func (a *Adapter) show(m bot.Message, user, channel string) *shown {
	a.mu.Lock()
	defer a.mu.Unlock()
	if t := a.threads[channel]; t != nil && t.archived {
		t.archived = false // a message in an archived thread reopens it, as on Discord
	}
	s := &shown{id: len(a.messages) + 1, msg: m, channel: channel}
	if m.Ephemeral {
		s.visible = user
	}
	a.messages = append(a.messages, s)
	a.print(s, false)
	s.msg.Files = dropData(s.msg.Files)
	return s
}

// dropData forgets pictures once they are saved: kept, they would pile up
// (tens of MB after a long session of large boards).
func dropData(files []bot.File) []bot.File {
	out := make([]bot.File, len(files))
	for i, f := range files {
		out[i] = bot.File{Name: f.Name}
	}
	return out
}

func (a *Adapter) replace(s *shown, m bot.Message, user string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	s.msg = m
	if m.Ephemeral {
		s.visible = user
	}
	a.print(s, true)
	s.msg.Files = dropData(s.msg.Files)
}

// grant gives a member permissions, as a server's roles would, and says
// so with the catalog message done (or usage, for a line without a valid
// name).
func (a *Adapter) grant(user string, perms int64, done, usage string) {
	if !validName(user) {
		a.note("%s", a.t().T(usage))
		return
	}
	a.mu.Lock()
	if a.granted == nil {
		a.granted = map[string]int64{}
	}
	a.granted[user] |= perms
	a.mu.Unlock()
	a.note("%s", a.t().T(done, "User", user))
}

// t writes the terminal's own lines, in its language.
func (a *Adapter) t() *catalog.Printer { return catalog.For(catalog.FromLocale(a.Locale)) }

func isQuit(line string) bool {
	t := strings.ToLower(strings.TrimSpace(line))
	return t == "quit" || t == "exit"
}

// print writes a message as Discord would show it, markdown bold removed.
func (a *Adapter) print(s *shown, edited bool) {
	var b strings.Builder
	tr := a.t()
	head := tr.T("local.message", "N", s.id)
	if t := a.threads[s.channel]; t != nil {
		head += tr.T("local.in_thread", "Thread", s.channel, "Name", t.name)
	} else if s.channel != ChannelID {
		head += tr.T("local.in_channel", "Channel", s.channel)
	}
	if edited {
		head += tr.T("local.edited")
	}
	if s.visible != "" {
		head += tr.T("local.only_visible", "User", s.visible)
	}
	b.WriteString("--- " + head + " ---\n")
	m := s.msg
	if m.Content != "" {
		b.WriteString(m.Content + "\n")
	}
	if e := m.Embed; e != nil {
		if e.Title != "" {
			b.WriteString("== " + e.Title + " ==\n")
		}
		if e.URL != "" {
			b.WriteString(tr.T("local.watch", "URL", e.URL) + "\n")
		}
		if e.Description != "" {
			b.WriteString(e.Description + "\n")
		}
		for _, f := range e.Fields {
			b.WriteString(f.Name + ": " + f.Value + "\n")
		}
		if e.Footer != "" {
			b.WriteString(e.Footer + "\n")
		}
	}
	for _, row := range m.Components {
		if row.Menu != nil {
			vals := make([]string, len(row.Menu.Options))
			for i, o := range row.Menu.Options {
				vals[i] = o.Value
			}
			b.WriteString("<select: " + strings.Join(vals, " | ") + ">\n")
		}
		var btns []string
		for _, bt := range row.Buttons {
			btns = append(btns, "["+bt.Label+"]")
		}
		if len(btns) > 0 {
			b.WriteString(strings.Join(btns, " ") + "\n")
		}
	}
	for _, f := range m.Files {
		b.WriteString(tr.T("local.attachment", "Path", a.save(f)) + "\n")
	}
	fmt.Fprint(a.out, a.plain(b.String()))
}

var (
	timestampRE = regexp.MustCompile(`<t:(-?\d+):([tTdDfFR])>`)
	mentionRE   = regexp.MustCompile(`<@!?([^>]+)>`)
	channelRE   = regexp.MustCompile(`<#([^>]+)>`)
	linkRE      = regexp.MustCompile(`\[([^\]]+)\]\([^)]+\)`)
	escapedRE   = regexp.MustCompile(`\\([^0-9A-Za-z\s])`)
)

// plain turns Discord's markup into what a reader sees: bold marks
// dropped, escapes undone, mentions as @name, timestamps in words.
func (a *Adapter) plain(s string) string {
	s = strings.ReplaceAll(s, "**", "")
	s = timestampRE.ReplaceAllStringFunc(s, func(m string) string {
		parts := timestampRE.FindStringSubmatch(m)
		unix, _ := strconv.ParseInt(parts[1], 10, 64)
		t := time.Unix(unix, 0).UTC()
		if parts[2] == "R" {
			return relative(a.t(), t.Sub(a.Clock.Now()))
		}
		return t.Format(a.t().T("local.date_layout"))
	})
	s = mentionRE.ReplaceAllString(s, "@$1")
	s = channelRE.ReplaceAllString(s, "#$1")
	s = linkRE.ReplaceAllString(s, "$1") // the terminal has nowhere to link to
	s = escapedRE.ReplaceAllString(s, "$1")
	return strings.ReplaceAll(s, "\u200b", "")
}

// relative says how far off a time is, as Discord's relative timestamps
// do in the reader's language: "in 10 minutes", "3 hours ago", "10分後".
func relative(tr *catalog.Printer, d time.Duration) string {
	past := d < 0
	if past {
		d = -d
	}
	if d < time.Second {
		return tr.T("local.just_now") // as Discord says it
	}
	n, unit := int((d.Seconds() + 0.5)), "unit.second"
	for _, u := range []struct {
		size time.Duration
		id   string
	}{{24 * time.Hour, "unit.day"}, {time.Hour, "unit.hour"}, {time.Minute, "unit.minute"}} {
		if d >= u.size {
			n, unit = int((d+u.size/2)/u.size), u.id
			break
		}
	}
	span := tr.T(unit, "Count", n)
	if past {
		return tr.T("local.ago", "Span", span)
	}
	return tr.T("local.in", "Span", span)
}

// save writes an attachment to ImageDir and returns its path (or why not).
func (a *Adapter) save(f bot.File) string {
	path := filepath.Join(a.ImageDir, filepath.Base(f.Name))
	if err := os.MkdirAll(a.ImageDir, 0o755); err != nil {
		return a.t().T("local.not_saved", "File", f.Name, "Err", err.Error())
	}
	if err := os.WriteFile(path, f.Data, 0o644); err != nil {
		return a.t().T("local.not_saved", "File", f.Name, "Err", err.Error())
	}
	return path
}

// Send posts a message in the terminal channel (the Notifier side).
func (a *Adapter) Send(_ context.Context, channelID string, m bot.Message) (string, error) {
	a.mu.Lock()
	gone := a.threads[channelID] == nil && strings.HasPrefix(channelID, threadPrefix)
	a.mu.Unlock()
	if gone {
		return "", fmt.Errorf("no channel %q: it was deleted", channelID)
	}
	return a.id(a.show(m, "", channelID)), nil
}

// threadPrefix starts the ids of the threads the terminal opens.
const threadPrefix = "thread-"

// CreateThread opens a thread off a channel. Its id is "thread-", a piece
// of the run's id and a number, so a restarted terminal never reuses the id
// of an old game's thread.
func (a *Adapter) CreateThread(_ context.Context, parentID, name string) (string, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.threads[parentID] != nil {
		return "", bot.ErrThreadsNotAllowed // no thread in a thread, as on Discord
	}
	if a.threads == nil {
		a.threads = map[string]*thread{}
	}
	a.nthreads++
	id := threadPrefix + a.run[len(a.run)-4:] + "-" + strconv.Itoa(a.nthreads)
	a.threads[id] = &thread{parent: parentID, name: name}
	fmt.Fprintln(a.out, a.t().T("local.thread_opened", "Thread", id, "Channel", parentID, "Name", name))
	return id, nil
}

// ArchiveThread archives a thread: it stays readable and reopens when
// someone posts in it.
func (a *Adapter) ArchiveThread(_ context.Context, threadID string) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	t := a.threads[threadID]
	if t == nil {
		return fmt.Errorf("no thread %q", threadID)
	}
	t.archived = true
	fmt.Fprintf(a.out, "(thread #%s archived: %s)\n", threadID, t.name)
	return nil
}

// RemoveComponents takes the menu and buttons off a message, quietly, as
// Discord does.
func (a *Adapter) RemoveComponents(_ context.Context, channelID, messageID string) error {
	s, err := a.lookup(messageID)
	if err != nil {
		return err
	}
	a.mu.Lock()
	s.msg.Components = nil
	a.mu.Unlock()
	return nil
}

// EditReply has nothing to do in a terminal: replies here are never left
// unfinished across runs.
func (a *Adapter) EditReply(context.Context, string, bot.Message) (string, error) {
	return "", errors.New("the terminal has no interaction tokens")
}

func (a *Adapter) lookup(messageID string) (*shown, error) {
	run, num, _ := strings.Cut(messageID, ".")
	id, err := strconv.Atoi(num)
	a.mu.Lock()
	defer a.mu.Unlock()
	if run != a.run || err != nil || id < 1 || id > len(a.messages) {
		return nil, fmt.Errorf("no message %q in this run", messageID)
	}
	return a.messages[id-1], nil
}

// Edit replaces a message shown earlier.
func (a *Adapter) Edit(_ context.Context, channelID, messageID string, m bot.Message) error {
	s, err := a.lookup(messageID)
	if err != nil {
		return err
	}
	a.replace(s, m, s.visible)
	return nil
}
