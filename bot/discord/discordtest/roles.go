package discordtest

// This file is the fake's roles, as Discord documents them (resources/guild
// "Create Guild Role", "Add Guild Member Role", "Remove Guild Member Role";
// topics/permissions "Permission Hierarchy"): creating a role, or giving
// and taking one from a member, needs Manage Roles, and a bot may only
// give or take roles below its own highest role; a new role comes in at
// position 1, just above @everyone, and the roles at or above it move up
// one; a server has at most 250 roles.

import (
	"net/http"
	"slices"
)

// ManageRoles is the permission roles need.
const ManageRoles int64 = 1 << 28

// MaxRoles is the most roles a server may have.
const MaxRoles = 250

// MentionEveryone lets its holder ping @everyone, @here and every role,
// mentionable or not.
const MentionEveryone int64 = 1 << 17

// Role is a server role as the fake keeps it. Only a mentionable role's
// mention notifies its members, unless its author has Mention Everyone.
type Role struct {
	ID, Name    string
	Position    int
	Mentionable bool
}

// SetMentionable makes a role mentionable by anyone, or not.
func (s *Server) SetMentionable(roleID string, on bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, r := range s.roles.list {
		if r.ID == roleID {
			r.Mentionable = on
		}
	}
}

// RoleOption is a role given as a command's option: sent with the role
// resolved, as Discord sends it.
type RoleOption struct{ ID string }

// mayPingRole says which roles the bot's message in a channel may notify
// (s.mu held).
func (s *Server) mayPingRole(channel string) func(string) bool {
	perms := s.perms[channel] | s.guildPerms
	return func(id string) bool {
		if perms&MentionEveryone != 0 {
			return true
		}
		i := slices.IndexFunc(s.roles.list, func(r *Role) bool { return r.ID == id })
		return i >= 0 && s.roles.list[i].Mentionable
	}
}

// resolvedRole is a role as an interaction's resolved data gives it
// (s.mu held); nil for a role the server does not have.
func (s *Server) resolvedRole(id string) map[string]any {
	if id == s.GuildID { // @everyone's id is the server's
		return roleObject(&Role{ID: id, Name: "@everyone"})
	}
	for _, r := range s.roles.list {
		if r.ID == id {
			return roleObject(r)
		}
	}
	return nil
}

type roleState struct {
	list    []*Role
	botTop  int                        // the position of the bot's highest role
	members map[string]map[string]bool // user -> role ids; a member with no entry is no member
}

func (r *roleState) init() {
	if r.members == nil {
		r.members = map[string]map[string]bool{}
		r.botTop = 1 // the bot's own role, above @everyone
	}
}

// AddMembers makes users members of the fake server (with no roles).
func (s *Server) AddMembers(users ...User) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.roles.init()
	for _, u := range users {
		if s.roles.members[u.ID] == nil {
			s.roles.members[u.ID] = map[string]bool{}
		}
	}
}

// AddRole makes a role as the server's admins would, at a position (the
// bot's role is at BotRolePosition); it returns the role's id.
func (s *Server) AddRole(name string, position int) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.roles.init()
	r := &Role{ID: s.id(), Name: name, Position: position}
	s.roles.list = append(s.roles.list, r)
	return r.ID
}

// SetBotRolePosition moves the bot's highest role.
func (s *Server) SetBotRolePosition(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.roles.init()
	s.roles.botTop = n
}

// Roles returns the server's roles.
func (s *Server) Roles() []Role {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Role, 0, len(s.roles.list))
	for _, r := range s.roles.list {
		out = append(out, *r)
	}
	return out
}

// MemberRoles returns the names of a member's roles, sorted.
func (s *Server) MemberRoles(userID string) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for _, r := range s.roles.list {
		if s.roles.members[userID][r.ID] {
			out = append(out, r.Name)
		}
	}
	slices.Sort(out)
	return out
}

func (s *Server) roleRoute(method string, p []string, body map[string]any) (any, *apiError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.roles.init()
	if p[1] != s.GuildID {
		return nil, &apiError{404, 10004, "Unknown Guild"}
	}
	if s.guildPerms&ManageRoles == 0 {
		return nil, &apiError{403, 50013, "Missing Permissions"}
	}
	switch {
	case len(p) == 3 && method == http.MethodGet:
		out := []any{}
		for _, r := range s.roles.list {
			out = append(out, roleObject(r))
		}
		return out, nil
	case len(p) == 3 && method == http.MethodPost:
		name, _ := body["name"].(string)
		if name == "" {
			name = "new role"
		}
		if length(name) > 100 {
			return nil, &apiError{400, 50035, "Invalid Form Body (name: Must be 100 or fewer in length.)"}
		}
		if len(s.roles.list)+1 >= MaxRoles { // @everyone counts
			return nil, &apiError{400, 30005, "Maximum number of server roles reached (250)"}
		}
		for _, r := range s.roles.list {
			if r.Position >= 1 {
				r.Position++
			}
		}
		s.roles.botTop++
		r := &Role{ID: s.id(), Name: name, Position: 1}
		s.roles.list = append(s.roles.list, r)
		return roleObject(r), nil
	case len(p) == 6 && (method == http.MethodPut || method == http.MethodDelete):
		held, member := s.roles.members[p[3]]
		if !member {
			return nil, &apiError{404, 10007, "Unknown Member"}
		}
		i := slices.IndexFunc(s.roles.list, func(r *Role) bool { return r.ID == p[5] })
		if i < 0 {
			return nil, &apiError{404, 10011, "Unknown Role"}
		}
		if s.roles.list[i].Position >= s.roles.botTop {
			return nil, &apiError{403, 50013, "Missing Permissions"}
		}
		held[p[5]] = method == http.MethodPut
		if method == http.MethodDelete {
			delete(held, p[5])
		}
		return nil, nil
	}
	return nil, &apiError{405, 0, "405: Method Not Allowed"}
}

func roleObject(r *Role) map[string]any {
	return map[string]any{"id": r.ID, "name": r.Name, "position": r.Position, "color": 0, "hoist": false, "managed": false,
		"mentionable": r.Mentionable, "permissions": "0", "flags": 0}
}
