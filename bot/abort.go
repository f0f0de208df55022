package bot

// This file is /abort, and games left without an end: a player may abort a
// game before each side has moved twice, a moderator may end any game with
// a reason for the results log, and a game against the bot whose player
// stopped moving ends as abandoned.

import (
	"context"
	"errors"
	"strings"

	"othello-bot/catalog"
	"othello-bot/game"
	"othello-bot/record"
)

// Member permissions, as Discord numbers them, that make a moderator of
// games (see moderatorPermission).
const (
	PermManageMessages int64 = 1 << 13
	PermManageThreads  int64 = 1 << 34
)

// moderatorPermission is what makes a member a moderator of a game: Manage
// Threads for a game in its own thread, Manage Messages for one in a
// channel.
func moderatorPermission(g *record.Game) int64 {
	if g.ParentID != "" {
		return PermManageThreads
	}
	return PermManageMessages
}

// maxAbortReason bounds the reason a moderator gives (it goes into the
// results log and the game message).
const maxAbortReason = 200

// noReasonNote is the results log's note (data, in English) for a
// moderator's abort without a reason.
const noReasonNote = "no reason given"

func (s *Service) abort(ctx context.Context, req Request) (Response, error) {
	unlock := s.LockChannel(req.ChannelID)
	defer unlock()
	g, refusal, err := s.ChannelGame(ctx, req)
	if g == nil {
		return refusal, err
	}
	me, pub := req.Me(), req.Pub()
	_, playing := PlayerColor(g, req.User.ID)
	early := g.MovesBy(game.Black) < 2 || g.MovesBy(game.White) < 2
	reason := Clip(strings.Join(strings.Fields(req.Options["reason"]), " "), maxAbortReason)
	var result record.Result
	var line string
	switch {
	case playing && early:
		result.Reason = record.EndAbort
		line = pub.T("abort.aborted", "Name", name(req.User))
	case req.MemberPermissions&moderatorPermission(g) != 0:
		shown := Escape(reason)
		if reason == "" {
			reason = noReasonNote
			shown = pub.T("abort.no_reason")
		}
		result.Reason, result.Note = record.EndModerator, reason
		line = pub.T("abort.moderator", "Name", name(req.User), "Reason", shown)
	case playing:
		return Refuse(me.T("abort.too_late")), nil
	default:
		return Refuse(me.T("abort.not_allowed")), nil
	}
	if _, err := s.finishWith(ctx, pub, g, result); err != nil {
		if errors.Is(err, record.ErrStale) || errors.Is(err, record.ErrNotActive) {
			return Refuse(me.T("error.changed_meanwhile")), nil
		}
		return Response{}, err
	}
	final := s.GameMessage(pub, g, []string{line, ResultLine(pub, g)})
	if !s.ShowFinal(ctx, g, *final) {
		return Response{Message: final}, nil
	}
	return Response{Message: &Message{Ephemeral: true, Content: me.T("abort.ended", "ID", g.ID)}}, nil
}

// abandon ends a game against the bot whose player has not moved within
// the inactivity timeout: no winner, no rating change.
func (s *Service) abandon(ctx context.Context, pub *catalog.Printer, g *record.Game) {
	if _, err := s.finishWith(ctx, pub, g, record.Result{Reason: record.EndAbandoned}); err != nil {
		if !errors.Is(err, record.ErrStale) && !errors.Is(err, record.ErrNotActive) {
			s.Logger(ctx).Error("tick: abandoning", "game", g.ID, "err", err)
		}
		return
	}
	s.ShowFinal(ctx, g, *s.GameMessage(pub, g, []string{ResultLine(pub, g)}))
}
