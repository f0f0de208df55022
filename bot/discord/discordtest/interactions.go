package discordtest

// This file is interactions as a user makes them (commands, clicks, selects)
// and what a test reads back: messages, replies, pings, violations.

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"time"
)

func (s *Server) member(u User) map[string]any {
	return map[string]any{"user": map[string]any{"id": u.ID, "username": u.Name, "global_name": u.Name, "bot": u.Bot},
		"nick": nilIfEmpty(u.Nick), "permissions": cmpOr(u.Permissions, "2199023255551"), "roles": roleList(u.Roles)}
}

func roleList(ids []string) []any {
	out := []any{}
	for _, id := range ids {
		out = append(out, id)
	}
	return out
}

func nilIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func (s *Server) newInteraction(kind int, u User, channel string, data map[string]any, message *Message) *Interaction {
	s.mu.Lock()
	// Discord stamps the interaction when it receives it; backdate makes
	// that moment earlier than the delivery, as a slow path to the bot does.
	ia := &Interaction{ID: s.idAt(time.Now().Add(-s.backdate)), Kind: kind, User: u, ChannelID: channel}
	ia.Token = "tok-" + ia.ID
	perms := s.perms[channel] | s.guildPerms
	s.interactions[ia.Token] = ia
	guild := s.guildOf(channel)
	payload := map[string]any{"id": ia.ID, "application_id": s.AppID, "type": kind, "data": data, "guild_id": guild,
		"channel_id": channel, "member": s.member(u), "token": ia.Token, "version": 1,
		"app_permissions": strconv.FormatInt(perms, 10), "locale": cmpOr(u.Locale, "en-US"), "guild_locale": cmpOr(s.guildLocales[guild], "en-US"),
		"channel": s.channelObject(channel)}
	ia.owners = s.owners(u, channel, message)
	payload["authorizing_integration_owners"] = ia.owners
	s.placePayload(payload, u, channel)
	if message != nil {
		ia.MessageID = message.ID
		payload["message"] = s.render(message)
	}
	ia.sentAt = time.Now()
	endpoint := s.endpoint
	s.mu.Unlock()
	if endpoint != "" {
		s.mu.Lock()
		ia.posting = make(chan struct{})
		s.mu.Unlock()
		go func() {
			defer close(ia.posting)
			s.post(ia, payload)
		}()
		return ia
	}
	s.dispatch(guild, "INTERACTION_CREATE", payload)
	return ia
}

// Command sends a slash command. Options are name to value; a User value
// is sent as a user option with its member resolved.
func (s *Server) Command(u User, channel, name string, options map[string]any) *Interaction {
	return s.command(2, u, channel, name, "", options, "")
}

// Subcommand sends a subcommand (/tournament create): Discord nests its
// options inside one option of type 1 named after it.
func (s *Server) Subcommand(u User, channel, name, sub string, options map[string]any) *Interaction {
	return s.command(2, u, channel, name, sub, options, "")
}

// UserCommand runs a user command (type 2) on target, as the member's
// context menu (Apps) does: data carries target_id and the target resolved.
func (s *Server) UserCommand(u User, channel, name string, target User) *Interaction {
	resolved := map[string]any{
		"users":   map[string]any{target.ID: map[string]any{"id": target.ID, "username": target.Name, "global_name": target.Name, "bot": target.Bot}},
		"members": map[string]any{target.ID: map[string]any{"nick": nilIfEmpty(target.Nick), "roles": []any{}}},
	}
	s.mu.Lock()
	var id any
	for _, scope := range []string{s.GuildID, ""} {
		for _, c := range s.commands[scope] {
			if c["name"] == name && commandType(c) == userCmd {
				id = c["id"]
			}
		}
	}
	s.mu.Unlock()
	if id == nil {
		s.violation("no user command %q is registered", name)
	}
	data := map[string]any{"id": id, "name": name, "type": userCmd, "target_id": target.ID, "resolved": resolved}
	return s.newInteraction(2, u, channel, data, nil)
}

// Autocomplete sends the typing of option focused in a command.
func (s *Server) Autocomplete(u User, channel, name string, options map[string]any, focused string) *Interaction {
	return s.command(4, u, channel, name, "", options, focused)
}

func (s *Server) command(kind int, u User, channel, name, sub string, options map[string]any, focused string) *Interaction {
	var opts []any
	resolved := map[string]any{"users": map[string]any{}, "members": map[string]any{}, "roles": map[string]any{}, "attachments": map[string]any{}}
	keys := make([]string, 0, len(options))
	for k := range options {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		o := map[string]any{"name": k}
		switch v := options[k].(type) {
		case User:
			o["type"], o["value"] = 6, v.ID
			resolved["users"].(map[string]any)[v.ID] = map[string]any{"id": v.ID, "username": v.Name, "global_name": v.Name, "bot": v.Bot}
			m := map[string]any{"nick": nilIfEmpty(v.Nick), "roles": []any{}}
			resolved["members"].(map[string]any)[v.ID] = m
		case RoleOption:
			o["type"], o["value"] = 8, v.ID
			s.mu.Lock()
			if r := s.resolvedRole(v.ID); r != nil {
				resolved["roles"].(map[string]any)[v.ID] = r
			}
			s.mu.Unlock()
		case Attachment:
			id := s.upload(v)
			o["type"], o["value"] = 11, id
			resolved["attachments"].(map[string]any)[id] = map[string]any{"id": id, "filename": v.Filename,
				"size": len(v.Content), "url": s.http.URL + "/attachments/" + id + "/" + v.Filename, "content_type": "text/plain; charset=utf-8"}
		case int:
			o["type"], o["value"] = 4, v
		case bool:
			o["type"], o["value"] = 5, v
		default:
			o["type"], o["value"] = 3, fmt.Sprint(v)
		}
		if k == focused {
			o["focused"] = true
		}
		opts = append(opts, o)
	}
	if sub != "" {
		opts = []any{map[string]any{"name": sub, "type": 1, "options": opts}}
	}
	data := map[string]any{"id": "4000000000000000001", "name": name, "type": 1, "options": opts, "resolved": resolved}
	s.mu.Lock()
	available := s.commandAvailable(u, channel, name)
	s.mu.Unlock()
	if !available {
		// Discord would not have offered the command there.
		s.violation("/%s is not offered to %s in channel %s as the commands are registered", name, u.Name, channel)
	}
	return s.newInteraction(kind, u, channel, data, nil)
}

