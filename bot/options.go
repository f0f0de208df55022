package bot

// This file reads the options of /start and /challenge: level, size, colour,
// style.

import (
	"context"
	"errors"
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
		return s.prefs.BoardStyle(ctx, req.User.ID)
	}
	style, ok := record.ParseStyle(strings.ToLower(strings.TrimSpace(v)))
	if !ok {
		return "", errBadStyle
	}
	if err := s.prefs.SetBoardStyle(ctx, req.User, style, s.clock.Now()); err != nil {
		return "", err
	}
	return style, nil
}

func IntOption(req Request, name string, def int) (int, error) {
	v, ok := req.Options[name]
	if !ok || v == "" {
		return def, nil
	}
	return strconv.Atoi(strings.TrimSpace(v))
}

// colorOption reads the color option: black, white, or random (also when
// it is not given).
func colorOption(req Request) (record.ColorChoice, bool) {
	v := strings.TrimSpace(req.Options["color"])
	if v == "" || strings.EqualFold(v, "random") {
		return record.RandomColor, true
	}
	c, ok := game.ParseColor(v)
	return record.Choose(c), ok
}

// gameOptions are the options /start and /challenge share.
type gameOptions struct {
	size  int
	color record.ColorChoice
	style record.Style
}

// readGameOptions reads the size, colour and style of a new game; a wrong
// one gives the refusal to answer with. A given style becomes the
// player's preference.
func (s *Service) readGameOptions(ctx context.Context, req Request) (gameOptions, *Response, error) {
	var o gameOptions
	var err error
	o.size, err = IntOption(req, "size", s.cfg.DefaultSize)
	if err != nil || !game.ValidSize(o.size) {
		return o, Refusal(req.Me().T("start.bad_size")), nil
	}
	var ok bool
	if o.color, ok = colorOption(req); !ok {
		return o, Refusal(req.Me().T("start.bad_color")), nil
	}
	o.style, err = s.styleFor(ctx, req)
	if errors.Is(err, errBadStyle) {
		return o, Refusal(req.Me().T("start.bad_style")), nil
	}
	return o, nil, err
}
