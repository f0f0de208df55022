// Package aborts is /abort: a player may end a game without a result
// before each side has moved twice, and a moderator (see
// bot.ModeratorPermission) may end any game with a reason for the results
// log. It mounts on the core service (package bot) as a capability.
package aborts

import (
	"context"
	"errors"
	"strings"

	"othello-bot/bot"
	"othello-bot/catalog"
	"othello-bot/game"
	"othello-bot/record"
)

// Core is what /abort uses of the core service: *bot.Service.
type Core interface {
	LockChannel(id string) func()
	ChannelGame(ctx context.Context, req bot.Request) (*record.Game, bot.Response, error)
	FinishWith(ctx context.Context, t *catalog.Printer, g *record.Game, result record.Result) (string, error)
	GameMessage(t *catalog.Printer, g *record.Game, notes []string) *bot.Message
	ShowFinal(ctx context.Context, g *record.Game, m bot.Message) bool
}

// Service answers /abort.
type Service struct{ Core }

// New builds the capability.
func New(core Core) *Service { return &Service{Core: core} }

// Routes answers /abort.
func (s *Service) Routes() map[string]bot.Handler { return map[string]bot.Handler{"abort": s.abort} }

// noReasonNote is the results log's note (data, in English) for a
// moderator's abort without a reason.
const noReasonNote = "no reason given"

func (s *Service) abort(ctx context.Context, req bot.Request) (bot.Response, error) {
	unlock := s.LockChannel(req.ChannelID)
	defer unlock()
	g, refusal, err := s.ChannelGame(ctx, req)
	if g == nil {
		return refusal, err
	}
	me, pub := req.Me(), req.Pub()
	_, playing := bot.PlayerColor(g, req.User.ID)
	early := g.MovesBy(game.Black) < 2 || g.MovesBy(game.White) < 2
	reason := bot.Clip(strings.Join(strings.Fields(req.Options["reason"]), " "), bot.MaxAbortReason)
	who := bot.Escape(req.User.Name)
	var result record.Result
	var line string
	switch {
	case playing && early:
		result.Reason = record.EndAbort
		line = pub.T("abort.aborted", "Name", who)
	case req.MemberPermissions&bot.ModeratorPermission(g) != 0:
		shown := bot.Escape(reason)
		if reason == "" {
			reason = noReasonNote
			shown = pub.T("abort.no_reason")
		}
		result.Reason, result.Note = record.EndModerator, reason
		line = pub.T("abort.moderator", "Name", who, "Reason", shown)
	case playing:
		return bot.Refuse(me.T("abort.too_late")), nil
	default:
		return bot.Refuse(me.T("abort.not_allowed")), nil
	}
	if _, err := s.FinishWith(ctx, pub, g, result); err != nil {
		if errors.Is(err, record.ErrStale) || errors.Is(err, record.ErrNotActive) {
			return bot.Refuse(me.T("error.changed_meanwhile")), nil
		}
		return bot.Response{}, err
	}
	final := s.GameMessage(pub, g, []string{line, bot.ResultLine(pub, g)})
	if !s.ShowFinal(ctx, g, *final) {
		return bot.Response{Message: final}, nil
	}
	return bot.Response{Message: &bot.Message{Ephemeral: true, Content: me.T("abort.ended", "ID", g.ID)}}, nil
}
