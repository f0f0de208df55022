package bot

// This file is what the bot could not show when it happened: in a channel
// where the bot is no member it speaks only through the replies to
// interactions, whose tokens live 15 minutes, so the outcome of a timer
// that fires later (a flag, an expiry) waits for the channel's next
// interaction and is shown with its answer.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// ErrUnreachable is what a Notifier returns when it cannot post or edit in
// a channel now: the bot is no member there and no live interaction token
// allows it.
var ErrUnreachable = errors.New("no way to post in this channel now")

// ErrForbidden is what a transport returns when Discord refuses an action
// for want of a permission (a role above the bot's own, say).
var ErrForbidden = errors.New("missing permissions")

// ErrLimitReached: Discord refuses more of what a server holds at most so many of (roles).
var ErrLimitReached = errors.New("a server's limit on Discord is reached")

// maxNotices bounds the notices kept for one channel (the oldest go) and
// shownNotices those shown with one answer (follow-ups are few where the
// bot is no member).
const (
	maxNotices   = 6
	shownNotices = 2
)

func noticeKey(channelID string) string { return "notices/" + channelID }

// SendOrKeep posts m in a channel or, when the channel cannot be reached
// now, keeps it for the channel's next interaction.
func (s *Service) SendOrKeep(ctx context.Context, channelID string, m Message) error {
	_, err := s.Send(ctx, channelID, m)
	if !errors.Is(err, ErrUnreachable) {
		return err
	}
	return s.keepNotice(ctx, channelID, m)
}

// keepNotice stores m (its text and embed: no buttons, which would act
// on a state long gone, and no files) for the channel's next interaction.
func (s *Service) keepNotice(ctx context.Context, channelID string, m Message) error {
	unlock := s.LockChannel(noticeKey(channelID))
	defer unlock()
	list, err := s.notices(ctx, channelID)
	if err != nil {
		return err
	}
	list = append(list, Message{Content: m.Content, Embed: m.Embed, Mentions: m.Mentions})
	if len(list) > maxNotices {
		list = list[len(list)-maxNotices:]
	}
	if err := s.saveNotices(ctx, channelID, list); err != nil {
		return err
	}
	s.Logger(ctx).Info("kept a notice for the channel's next interaction", "channel", channelID, "kept", len(list))
	return nil
}

// takeNotices removes and returns the oldest notices kept for a channel,
// as follow-ups of the answer to its next interaction.
func (s *Service) takeNotices(ctx context.Context, req Request) []Message {
	unlock := s.LockChannel(noticeKey(req.ChannelID))
	defer unlock()
	list, err := s.notices(ctx, req.ChannelID)
	if err != nil || len(list) == 0 {
		if err != nil {
			s.Logger(ctx).Error("reading the channel's notices", "err", err)
		}
		return nil
	}
	n := min(len(list), shownNotices)
	if err := s.saveNotices(ctx, req.ChannelID, list[n:]); err != nil {
		s.Logger(ctx).Error("taking the channel's notices", "err", err)
		return nil // shown next time rather than twice
	}
	out := list[:n]
	out[0].Content = strings.TrimSpace(req.Pub().T("notice.missed") + "\n" + out[0].Content)
	return out
}

func (s *Service) notices(ctx context.Context, channelID string) ([]Message, error) {
	v, err := s.prefs.Setting(ctx, noticeKey(channelID))
	if err != nil || v == "" {
		return nil, err
	}
	var list []Message
	if err := json.Unmarshal([]byte(v), &list); err != nil {
		// Unreadable (a format from another version): drop rather than fail
		// every interaction of the channel.
		s.Logger(ctx).Warn("dropping unreadable notices", "channel", channelID, "err", err)
		return nil, nil
	}
	return list, nil
}

func (s *Service) saveNotices(ctx context.Context, channelID string, list []Message) error {
	v := ""
	if len(list) > 0 {
		b, err := json.Marshal(list)
		if err != nil {
			return fmt.Errorf("encoding notices: %w", err)
		}
		v = string(b)
	}
	return s.prefs.SetSetting(ctx, noticeKey(channelID), v)
}
