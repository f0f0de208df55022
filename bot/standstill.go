package bot

// This file is the core's part of giving back the time the bot was away
// (package bot/downtime decides when and for whom).

import (
	"context"
	"errors"
	"fmt"
	"time"

	"othello-bot/record"
)

// StandStill stands g's running clock still from `from` until `until`
// (see timecontrol.Clock.StoodStill), stores the turn restarted and arms
// its timer. It reports false when that changes nothing, or another
// process moved the game meanwhile (it was not away then).
func (s *Service) StandStill(ctx context.Context, g *record.Game, from, until time.Time) (bool, error) {
	k := g.Clock().StoodStill(from, until)
	if g.Status != record.Active || g.State.Over() || !k.TurnStart.After(g.TurnStartedAt) {
		return false, nil
	}
	t := s.turnTimers(g, record.Turn{At: k.TurnStart, Left: k.Left})
	unlock := s.lockChannel(g.ChannelID)
	err := s.games.RestartTurn(ctx, g, t)
	unlock()
	if errors.Is(err, record.ErrStale) || errors.Is(err, record.ErrNotActive) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("standing game %d's clock still: %w", g.ID, err)
	}
	s.Arm(g)
	return true, nil
}
