package bot

// This file is autocomplete: the legal moves as the player types /move.

import (
	"context"
	"errors"
	"strings"

	"othello-bot/record"
)

func (s *Service) autocomplete(ctx context.Context, req Request) (Response, error) {
	if req.Command != "move" {
		return Response{}, nil
	}
	g, err := s.store.ActiveGame(ctx, req.ChannelID)
	if errors.Is(err, record.ErrNotFound) {
		return Response{Choices: []Choice{}}, nil
	}
	if err != nil {
		return Response{}, err
	}
	color, playing := playerColor(g, req.User.ID)
	if !playing || g.Position().ToMove() != color {
		return Response{Choices: []Choice{}}, nil
	}
	typed := strings.ToLower(strings.TrimSpace(req.Options[req.Focused]))
	choices := []Choice{}
	for _, m := range g.Position().LegalMoves() {
		if strings.HasPrefix(m.String(), typed) && len(choices) < MaxChoices {
			choices = append(choices, Choice{Name: req.me().T("autocomplete.flips", "Square", m.String(), "Count", len(g.Position().Flips(m))), Value: m.String()})
		}
	}
	return Response{Choices: choices}, nil
}
