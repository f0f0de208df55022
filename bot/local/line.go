package local

// This file reads one input line: who says it, in which channel, and what it
// asks of the bot.

import (
	"context"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"

	"othello-bot/bot"
	"othello-bot/record"
)

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
		req.Options = a.svc.CanonicalOptions(req.Path(), req.Options)
	case word == "click":
		req.Kind = bot.Button
		target = a.find(user, channel, func(m *shown) bool {
			for _, row := range m.msg.Components {
				for _, b := range row.Buttons {
					if strings.EqualFold(b.Label, rest) && !b.Disabled && b.URL == "" {
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
		a.note("%s", t.T("local.later", "Duration", t.Duration(d)))
		// Time passes as it does for a running bot: a short wait a second
		// at a time, so what falls due inside it (a low-time ping, then the
		// flag) comes in its order; a long one at once.
		step := d
		if d <= maxSteppedWait {
			step = time.Second
		}
		for left := d; ; left -= step {
			a.Clock.Advance(min(step, left))
			a.svc.Tick(ctx)
			if left <= step {
				break
			}
		}
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
	if target != nil { // the message a component was on, as Discord gives it
		req.MessageID = a.id(target)
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
	resp.Delivered()
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

// optionName reports whether s may name an option: letters (of any
// language: 棋譜), digits, - and _.
func optionName(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' && r != '-' {
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
		if ok && !optionName(name) {
			// A colon inside a value (a record's "20:13:30") starts
			// no option.
			ok = false
		}
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