// Click presses a button on a message.
func (s *Server) Click(u User, m *Message, customID string) *Interaction {
	return s.newInteraction(3, u, m.ChannelID, map[string]any{"custom_id": customID, "component_type": 2}, m)
}

// Select picks a value from a select menu on a message.
func (s *Server) Select(u User, m *Message, customID, value string) *Interaction {
	return s.newInteraction(3, u, m.ChannelID, map[string]any{"custom_id": customID, "component_type": 3,
		"values": []any{value}}, m)
}

// Wait waits until the bot has finished answering the interaction: it
// acknowledged it and, if it deferred, completed the reply, and then
// nothing more came for a moment.
func (ia *Interaction) wait(ctx context.Context, s *Server, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) && ctx.Err() == nil {
		s.mu.Lock()
		done := ia.AckType != 0 && (ia.resolved || ia.AckType == 4 || ia.AckType == 7 || ia.AckType == 8) &&
			time.Since(ia.lastCall) > 150*time.Millisecond
		s.mu.Unlock()
		if done {
			return nil
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("interaction %s (%d) not answered: %w", ia.Token, ia.Kind, err)
	}
	return fmt.Errorf("interaction %s (%d) not answered within %s", ia.Token, ia.Kind, timeout)
}

// Wait waits for the bot's whole answer to an interaction.
func (s *Server) Wait(ia *Interaction, timeout time.Duration) error {
	return ia.wait(context.Background(), s, timeout)
}

// WaitContext is Wait that gives up when ctx ends.
func (s *Server) WaitContext(ctx context.Context, ia *Interaction, timeout time.Duration) error {
	return ia.wait(ctx, s, timeout)
}

// AnsweredAfter is how long after it was sent the bot's last call about
// an interaction came (its whole answer, once Wait has returned).
func (s *Server) AnsweredAfter(ia *Interaction) time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return ia.lastCall.Sub(ia.sentAt)
}

// --- what tests look at ---

// Messages returns the channel's messages, oldest first, as a user sees
// them (ephemeral ones only for whom they are meant; "" sees all).
func (s *Server) Messages(channel, viewer string) []*Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []*Message
	for _, id := range s.order {
		m := s.messages[id]
		if m.ChannelID != channel || m.Deleted || m.Ephemeral && viewer != "" && m.VisibleTo != viewer {
			continue
		}
		c := *m
		out = append(out, &c)
	}
	return out
}

// Message returns a message by id.
func (s *Server) Message(id string) *Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	if m, ok := s.messages[id]; ok {
		c := *m
		return &c
	}
	return nil
}

// Reply returns the message that answers an interaction (its original
// response, or else its last followup).
func (s *Server) Reply(ia *Interaction) *Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	var last *Message
	for _, id := range s.order {
		m := s.messages[id]
		if m.Interaction == ia.Token && !m.Deleted {
			c := *m
			last = &c
			if id == ia.Original {
				return last
			}
		}
	}
	return last
}

// Followups returns the messages an interaction created after its first
// response.
func (s *Server) Followups(ia *Interaction) []*Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []*Message
	for _, id := range s.order {
		m := s.messages[id]
		if m.Interaction == ia.Token && id != ia.Original && !m.Deleted {
			c := *m
			out = append(out, &c)
		}
	}
	return out
}

// Violations lists every request the fake refused or found wrong.
func (s *Server) Violations() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append(append([]string{}, s.violations...), s.noMentions...)
}

// Pings lists who each created message notified.
func (s *Server) Pings() []Ping {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Ping{}, s.pings...)
}

// Stats returns the largest sizes seen.
func (s *Server) Stats() Stats {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stats
}

// AckTime is how long the bot took to acknowledge an interaction.
func (s *Server) AckTime(ia *Interaction) time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return ia.AckAfter
}

// AckKind is the type of the bot's first response to an interaction (0
// before it answered). Read it through here, not ia.AckType, when the wait
// may have failed: the fake writes it under its lock as the answer comes.
func (s *Server) AckKind(ia *Interaction) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return ia.AckType
}

// Commands returns the commands registered in a scope ("" is global).
func (s *Server) Commands(guild string) []map[string]any {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.commands[guild]
}

func (s *Server) violation(format string, args ...any) {
	s.mu.Lock()
	s.violations = append(s.violations, fmt.Sprintf(format, args...))
	s.mu.Unlock()
}

// --- REST ---
