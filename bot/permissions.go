package bot

// This file is the permissions the bot needs to post in a channel itself.

import "othello-bot/record"

// Permissions the bot needs in a channel to post there on its own (a
// challenge, then a game's timers), as Discord numbers them.
const (
	PermViewChannel  int64 = 1 << 10
	PermSendMessages int64 = 1 << 11
	PermEmbedLinks   int64 = 1 << 14
	PermAttachFiles  int64 = 1 << 15
)

// MissingPermission names the first permission the bot lacks to run a
// game between members here, as the catalog message of its name ("" when
// it has them all, or when the transport does not say). Replies to a user's own command need none.
func (s *Service) MissingPermission(req Request, size int, style record.Style) string {
	if !req.PermissionsKnown {
		return ""
	}
	type perm struct {
		bit  int64
		name string
	}
	send := perm{PermSendMessages, "permission.send_messages"}
	if req.InThread {
		// Inside a thread Send Messages has no effect; this is what counts.
		send = perm{PermSendMessagesInThreads, "permission.send_messages_in_threads"}
	}
	need := []perm{{PermViewChannel, "permission.view_channel"}, send, {PermEmbedLinks, "permission.embed_links"}}
	if style == record.StyleImage || size > s.cfg.MaxEmojiSize {
		need = append(need, perm{PermAttachFiles, "permission.attach_files"})
	}
	for _, p := range need {
		if req.AppPermissions&p.bit == 0 {
			return p.name
		}
	}
	return ""
}
