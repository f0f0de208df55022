package discordtest

// This file is the places a user's install reaches (Discord's "user-installed
// apps", 2024): the DM with the bot, group DMs, and servers the bot is no
// member of. As Discord documents them ("Interaction Contexts",
// "Authorizing Integration Owners Object", "Create Followup Message"):
//
//   - every interaction says its context (0 server, 1 the bot's DM, 2 a
//     private channel) and which installs authorized it:
//     authorizing_integration_owners maps "0" (server install) to the
//     server's id, or "0" in the bot's DM, and "1" (user install) to the
//     id of the user whose install it is;
//   - outside a server there is no guild_id and no member, only user;
//     app_permissions is ATTACH_FILES | EMBED_LINKS | MENTION_EVERYONE in
//     (group) DMs, with USE_EXTERNAL_EMOJIS in the bot's DM;
//   - a user install sees only global commands whose integration_types
//     hold 1 and whose contexts hold the channel's context;
//   - where the bot is no member it may not post, edit or open threads in
//     the channel (403, 50001 Missing Access); it speaks only through
//     interaction responses and at most five follow-ups per interaction
//     when only a user install authorized it;
//   - a follow-up sent while a deferred response is still loading edits
//     that response instead of creating a message (kept for backwards
//     compatibility, deprecated).

import (
	"slices"
	"strconv"
)

// Interaction context types and installation types.
const (
	contextGuild   = 0
	contextBotDM   = 1
	contextPrivate = 2

	guildInstall = "0"
	userInstall  = "1"
)

// Permission bits sent as app_permissions in DMs.
const (
	useExternalEmojis int64 = 1 << 18
	dmPermissions           = AttachFiles | EmbedLinks | MentionEveryone
)

// followupLimit is the most follow-ups of an interaction only a user
// install authorized.
const followupLimit = 5

// reach is a channel a user's install reaches.
type reach struct {
	context int
	guild   string // "" outside a server
	member  bool   // the bot's user is in the channel (its DM)
	perms   int64  // app_permissions in a server without the bot
}

// AddBotDM makes the DM channel between u and the bot's user.
func (s *Server) AddBotDM(channel string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.reaches[channel] = reach{context: contextBotDM, member: true}
}

// AddGroupDM makes a group DM (or a DM between two people): the bot is no
// member, and it is reached through the installs of its members.
func (s *Server) AddGroupDM(channel string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.reaches[channel] = reach{context: contextPrivate}
}

// AddServerWithoutBot makes a text channel of a server the bot was never
// added to: only a member's own install answers there.
func (s *Server) AddServerWithoutBot(guild, channel string, perms int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.reaches[channel] = reach{context: contextGuild, guild: guild, perms: perms}
}

// notMember says whether the bot is no member of a channel's place.
func (s *Server) notMember(channel string) bool {
	r, ok := s.reaches[channel]
	return ok && !r.member
}

// owners is authorizing_integration_owners for u acting in channel; for
// a button, the owners of the interaction that made the message (the
// install that put it there).
func (s *Server) owners(u User, channel string, message *Message) map[string]any {
	if message != nil {
		if ia, ok := s.interactions[message.Interaction]; ok && ia.owners != nil {
			return ia.owners
		}
	}
	out := map[string]any{}
	r, reached := s.reaches[channel]
	switch {
	case !reached:
		out[guildInstall] = s.guildOf(channel)
	case r.context == contextBotDM:
		out[guildInstall] = "0"
	}
	if u.UserInstall || reached && !r.member && r.context != contextBotDM {
		out[userInstall] = u.ID
	}
	return out
}

// placePayload fills in what an interaction says of where it comes from.
func (s *Server) placePayload(payload map[string]any, u User, channel string) {
	r, ok := s.reaches[channel]
	if !ok {
		payload["context"] = contextGuild
		return
	}
	payload["context"] = r.context
	if r.guild != "" {
		payload["guild_id"] = r.guild
		payload["app_permissions"] = strconv.FormatInt(r.perms, 10)
		payload["channel"] = map[string]any{"id": channel, "type": 0, "guild_id": r.guild}
		return
	}
	delete(payload, "guild_id")
	delete(payload, "guild_locale")
	delete(payload, "member")
	payload["user"] = map[string]any{"id": u.ID, "username": u.Name, "global_name": u.Name, "bot": u.Bot}
	perms, kind := dmPermissions, 3
	if r.context == contextBotDM {
		perms, kind = dmPermissions|useExternalEmojis, 1
	}
	payload["app_permissions"] = strconv.FormatInt(perms, 10)
	payload["channel"] = map[string]any{"id": channel, "type": kind}
}

// commandAvailable says whether Discord would offer command name to u in
// channel: in the bot's servers, as registered there or globally; where a
// user's install reaches, only global commands for that install and
// context, to a user who installed the app (or, in the bot's DM, for the
// server install too).
func (s *Server) commandAvailable(u User, channel, name string) bool {
	r, ok := s.reaches[channel]
	if !ok {
		return true // the bot's servers: the existing checks hold
	}
	for _, c := range s.commands[""] {
		if c["name"] != name {
			continue
		}
		contexts, installs := numbers(c["contexts"]), numbers(c["integration_types"])
		if !slices.Contains(contexts, r.context) {
			return false
		}
		if u.UserInstall && slices.Contains(installs, 1) {
			return true
		}
		return r.context == contextBotDM && slices.Contains(installs, 0)
	}
	return false
}

func numbers(v any) []int {
	list, _ := v.([]any)
	var out []int
	for _, x := range list {
		out = append(out, int(num(x)))
	}
	return out
}

// userInstallOnly says whether only a user's install authorized ia.
func (ia *Interaction) userInstallOnly() bool {
	_, guild := ia.owners[guildInstall]
	return ia.owners != nil && !guild
}

// ChannelCalls counts the requests the bot made to a channel's own
// endpoints (posting, editing, threads), accepted or not.
func (s *Server) ChannelCalls(channel string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.channelCalls[channel]
}
