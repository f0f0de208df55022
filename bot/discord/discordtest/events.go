package discordtest

// This file is the server's scheduled events ("Guild Scheduled Event" in
// Discord's reference): created only by a bot with Create Events (since
// 2026-02-23 Manage Events alone no longer does: change log 2025-11-24,
// "Permission Changes Going into Effect February 2026"), edited by the bot
// that made them (Create Events) or with Manage Events, checked field by
// field as Discord documents them, and moved through their statuses only as
// Discord allows.

import (
	"fmt"
	"net/http"
	"strconv"
	"time"
)

// Permission bits for events.
const (
	ManageEvents  int64 = 1 << 33
	CreateEvents  int64 = 1 << 44
	Administrator int64 = 1 << 3
)

// Scheduled event statuses.
const (
	EventScheduled = 1
	EventActive    = 2
	EventCompleted = 3
	EventCanceled  = 4
)

// Event is a scheduled event as the fake keeps it.
type Event struct {
	ID, GuildID, Name, Description, Location string
	Start, End                               time.Time
	Status                                   int
}

// SetGuildPermissions gives the bot server-wide permissions (a role's):
// they apply in every channel, and events need them.
func (s *Server) SetGuildPermissions(perms int64) {
	s.mu.Lock()
	s.guildPerms = perms
	s.mu.Unlock()
}

// Events returns the scheduled events, oldest first.
func (s *Server) Events() []Event {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Event, 0, len(s.events))
	for _, e := range s.events {
		out = append(out, *e)
	}
	return out
}

func (s *Server) eventRoute(method string, p []string, body map[string]any) (any, *apiError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if p[1] != s.GuildID {
		return nil, &apiError{404, 10004, "Unknown Guild"}
	}
	admin := s.guildPerms&Administrator != 0
	switch {
	case method == http.MethodPost && s.guildPerms&CreateEvents == 0 && !admin,
		method == http.MethodPatch && s.guildPerms&(CreateEvents|ManageEvents) == 0 && !admin:
		return nil, &apiError{403, 50013, "Missing Permissions"}
	}
	switch {
	case method == http.MethodPost && len(p) == 3:
		return s.createEvent(body)
	case method == http.MethodPatch && len(p) == 4:
		return s.editEvent(p[3], body)
	}
	return nil, &apiError{405, 0, "405: Method Not Allowed"}
}

func (s *Server) createEvent(body map[string]any) (any, *apiError) {
	var problems []string
	name, _ := body["name"].(string)
	if length(name) < 1 || length(name) > 100 {
		problems = append(problems, fmt.Sprintf("name of %d characters", length(name)))
	}
	if d, ok := body["description"].(string); ok && length(d) > 1000 {
		problems = append(problems, fmt.Sprintf("description of %d characters", length(d)))
	}
	if num(body["privacy_level"]) != 2 {
		problems = append(problems, "privacy_level must be 2 (GUILD_ONLY)")
	}
	start, err := time.Parse(time.RFC3339, fmt.Sprint(body["scheduled_start_time"]))
	switch {
	case err != nil:
		problems = append(problems, "scheduled_start_time is not an ISO8601 time")
	case !start.After(time.Now()):
		problems = append(problems, "Cannot schedule event in the past")
	}
	e := &Event{ID: s.id(), GuildID: s.GuildID, Name: name, Start: start, Status: EventScheduled}
	e.Description, _ = body["description"].(string)
	if num(body["entity_type"]) != 3 {
		problems = append(problems, "this fake knows EXTERNAL events (entity_type 3) only")
	} else {
		meta, _ := body["entity_metadata"].(map[string]any)
		e.Location, _ = meta["location"].(string)
		if length(e.Location) < 1 || length(e.Location) > 100 {
			problems = append(problems, "an EXTERNAL event needs entity_metadata.location of 1-100 characters")
		}
		if ch, ok := body["channel_id"]; ok && ch != nil {
			problems = append(problems, "an EXTERNAL event has no channel_id")
		}
		e.End, err = time.Parse(time.RFC3339, fmt.Sprint(body["scheduled_end_time"]))
		if err != nil || !e.End.After(start) {
			problems = append(problems, "an EXTERNAL event needs a scheduled_end_time after its start")
		}
	}
	if len(problems) > 0 {
		return nil, &apiError{400, 50035, fmt.Sprintf("Invalid Form Body: %v", problems)}
	}
	s.events = append(s.events, e)
	return eventObject(e), nil
}

// editEvent changes an event's status: SCHEDULED to ACTIVE or CANCELED,
// ACTIVE to COMPLETED, and nothing after COMPLETED or CANCELED.
func (s *Server) editEvent(id string, body map[string]any) (any, *apiError) {
	var e *Event
	for _, x := range s.events {
		if x.ID == id {
			e = x
		}
	}
	if e == nil {
		return nil, &apiError{404, 10070, "Unknown Guild Scheduled Event"}
	}
	if st, ok := body["status"]; ok {
		to := int(num(st))
		allowed := e.Status == EventScheduled && (to == EventActive || to == EventCanceled) ||
			e.Status == EventActive && to == EventCompleted
		if !allowed {
			return nil, &apiError{400, 50035, "Invalid Form Body: status " + strconv.Itoa(e.Status) + " cannot become " + strconv.Itoa(to)}
		}
		e.Status = to
	}
	return eventObject(e), nil
}

func eventObject(e *Event) map[string]any {
	return map[string]any{"id": e.ID, "guild_id": e.GuildID, "name": e.Name, "description": e.Description,
		"scheduled_start_time": e.Start.Format(time.RFC3339), "scheduled_end_time": e.End.Format(time.RFC3339),
		"privacy_level": 2, "status": e.Status, "entity_type": 3, "entity_metadata": map[string]any{"location": e.Location}}
}
