package record

// This file is what each stored change does to a game, in one place: a
// store applies it to the game it was given once its write is committed,
// and every store (and every fake) applies the same rule.

import (
	"fmt"
	"time"

	"othello-bot/game"
)

// Turned is g after t, whose plies g's state already holds, was stored:
// its version moves on, the turn's times, clocks and reply note are g's,
// and the reminder is due again.
func (g *Game) Turned(t Turn) {
	g.Version++
	g.UpdatedAt, g.TurnStartedAt, g.Deadline, g.RemindAt, g.Reminded = t.At, t.At, t.Deadline, t.RemindAt, false
	g.ReplyToken, g.ReplyExpires, g.Left = t.ReplyToken, t.ReplyExpires, t.Left
	g.ShownIn = ""
	if t.Shows != "" && t.Shows == g.MessageID {
		g.ShownIn = t.Shows
	}
	if t.End != nil {
		g.Finished(*t.End)
	}
}

// Restarted is g after its running turn was stored as starting again at
// t.At with t's clocks and timers (its clock stood still while the bot
// was down): the version moves on, nothing else.
func (g *Game) Restarted(t Turn) {
	g.Version++
	g.TurnStartedAt, g.Deadline, g.RemindAt, g.Left = t.At, t.Deadline, t.RemindAt, t.Left
	g.ShownIn = ""
}

// TakeBackState is g's state with only its first keep plies: what a
// takeback leaves. An error when there is nothing to take back.
func (g *Game) TakeBackState(keep int) (*game.Game, error) {
	plies := g.Plies()
	if keep < 0 || keep >= len(plies) {
		return nil, fmt.Errorf("taking back game %d to ply %d of %d: nothing to take back", g.ID, keep, len(plies))
	}
	state, err := game.ReplayPlies(g.State.Start(), plies[:keep])
	if err != nil {
		return nil, fmt.Errorf("taking back game %d: %w", g.ID, err)
	}
	return state, nil
}

// TookBack is g after a takeback to state (TakeBackState) was stored at
// t: a counted takeback, as a turn that owes no reply.
func (g *Game) TookBack(state *game.Game, t Turn) {
	g.State = state
	g.Takebacks++
	t.ReplyToken, t.ReplyExpires = "", time.Time{}
	g.Turned(t)
}

// FinalStatus is the status a game ends in with reason: aborted when it
// does not count, finished otherwise.
func FinalStatus(reason EndReason) Status {
	if reason.Unfinished() {
		return Aborted
	}
	return Finished
}

// Finished is g after it ended with r, stored: its final status, no
// deadline, its result (with no winner when it does not count).
func (g *Game) Finished(r Result) {
	r.GameID = g.ID
	if r.Reason.Unfinished() {
		r.Winner = game.Empty
	}
	g.Status, g.Version, g.Deadline, g.UpdatedAt = FinalStatus(r.Reason), g.Version+1, time.Time{}, r.FinishedAt
	g.ShownIn = ""
	g.Result = &r
}

// LiveMessage decides a game's live message when messageID, showing the
// game at version, arrives while current (showing currentVersion) is the
// live one: a message of an older version never replaces a newer one
// (replies arrive out of order). It returns the message replaced ("" if
// none or the same), whether messageID is live now, and the version the
// live message shows after.
func LiveMessage(current string, currentVersion int64, messageID string, version int64) (previous string, live bool, shows int64) {
	if version < currentVersion && current != messageID {
		return "", false, currentVersion
	}
	if current != messageID {
		previous = current
	}
	return previous, true, max(currentVersion, version)
}
