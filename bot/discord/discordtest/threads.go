package discordtest

// This file is the fake's threads: opened off a text channel by the bot
// (POST /channels/{id}/threads, with THREAD_CREATE on the gateway), by a
// member (AddMemberThread, types 11 and 12), renamed and archived (PATCH
// /channels/{id}), deleted by a "moderator" (DeleteThread, which sends
// THREAD_DELETE), as Discord documents them.

import (
	"net/http"
	"strings"
)

// Thread permissions: opening public threads, and posting in any thread
// (inside a thread Send Messages has no effect; this is what counts).
const (
	CreatePublicThreads   int64 = 1 << 35
	SendMessagesInThreads int64 = 1 << 38
)

// Thread is a thread of the fake server.
type Thread struct {
	ID, Parent, Name string
	Type             int  // 11 public, 12 private
	ByMember         bool // opened by a member, not the bot
	Archived         bool
	Renames          int
	ArchiveCalls     int // requests that archived it
}

// AddMemberThread makes a thread a member opened off parent (private: type
// 12, else 11); the bot has the parent's permissions in it.
func (s *Server) AddMemberThread(parent, id string, private bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t := &Thread{ID: id, Parent: parent, Name: "a member's thread", Type: 11, ByMember: true}
	if private {
		t.Type = 12
	}
	if s.threads == nil {
		s.threads = map[string]*Thread{}
	}
	s.threads[id] = t
	s.perms[id] = s.perms[parent]
}

// channelObject is the partial channel Discord sends with an interaction.
func (s *Server) channelObject(id string) map[string]any {
	if t, ok := s.threads[id]; ok {
		return map[string]any{"id": id, "type": t.Type, "parent_id": t.Parent, "guild_id": s.guildOf(id)}
	}
	return map[string]any{"id": id, "type": 0, "guild_id": s.guildOf(id)}
}

var archiveDurations = map[int]bool{60: true, 1440: true, 4320: true, 10080: true}

// threadRoute answers the thread endpoints; ok is false for other paths.
func (s *Server) threadRoute(method string, p []string, body map[string]any) (any, *apiError, bool) {
	switch {
	case len(p) == 3 && p[0] == "channels" && p[2] == "threads" && method == http.MethodPost:
		out, err := s.startThread(p[1], body)
		if err == nil {
			// Discord tells the gateway of every new thread.
			thread := out.(map[string]any)
			s.dispatch(thread["guild_id"].(string), "THREAD_CREATE", thread)
		}
		return out, err, true
	case len(p) == 2 && p[0] == "channels" && method == http.MethodPatch:
		out, err := s.editThread(p[1], body)
		return out, err, true
	}
	return nil, nil, false
}

func (s *Server) startThread(parent string, body map[string]any) (any, *apiError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	perms, ok := s.perms[parent]
	if !ok {
		return nil, &apiError{404, 10003, "Unknown Channel"}
	}
	if s.threads[parent] != nil {
		return nil, &apiError{400, 50024, "Cannot execute action on this channel type"}
	}
	if perms&ViewChannel == 0 || perms&CreatePublicThreads == 0 {
		return nil, &apiError{403, 50013, "Missing Permissions"}
	}
	name, _ := body["name"].(string)
	if n := length(strings.TrimSpace(name)); n < 1 || n > 100 {
		return nil, &apiError{400, 50035, "Invalid Form Body: name must be 1-100 characters"}
	}
	if d, ok := body["auto_archive_duration"]; ok && !archiveDurations[int(num(d))] {
		return nil, &apiError{400, 50035, "Invalid Form Body: auto_archive_duration must be 60, 1440, 4320 or 10080"}
	}
	if t, ok := body["type"]; ok && int(num(t)) != 11 {
		return nil, &apiError{400, 50035, "Invalid Form Body: a thread without a message must be type 11 (or 12)"}
	}
	if _, ok := body["invitable"]; ok {
		// "invitable: only available when creating a private thread"
		// (Start Thread without Message): a public thread takes none.
		s.violations = append(s.violations, "a public thread was created with invitable, which only private threads take")
	}
	t := &Thread{ID: s.id(), Parent: parent, Name: name, Type: 11}
	if s.threads == nil {
		s.threads = map[string]*Thread{}
	}
	s.threads[t.ID] = t
	s.perms[t.ID] = perms // a thread has its channel's permissions
	return s.threadObject(t), nil
}

func (s *Server) editThread(id string, body map[string]any) (any, *apiError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.threads[id]
	if t == nil {
		return nil, &apiError{404, 10003, "Unknown Channel"}
	}
	if v, ok := body["name"]; ok {
		name, _ := v.(string)
		if n := length(strings.TrimSpace(name)); n < 1 || n > 100 {
			return nil, &apiError{400, 50035, "Invalid Form Body: name must be 1-100 characters"}
		}
		t.Name = name
		t.Renames++
	}
	if v, ok := body["archived"].(bool); ok {
		if v {
			t.ArchiveCalls++
		}
		t.Archived = v
	}
	return s.threadObject(t), nil
}

func (s *Server) threadObject(t *Thread) map[string]any {
	return map[string]any{"id": t.ID, "type": t.Type, "guild_id": s.guildOf(t.Parent), "parent_id": t.Parent, "name": t.Name,
		"thread_metadata": map[string]any{"archived": t.Archived, "auto_archive_duration": 10080, "locked": false}}
}

// Threads returns the threads the bot opened, oldest first.
func (s *Server) Threads() []Thread {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Thread
	for _, t := range s.threads {
		out = append(out, *t)
	}
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j].ID < out[j-1].ID; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// DeleteThread deletes a thread, as a moderator might, and tells the bot.
func (s *Server) DeleteThread(id string) {
	s.mu.Lock()
	t := s.threads[id]
	delete(s.threads, id)
	delete(s.perms, id)
	guild := ""
	if t != nil {
		guild = s.guildOf(t.Parent)
	}
	s.mu.Unlock()
	if t != nil {
		s.dispatch(guild, "THREAD_DELETE", map[string]any{"id": t.ID, "guild_id": guild, "parent_id": t.Parent, "type": 11})
	}
}
