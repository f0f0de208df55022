package bot

// This file is autocomplete: the legal moves as the player types /move,
// the common time controls as one types a time, and the named lines as one
// types /train opening's name.

import (
	"context"
	"errors"
	"strings"

	"othello-bot/catalog"
	"othello-bot/opening"
	"othello-bot/record"
	"othello-bot/timecontrol"
)

func (s *Service) autocomplete(ctx context.Context, req Request) (Response, error) {
	if req.Focused == "time" {
		return Response{Choices: timeChoices(req.Me(), req.Options["time"], req.Command == "start")}, nil
	}
	if req.Command == "train opening" && req.Focused == "name" {
		return Response{Choices: openingChoices(req.Me(), req.Options["name"])}, nil
	}
	if req.Command != "move" {
		return Response{}, nil
	}
	g, err := s.games.ActiveGame(ctx, req.ChannelID)
	if errors.Is(err, record.ErrNotFound) {
		return Response{Choices: []Choice{}}, nil
	}
	if err != nil {
		return Response{}, err
	}
	color, playing := PlayerColor(g, req.User.ID)
	if !playing || g.Position().ToMove() != color {
		return Response{Choices: []Choice{}}, nil
	}
	typed := strings.ToLower(strings.TrimSpace(req.Options[req.Focused]))
	choices := []Choice{}
	for _, m := range g.Position().LegalMoves() {
		if strings.HasPrefix(m.String(), typed) && len(choices) < MaxChoices {
			choices = append(choices, Choice{Name: req.Me().T("autocomplete.flips", "Square", m.String(), "Count", len(g.Position().Flips(m))), Value: m.String()})
		}
	}
	return Response{Choices: choices}, nil
}

// openingChoices are the named lines whose name (in the reader's
// language) or key holds what they typed, by name.
func openingChoices(t *catalog.Printer, typed string) []Choice {
	typed = strings.ToLower(strings.TrimSpace(typed))
	choices := []Choice{}
	for _, o := range opening.Standard().All() {
		name := o.Name(t)
		if len(choices) < MaxChoices && (strings.Contains(strings.ToLower(name), typed) || strings.Contains(o.Key, typed)) {
			choices = append(choices, Choice{Name: Clip(name, MaxChoiceName), Value: o.Key})
		}
	}
	return choices
}

// timeChoices are the controls offered as one types a time: what they
// typed first when it reads as one, then the common ones that start as
// typed (live ones only against the bot, whose games have no days).
func timeChoices(t *catalog.Printer, typed string, liveOnly bool) []Choice {
	typed = strings.ToLower(strings.TrimSpace(typed))
	choices := []Choice{}
	seen := map[string]bool{}
	add := func(c timecontrol.Control) {
		if v := c.String(); !seen[v] && len(choices) < MaxChoices && (c.Live() || !liveOnly) {
			seen[v] = true
			choices = append(choices, Choice{Name: Clip(ControlName(t, c), MaxChoiceName), Value: v})
		}
	}
	if c, err := timecontrol.Parse(typed); err == nil {
		add(c)
	}
	for _, c := range timecontrol.Common() {
		if strings.HasPrefix(c.String(), typed) {
			add(c)
		}
	}
	return choices
}
