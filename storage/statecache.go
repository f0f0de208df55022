package storage

// This file keeps the replayed moves of recently used games, so that a
// game's load reads its row alone and not its moves again. An entry is
// good for one version of one game: every write that changes a game's
// moves moves its version on (AppendTurn, TakeBack, a finish), so a
// version another process or connection wrote is a miss, never a wrong
// hit. The stored position is still checked against the entry, as it is
// against a replay.

import (
	lru "github.com/hashicorp/golang-lru/v2"

	"othello-bot/game"
	"othello-bot/record"
)

// stateCacheGames bounds the games kept: about 1 KiB each on 8x8, so
// a few MiB at most; the games in play are the recently used ones.
const stateCacheGames = 4096

type stateCache struct {
	games    *lru.Cache[int64, cachedState]
	channels *lru.Cache[string, int64] // the game last kept of each channel
}

type cachedState struct {
	publicID  string
	version   int64
	takebacks int
	plies     int        // state.PlyCount(), so that a load asks the count without touching the state
	state     *game.Game // never handed out: callers get clones
}

func newStateCache() stateCache {
	c, err := lru.New[int64, cachedState](stateCacheGames)
	if err != nil {
		panic(err) // only for a size under 1
	}
	ch, err := lru.New[string, int64](stateCacheGames)
	if err != nil {
		panic(err)
	}
	return stateCache{games: c, channels: ch}
}

// put keeps g's state as of its version.
func (c stateCache) put(g *record.Game) {
	if c.games == nil || g.State == nil {
		return
	}
	c.games.Add(g.ID, cachedState{publicID: g.PublicID, version: g.Version, takebacks: g.Takebacks, plies: g.State.PlyCount(), state: g.State.Clone()})
	c.channels.Add(g.ChannelID, g.ID)
}

// kept is the entry kept for game id, if any (its state not to be changed).
func (c stateCache) kept(id int64) (cachedState, bool) {
	if c.games == nil {
		return cachedState{}, false
	}
	return c.games.Peek(id)
}

// keptIn is the id of the game last kept of a channel, if any.
func (c stateCache) keptIn(channelID string) (int64, bool) {
	if c.channels == nil {
		return 0, false
	}
	return c.channels.Peek(channelID)
}

// get is a copy of the state of l's game at the version its row gave,
// if kept and where its position is the row's.
func (c stateCache) get(l *loaded) (*game.Game, bool) {
	if c.games == nil {
		return nil, false
	}
	e, ok := c.games.Get(l.g.ID)
	if !ok || e.version != l.g.Version || e.publicID != l.g.PublicID ||
		!e.state.Position().Equal(l.pos) || !e.state.Start().Equal(l.start) {
		return nil, false
	}
	return e.state.Clone(), true
}
