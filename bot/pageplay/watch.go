package pageplay

// This file is "Watch in Discord": the game message's button answers with
// the app's Activity, opened where it was pressed, and the Activity's
// lobby, when it then signs that person in there, opens the game's board
// instead of the lobby. Discord's answer that opens an Activity carries
// nothing of ours, so the press is remembered here for a few minutes, by
// person and channel. It is this process's memory: with the pages served
// by another process the Activity shows its lobby, where the channel's
// game is listed under the live games.

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"sync"
	"time"

	"othello-bot/bot"
	"othello-bot/record"
)

// watchFor is how long a press waits for the Activity to ask.
const watchFor = 5 * time.Minute

// maxWatches bounds the presses remembered; past it the oldest go.
const maxWatches = 10000

// watches are the presses not yet taken by the Activity.
type watches struct {
	mu      sync.Mutex
	now     func() time.Time
	pending map[watchKey]watchEntry
}

type watchKey struct{ user, channel string }

type watchEntry struct {
	game string // public id
	at   time.Time
}

// watchHere answers "Watch in Discord" with the Activity, remembering the
// game for the person in this channel.
func (s *Service) watchHere(ctx context.Context, req bot.Request) (bot.Response, error) {
	_, arg, _ := strings.Cut(req.CustomID, ":")
	id, err := strconv.ParseInt(arg, 10, 64)
	if err != nil {
		return bot.Refuse(req.Me().T("error.dead_button")), nil
	}
	g, err := s.store.Game(ctx, id)
	switch {
	case errors.Is(err, record.ErrNotFound) || err == nil && (g.PublicID == "" || g.GuildID != req.GuildID):
		return bot.Refuse(req.Me().T("error.dead_button")), nil
	case err != nil:
		return bot.Response{}, err
	}
	s.watching.remember(req.User.ID, req.ChannelID, g.PublicID)
	return bot.Response{LaunchActivity: true}, nil
}

func (w *watches) remember(user, channel, game string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	now := w.now()
	if len(w.pending) >= maxWatches {
		for k, e := range w.pending {
			if now.Sub(e.at) > watchFor || len(w.pending) >= maxWatches {
				delete(w.pending, k)
			}
		}
	}
	w.pending[watchKey{user, channel}] = watchEntry{game: game, at: now}
}

// Opening is the game the Activity should open for a person it just
// signed in, in the channel it runs in: the one they pressed "Watch in
// Discord" on there within the last minutes, once; "" for the lobby.
func (s *Service) Opening(userID, channelID string) string {
	w := &s.watching
	w.mu.Lock()
	defer w.mu.Unlock()
	k := watchKey{userID, channelID}
	e, ok := w.pending[k]
	delete(w.pending, k)
	if !ok || w.now().Sub(e.at) > watchFor {
		return ""
	}
	return e.game
}
