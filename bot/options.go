package bot

// This file reads the options of /start and /challenge: level, size, colour,
// style.

import (
	"context"
	"errors"
	"math/rand/v2"
	"strconv"
	"strings"

	"othello-bot/game"
	"othello-bot/record"
)

var errBadStyle = errors.New("bad style")

// styleFor reads the style option: a given style becomes the user's
// preference; without one, the preference applies.
func (s *Service) styleFor(ctx context.Context, req Request) (record.Style, error) {
	v, given := req.Options["style"]
	if !given || strings.TrimSpace(v) == "" {
		return s.store.BoardStyle(ctx, req.User.ID)
	}
	style, ok := record.ParseStyle(strings.ToLower(strings.TrimSpace(v)))
	if !ok {
		return "", errBadStyle
	}
	if err := s.store.SetBoardStyle(ctx, req.User, style, s.clock.Now()); err != nil {
		return "", err
	}
	return style, nil
}

func intOption(req Request, name string, def int) (int, error) {
	v, ok := req.Options[name]
	if !ok || v == "" {
		return def, nil
	}
	return strconv.Atoi(strings.TrimSpace(v))
}

// colorOption reads the color option: black, white, or Empty for random
// (also when it is not given).
func colorOption(req Request) (game.Color, bool) {
	v := strings.TrimSpace(req.Options["color"])
	if v == "" || strings.EqualFold(v, "random") {
		return game.Empty, true
	}
	return game.ParseColor(v)
}

// orRandom settles a colour choice of Empty (random) by a coin toss.
func orRandom(c game.Color) game.Color {
	if c != game.Empty {
		return c
	}
	if rand.IntN(2) == 0 {
		return game.Black
	}
	return game.White
}
