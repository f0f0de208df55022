package discordtest

// This file is interaction callbacks, webhooks (follow-ups, edits) and
// channel messages.

import (
	"fmt"
	"net/http"
	"strings"
	"time"
)

func (s *Server) callback(id, token string, body map[string]any, files []upload) (any, *apiError) {
	s.mu.Lock()
	ia, ok := s.interactions[token]
	s.mu.Unlock()
	if !ok || ia.ID != id {
		return nil, &apiError{404, 10062, "Unknown interaction"}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	ia.lastCall = time.Now()
	if ia.AckType != 0 {
		return nil, &apiError{400, 40060, "Interaction has already been acknowledged."}
	}
	after := time.Since(ia.sentAt)
	if after > AckLimit {
		return nil, &apiError{404, 10062, fmt.Sprintf("Unknown interaction (acknowledged after %s)", after.Round(time.Millisecond))}
	}
	typ := int(num(body["type"]))
	data, _ := body["data"].(map[string]any)
	switch typ {
	case 4, 7:
		if problems := messageProblems(data, files, false); len(problems) > 0 {
			return nil, &apiError{400, 50035, "Invalid Form Body: " + strings.Join(problems, "; ")}
		}
	case 8:
		choices, _ := data["choices"].([]any)
		if len(choices) > 25 {
			return nil, &apiError{400, 50035, "Invalid Form Body: over 25 choices"}
		}
		for _, c := range choices {
			if n, _ := c.(map[string]any)["name"].(string); length(n) < 1 || length(n) > 100 {
				return nil, &apiError{400, 50035, "Invalid Form Body: choice name length"}
			}
			ia.Choices = append(ia.Choices, c.(map[string]any))
		}
	case 5, 6:
	case 12:
		if err := s.launchActivity(ia); err != nil {
			return nil, err
		}
	default:
		return nil, &apiError{400, 50035, fmt.Sprintf("Invalid Form Body: response type %d", typ)}
	}
	if (typ == 6 || typ == 7) && ia.Kind != 3 {
		return nil, &apiError{400, 40043, "Interaction response type not allowed for this interaction"}
	}
	ia.AckType, ia.AckAfter = typ, after
	s.stats.WorstAck = max(s.stats.WorstAck, after)
	switch typ {
	case 4, 5:
		flags := int(num(data["flags"]))
		m := &Message{ID: s.id(), ChannelID: ia.ChannelID, Interaction: token, Ephemeral: flags&64 != 0, VisibleTo: ia.User.ID}
		if typ == 5 {
			m.Content = "othello is thinking…"
			ia.deferredPub = !m.Ephemeral
			ia.loading = true
		} else {
			s.apply(m, data, files, true)
			ia.resolved = true
		}
		s.messages[m.ID] = m
		s.order = append(s.order, m.ID)
		ia.Original = m.ID
	case 6, 7:
		ia.Original = ia.MessageID
		if typ == 7 {
			if m := s.messages[ia.MessageID]; m != nil {
				s.apply(m, data, files, false)
			}
			ia.resolved = true
		}
	case 8:
		ia.resolved = true
	}
	return nil, nil
}

func (s *Server) webhook(method string, p []string, body map[string]any, files []upload) (any, *apiError) {
	if p[1] != s.AppID {
		return nil, &apiError{404, 10015, "Unknown Webhook"}
	}
	s.mu.Lock()
	if ia, ok := s.interactions[p[2]]; ok && ia.posting != nil {
		// Discord has the HTTP answer once the bot has sent it; here the
		// goroutine reading it may lag a webhook call that follows it.
		posting := ia.posting
		s.mu.Unlock()
		select {
		case <-posting:
		case <-time.After(AckLimit):
		}
		s.mu.Lock()
	}
	defer s.mu.Unlock()
	ia, ok := s.interactions[p[2]]
	// A token lives 15 minutes from the interaction's creation, the
	// moment its id tells.
	if !ok || time.Since(idTime(ia.ID)) > TokenLife {
		s.violations = append(s.violations, fmt.Sprintf("%s on webhook of %s: the token is unknown or past its 15 minutes", method, p[2]))
		return nil, &apiError{401, 50027, "Invalid Webhook Token"}
	}
	ia.lastCall = time.Now()
	if ia.AckType == 0 {
		return nil, &apiError{404, 10015, "Unknown Webhook (the interaction was never acknowledged)"}
	}
	switch {
	case len(p) == 3 && method == http.MethodPost: // followup
		if problems := messageProblems(body, files, false); len(problems) > 0 {
			return nil, &apiError{400, 50035, "Invalid Form Body: " + strings.Join(problems, "; ")}
		}
		if ia.loading {
			// Discord edits the loading response instead (deprecated): the
			// message keeps the deferral's visibility, whatever the flags.
			s.violations = append(s.violations, fmt.Sprintf("follow-up on %s while its deferred response was loading: it edits the response", ia.Token))
			m := s.messages[ia.Original]
			s.apply(m, body, files, false)
			ia.loading, ia.resolved = false, true
			return s.render(m), nil
		}
		if ia.userInstallOnly() && ia.followups >= followupLimit {
			s.violations = append(s.violations, fmt.Sprintf("follow-up %d on %s, where a user install allows %d", ia.followups+1, ia.Token, followupLimit))
			return nil, &apiError{400, 40094, "Maximum number of follow up messages reached"}
		}
		ia.followups++
		flags := int(num(body["flags"]))
		m := &Message{ID: s.id(), ChannelID: ia.ChannelID, Interaction: ia.Token, Ephemeral: flags&64 != 0, VisibleTo: ia.User.ID}
		s.apply(m, body, files, true)
		s.messages[m.ID] = m
		s.order = append(s.order, m.ID)
		ia.resolved = true
		return s.render(m), nil
	case len(p) == 5 && p[3] == "messages":
		// The response ("@original") or a message sent with this token.
		id := p[4]
		if id == "@original" {
			id = ia.Original
		}
		m := s.messages[id]
		if m == nil || m.Deleted || m.Interaction != ia.Token && id != ia.Original {
			return nil, &apiError{404, 10008, "Unknown Message"}
		}
		original := id == ia.Original
		switch method {
		case http.MethodPatch:
			if problems := messageProblems(body, files, true); len(problems) > 0 {
				return nil, &apiError{400, 50035, "Invalid Form Body: " + strings.Join(problems, "; ")}
			}
			s.apply(m, body, files, false)
			if original {
				ia.resolved, ia.loading = true, false
			}
			return s.render(m), nil
		case http.MethodDelete:
			m.Deleted = true
			if original {
				ia.loading = false
			}
			return nil, nil
		}
	}
	return nil, &apiError{405, 0, "405: Method Not Allowed"}
}

func (s *Server) channelMessage(method string, p []string, body map[string]any, files []upload) (any, *apiError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	perms, ok := s.perms[p[1]]
	if r, dm := s.reaches[p[1]]; !ok && dm && r.context == contextBotDM && r.member {
		// The bot's own DM with a user, who opened it: a bot may post
		// there (Create Message on a DM channel) as in a channel of its own.
		perms, ok = ViewChannel|SendMessages|dmPermissions, true
	}
	if !ok {
		return nil, &apiError{404, 10003, "Unknown Channel"}
	}
	send := SendMessages
	if _, thread := s.threads[p[1]]; thread {
		send = SendMessagesInThreads // Send Messages has no effect in a thread
	}
	if perms&ViewChannel == 0 || method == http.MethodPost && perms&send == 0 {
		return nil, &apiError{403, 50013, "Missing Permissions"}
	}
	switch {
	case len(p) == 3 && method == http.MethodPost:
		if problems := messageProblems(body, files, false); len(problems) > 0 {
			return nil, &apiError{400, 50035, "Invalid Form Body: " + strings.Join(problems, "; ")}
		}
		m := &Message{ID: s.id(), ChannelID: p[1]}
		s.apply(m, body, files, true)
		s.messages[m.ID] = m
		s.order = append(s.order, m.ID)
		return s.render(m), nil
	case len(p) == 4 && method == http.MethodPatch:
		m := s.messages[p[3]]
		if m == nil || m.Deleted || m.ChannelID != p[1] {
			return nil, &apiError{404, 10008, "Unknown Message"}
		}
		if m.Ephemeral {
			return nil, &apiError{404, 10008, "Unknown Message"}
		}
		if problems := messageProblems(body, files, true); len(problems) > 0 {
			return nil, &apiError{400, 50035, "Invalid Form Body: " + strings.Join(problems, "; ")}
		}
		s.apply(m, body, files, false)
		return s.render(m), nil
	}
	return nil, &apiError{405, 0, "405: Method Not Allowed"}
}

// render is the message object Discord answers with, and sends as an
// interaction's message for a press on one of its components ("Receiving
// and Responding", Interaction Object: "message — for components, the
// message they were attached to"): every field the Message Object page
// marks as always present, the embeds and components as the bot sent them.
func (s *Server) render(m *Message) map[string]any {
	var edited any
	if !m.EditedAt.IsZero() {
		edited = m.EditedAt.UTC().Format(time.RFC3339Nano)
	}
	flags := 0
	if m.Ephemeral {
		flags = 64 // EPHEMERAL
	}
	return map[string]any{"id": m.ID, "channel_id": m.ChannelID, "content": m.Content, "type": 0,
		"author":    map[string]any{"id": s.AppID, "username": "othello", "discriminator": "0", "bot": true, "avatar": nil, "global_name": nil},
		"timestamp": idTime(m.ID).UTC().Format(time.RFC3339Nano), "edited_timestamp": edited,
		"tts": false, "mention_everyone": false, "mentions": []any{}, "mention_roles": []any{}, "attachments": []any{},
		"embeds": orEmpty(m.Embeds), "components": orEmpty(m.Components), "pinned": false, "flags": flags}
}

func orEmpty(v []map[string]any) []map[string]any {
	if v == nil {
		return []map[string]any{}
	}
	return v
}

// apply writes a message body into m (fields a PATCH leaves out stay as
// they were) and, for a new message, works out who it pings.
func (s *Server) apply(m *Message, body map[string]any, files []upload, created bool) {
	if _, ok := body["allowed_mentions"]; !ok {
		s.noMentions = append(s.noMentions, fmt.Sprintf("message %s sent without allowed_mentions: %.80q", m.ID, str(body["content"])))
	}
	if v, ok := body["content"]; ok {
		m.Content = str(v)
	}
	if v, ok := body["embeds"]; ok {
		m.Embeds = nil
		list, _ := v.([]any)
		for _, e := range list {
			m.Embeds = append(m.Embeds, e.(map[string]any))
		}
	}
	if v, ok := body["components"]; ok {
		m.Components = nil
		list, _ := v.([]any)
		for _, c := range list {
			m.Components = append(m.Components, c.(map[string]any))
		}
	}
	if _, ok := body["attachments"]; ok || len(files) > 0 {
		m.Files = nil
		for _, f := range files {
			m.Files = append(m.Files, f.name)
		}
	}
	if created || body["content"] != nil || body["embeds"] != nil {
		m.Edits++
		if !created {
			m.EditedAt = time.Now() // Discord's edited_timestamp: null until an edit
		}
	}
	s.measure(m)
	if created {
		s.pings = append(s.pings, pings(m.ID, m.Content, body["allowed_mentions"], s.mayPingRole(m.ChannelID)))
	}
}

func (s *Server) measure(m *Message) {
	s.stats.Messages++
	s.stats.MaxContent = max(s.stats.MaxContent, length(m.Content))
	for _, e := range m.Embeds {
		s.stats.MaxEmbedTotal = max(s.stats.MaxEmbedTotal, embedTotal(e))
		s.stats.MaxDescription = max(s.stats.MaxDescription, length(str(e["description"])))
		if f, ok := e["footer"].(map[string]any); ok {
			s.stats.MaxFooter = max(s.stats.MaxFooter, length(str(f["text"])))
		}
	}
}
