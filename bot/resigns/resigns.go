// Package resigns is resignation: /resign and a game message's Resign
// button ask first (only the asker sees the question), and the
// confirmation ends the game against the one who resigned. It mounts on
// the core service (package bot) as a capability.
package resigns

import (
	"context"
	"errors"

	"othello-bot/bot"
	"othello-bot/catalog"
	"othello-bot/customid"
	"othello-bot/play"
	"othello-bot/record"
)

// Store gives the game of a channel.
type Store interface {
	// ActiveGame is a channel's running game, or record.ErrNotFound.
	ActiveGame(ctx context.Context, channelID string) (*record.Game, error)
}

// Core is what resignation uses of the core service: *bot.Service.
type Core interface {
	LockChannel(id string) func()
	ChannelGame(ctx context.Context, req bot.Request) (*record.Game, bot.Response, error)
	Flow() *play.Flow
	ServeOn(ctx context.Context, who bot.Who, g *record.Game, entry string, h func(ctx context.Context, me, pub *catalog.Printer) (bot.Response, error)) (bot.Response, *record.Game)
	GameMessage(t *catalog.Printer, g *record.Game, notes []string) *bot.Message
	ShowFinal(ctx context.Context, g *record.Game, m bot.Message) bool
}

// Service answers /resign and the Resign buttons.
type Service struct {
	Core
	store Store
}

// New builds the capability.
func New(core Core, store Store) *Service { return &Service{Core: core, store: store} }

// Routes answers /resign, Resign on a game message, and the question's two
// answers.
func (s *Service) Routes() map[string]bot.Handler {
	return map[string]bot.Handler{
		"resign":      s.ask,
		"resign:":     s.button,
		"resign-yes:": s.yes,
		"resign-no:": func(_ context.Context, req bot.Request) (bot.Response, error) {
			return bot.Response{Update: true, Message: &bot.Message{Content: req.Me().T("resign.kept"), Ephemeral: true}}, nil
		},
	}
}

func (s *Service) ask(ctx context.Context, req bot.Request) (bot.Response, error) {
	g, refusal, err := s.ChannelGame(ctx, req)
	if g == nil {
		return refusal, err
	}
	return confirm(req, g), nil
}

// confirm asks a player whether they resign.
func confirm(req bot.Request, g *record.Game) bot.Response {
	me := req.Me()
	if _, playing := bot.PlayerColor(g, req.User.ID); !playing {
		return bot.Refuse(me.T("error.not_playing"))
	}
	return bot.Response{Message: &bot.Message{Ephemeral: true, Content: me.T("resign.ask", "ID", g.ID),
		Components: []bot.Row{{Buttons: []bot.ButtonSpec{
			{Label: me.T("button.resign"), CustomID: customid.Make("resign-yes", g.ID), Style: bot.Danger},
			{Label: me.T("button.keep_playing"), CustomID: customid.Make("resign-no", g.ID), Style: bot.Secondary},
		}}}}}
}

// button is the Resign button on a game message ("resign:GAME:PLY"): it
// asks first, if that game still runs here.
func (s *Service) button(ctx context.Context, req bot.Request) (bot.Response, error) {
	id, known := req.Component().Int(0)
	g, err := s.store.ActiveGame(ctx, req.ChannelID)
	if errors.Is(err, record.ErrNotFound) || known && err == nil && g.ID != id {
		return bot.Refuse(req.Me().T("resign.over")), nil
	}
	if err != nil {
		return bot.Response{}, err
	}
	return confirm(req, g), nil
}

// yes is the answer Resign: the game ends against the one who resigned.
func (s *Service) yes(ctx context.Context, req bot.Request) (bot.Response, error) {
	me, pub := req.Me(), req.Pub()
	id, ok := req.Component().Int(0)
	if !ok {
		return bot.Refuse(me.T("error.button_broken")), nil
	}
	unlock := s.LockChannel(req.ChannelID)
	defer unlock()
	g, err := s.store.ActiveGame(ctx, req.ChannelID)
	if errors.Is(err, record.ErrNotFound) || err == nil && g.ID != id {
		return bot.Response{Update: true, Message: &bot.Message{Ephemeral: true, Content: me.T("resign.already_over")}}, nil
	}
	if err != nil {
		return bot.Response{}, err
	}
	return s.resign(ctx, me, pub, req.User, g)
}

// ResignFor resigns a game for a member who did it outside chat (the web
// board), on the game as they read it: the final board where the game
// lives, a word for them, and the game after it.
func (s *Service) ResignFor(ctx context.Context, who bot.Who, g *record.Game) (bot.Response, *record.Game) {
	return s.ServeOn(ctx, who, g, "resign-yes:", func(ctx context.Context, me, pub *catalog.Printer) (bot.Response, error) {
		return s.resign(ctx, me, pub, who.User, g)
	})
}

// resign ends g against who (play.Flow.Resign) and shows its final board.
func (s *Service) resign(ctx context.Context, me, pub *catalog.Printer, who record.Player, g *record.Game) (bot.Response, error) {
	err := s.Flow().Resign(ctx, g, who.ID)
	switch {
	case errors.Is(err, play.ErrNotPlaying):
		return bot.Refuse(me.T("error.not_playing")), nil
	case errors.Is(err, record.ErrStale) || errors.Is(err, record.ErrNotActive):
		return bot.Refuse(me.T("error.changed_meanwhile")), nil
	case err != nil:
		return bot.Response{}, err
	}
	final := s.GameMessage(pub, g, []string{pub.T("resign.resigned", "Name", bot.Escape(who.Name)), bot.ResultLine(pub, g)})
	resp := bot.Response{Update: true, Message: &bot.Message{Ephemeral: true, Content: me.T("resign.done", "ID", g.ID)}}
	if !s.ShowFinal(ctx, g, *final) {
		// The bot may not post in this channel: the interaction can.
		resp.Followups = []bot.Message{*final}
	}
	return resp, nil
}
