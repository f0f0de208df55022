package pageplay

// This file is "Watch in Discord": the game message's button answers with
// the app's Activity, opened where it was pressed, and the Activity's
// lobby, when it then signs that person in there, opens the game's board
// instead of the lobby. Discord's answer that opens an Activity carries
// nothing of ours, so the press is kept in the store for a few minutes,
// by person and channel, for whichever process serves the Activity's
// pages.

import (
	"context"
	"errors"
	"time"

	"othello-bot/bot"
	"othello-bot/record"
)

// WatchFor is how long a press waits for the Activity to ask.
const WatchFor = 5 * time.Minute

// watchHere answers "Watch in Discord" with the Activity, remembering the
// game for the person in this channel.
func (s *Service) watchHere(ctx context.Context, req bot.Request) (bot.Response, error) {
	id, ok := req.Component().Int(0)
	if !ok {
		return bot.Refuse(req.Me().T("error.dead_button")), nil
	}
	g, err := s.store.Game(ctx, id)
	switch {
	case errors.Is(err, record.ErrNotFound) || err == nil && (g.PublicID == "" || g.GuildID != req.GuildID):
		return bot.Refuse(req.Me().T("error.dead_button")), nil
	case err != nil:
		return bot.Response{}, err
	}
	now := s.core.Now()
	if err := s.store.RememberOpening(ctx, req.User.ID, req.ChannelID, g.PublicID, now, now.Add(-WatchFor)); err != nil {
		return bot.Response{}, err
	}
	return bot.Response{LaunchActivity: true}, nil
}

// Opening is the game the Activity should open for a person it just
// signed in, in the channel it runs in: the one they pressed "Watch in
// Discord" on there within the last minutes, once; "" for the lobby.
func (s *Service) Opening(ctx context.Context, userID, channelID string) (string, error) {
	return s.store.TakeOpening(ctx, userID, channelID, s.core.Now().Add(-WatchFor))
}
