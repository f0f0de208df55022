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
	"othello-bot/play"
	"othello-bot/record"
)

// Core is what /abort uses of the core service: *bot.Service.
type Core interface {
	LockChannel(id string) func()
	ChannelGame(ctx context.Context, req bot.Request) (*record.Game, bot.Response, error)
	Flow() *play.Flow
	ServeOn(ctx context.Context, who bot.Who, g *record.Game, entry string, h func(ctx context.Context, me, pub *catalog.Printer) (bot.Response, error)) (bot.Response, *record.Game)
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
	if playing && play.Early(g) || req.MemberPermissions&bot.ModeratorPermission(g) == 0 {
		return s.playersAbort(ctx, me, pub, req.User, g)
	}
	// A moderator's: any game, with a reason for the results log.
	reason := bot.Clip(strings.Join(strings.Fields(req.Options["reason"]), " "), bot.MaxAbortReason)
	shown := bot.Escape(reason)
	if reason == "" {
		reason = noReasonNote
		shown = pub.T("abort.no_reason")
	}
	line := pub.T("abort.moderator", "Name", bot.Escape(req.User.Name), "Reason", shown)
	if err := s.Flow().End(ctx, g, record.Result{Reason: record.EndModerator, Note: reason}, nil); err != nil {
		return s.failed(me, err)
	}
	return s.show(ctx, me, pub, g, line), nil
}

// AbortFor aborts a game for a player who did it outside chat (the web
// board), on the game as they read it, and returns the game after it.
func (s *Service) AbortFor(ctx context.Context, who bot.Who, g *record.Game) (bot.Response, *record.Game) {
	return s.ServeOn(ctx, who, g, "abort", func(ctx context.Context, me, pub *catalog.Printer) (bot.Response, error) {
		return s.playersAbort(ctx, me, pub, who.User, g)
	})
}

// playersAbort ends g without a result at a player's word (play.Flow.Abort).
func (s *Service) playersAbort(ctx context.Context, me, pub *catalog.Printer, who record.Player, g *record.Game) (bot.Response, error) {
	switch err := s.Flow().Abort(ctx, g, who.ID); {
	case errors.Is(err, play.ErrNotPlaying):
		return bot.Refuse(me.T("abort.not_allowed")), nil
	case errors.Is(err, play.ErrTooLate):
		return bot.Refuse(me.T("abort.too_late")), nil
	case err != nil:
		return s.failed(me, err)
	}
	return s.show(ctx, me, pub, g, pub.T("abort.aborted", "Name", bot.Escape(who.Name))), nil
}

// failed answers an end that could not be stored.
func (s *Service) failed(me *catalog.Printer, err error) (bot.Response, error) {
	if errors.Is(err, record.ErrStale) || errors.Is(err, record.ErrNotActive) {
		return bot.Refuse(me.T("error.changed_meanwhile")), nil
	}
	return bot.Response{}, err
}

// show shows an aborted game's final board where it lives (or in the
// answer, where the bot cannot post) and tells the one who ended it. The
// line says who ended it; the board's result says it does not count (once:
// the line and the result each said "aborted").
func (s *Service) show(ctx context.Context, me, pub *catalog.Printer, g *record.Game, line string) bot.Response {
	final := s.GameMessage(pub, g, []string{line})
	if !s.ShowFinal(ctx, g, *final) {
		return bot.Response{Message: final}
	}
	return bot.Response{Message: &bot.Message{Ephemeral: true, Content: me.T("abort.ended", "ID", g.ID)}}
}
