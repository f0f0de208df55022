// Package gtp serves the engine over the Go Text Protocol, as Othello
// programs use it: boardsize, clear_board, play black d3, genmove white, ...
// so othello-bot can play other GTP programs such as grhino.
package gtp

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"

	"othello-bot/engine"
	"othello-bot/game"
	"othello-bot/lineio"
)

// Options set the engine's strength and thinking time.
type Options struct {
	Level    int
	MoveTime time.Duration
	Version  string
	Seed     uint64 // 0: random
	// Work says the engine plays on a work budget (engine.Options.Nodes):
	// neither the move time nor time_settings limits it then, an hour
	// per move stands as a safety net.
	Work bool
}

// Server holds one game and answers GTP commands about it.
type Server struct {
	eng      *engine.Engine
	level    int
	moveTime time.Duration
	version  string
	rng      *rand.Rand
	work     bool
	g        *game.Game
	history  []game.Game // for undo
}

// New returns a server with an 8x8 board set up.
func New(eng *engine.Engine, opts Options) *Server {
	if opts.Level == 0 {
		opts.Level = engine.MaxLevel
	}
	if opts.MoveTime <= 0 {
		opts.MoveTime = 2 * time.Second
	}
	seed := opts.Seed
	if seed == 0 {
		seed = rand.Uint64()
	}
	s := &Server{eng: eng, level: opts.Level, moveTime: opts.MoveTime, version: opts.Version, work: opts.Work,
		rng: rand.New(rand.NewPCG(seed, seed^0x5eed))}
	s.reset(8)
	return s
}

func (s *Server) reset(size int) {
	p, _ := game.NewPosition(size)
	s.g = game.NewGame(p)
	s.history = nil
}

var commands = []string{
	"boardsize", "clear_board", "final_score", "genmove", "known_command", "komi",
	"list_commands", "name", "play", "protocol_version", "quit", "set_level",
	"showboard", "time_left", "time_settings", "undo", "version",
}

var errSyntax = errors.New("syntax error")

// Serve reads commands from in until quit or the end of input.
func (s *Server) Serve(ctx context.Context, in io.Reader, out io.Writer) error {
	lines := lineio.New(in, 0)
	w := bufio.NewWriter(out)
	for {
		text, err := lines.Next()
		var tooLong *lineio.TooLongError
		switch {
		case errors.Is(err, io.EOF):
			return nil
		case errors.As(err, &tooLong):
			// The id is lost with the line; answer so the controller
			// stays in step.
			fmt.Fprintf(w, "? line too long\n\n")
			if err := w.Flush(); err != nil {
				return fmt.Errorf("gtp: writing response: %w", err)
			}
			continue
		case err != nil:
			return fmt.Errorf("gtp: reading commands: %w", err)
		}
		line, _, _ := strings.Cut(text, "#")
		fields := strings.Fields(line)
		if len(fields) == 0 {
			continue
		}
		id := ""
		// An id is a non-negative integer; "-5" is not one.
		if _, err := strconv.ParseUint(fields[0], 10, 63); err == nil {
			id, fields = fields[0], fields[1:]
			if len(fields) == 0 {
				continue
			}
		}
		cmd, args := strings.ToLower(fields[0]), fields[1:]
		resp, err := s.handle(ctx, cmd, args)
		if err != nil {
			fmt.Fprintf(w, "?%s %s\n\n", id, err)
		} else {
			fmt.Fprintf(w, "=%s %s\n\n", id, resp)
		}
		if err := w.Flush(); err != nil {
			return fmt.Errorf("gtp: writing response: %w", err)
		}
		if cmd == "quit" {
			return nil
		}
	}
}

func (s *Server) handle(ctx context.Context, cmd string, args []string) (string, error) {
	switch cmd {
	case "protocol_version":
		return "2", nil
	case "name":
		return "othello-bot", nil
	case "version":
		return s.version, nil
	case "known_command":
		if len(args) != 1 {
			return "", errSyntax
		}
		return strconv.FormatBool(slices.Contains(commands, strings.ToLower(args[0]))), nil
	case "list_commands":
		return strings.Join(commands, "\n"), nil
	case "quit", "komi", "time_left":
		return "", nil
	case "boardsize":
		n, err := oneInt(args)
		if err != nil || !game.ValidSize(n) {
			return "", errors.New("unacceptable size")
		}
		s.reset(n)
		return "", nil
	case "clear_board":
		s.reset(s.g.Position().Size())
		return "", nil
	case "play":
		return "", s.play(args)
	case "genmove":
		return s.genmove(ctx, args)
	case "undo":
		if len(s.history) == 0 {
			return "", errors.New("cannot undo")
		}
		*s.g = s.history[len(s.history)-1]
		s.history = s.history[:len(s.history)-1]
		return "", nil
	case "showboard":
		p := s.g.Position()
		b, w := p.Count()
		return fmt.Sprintf("\n%sX %d, O %d, %s to move", p.ASCII(), b, w, p.ToMove()), nil
	case "final_score":
		b, w := s.g.Position().Count()
		switch {
		case b > w:
			return fmt.Sprintf("B+%d", b-w), nil
		case w > b:
			return fmt.Sprintf("W+%d", w-b), nil
		}
		return "0", nil
	case "set_level":
		n, err := oneInt(args)
		if err != nil || n < engine.MinLevel || n > engine.MaxLevel {
			return "", fmt.Errorf("level must be %d..%d", engine.MinLevel, engine.MaxLevel)
		}
		s.level = n
		return "", nil
	case "time_settings":
		return "", s.timeSettings(args)
	}
	return "", errors.New("unknown command")
}

func oneInt(args []string) (int, error) {
	if len(args) != 1 {
		return 0, errSyntax
	}
	return strconv.Atoi(args[0])
}

// timeSettings takes main_time byo_yomi_time byo_yomi_stones: the engine
// thinks byo-yomi/stones per move when given, else main time over 30 moves.
func (s *Server) timeSettings(args []string) error {
	if len(args) != 3 {
		return errSyntax
	}
	var v [3]int
	for i, a := range args {
		n, err := strconv.Atoi(a)
		if err != nil || n < 0 {
			return errSyntax
		}
		v[i] = n
	}
	switch {
	case v[1] > 0 && v[2] > 0:
		s.moveTime = time.Duration(v[1]) * time.Second / time.Duration(v[2])
	case v[0] > 0:
		s.moveTime = time.Duration(v[0]) * time.Second / 30
	}
	return nil
}

func parseColor(s string) (game.Color, error) {
	if c, ok := game.ParseColor(s); ok {
		return c, nil
	}
	return game.Empty, errSyntax
}

// play applies a move. The game makes forced passes by itself, so
// "play C pass" is accepted exactly when C has no move.
func (s *Server) play(args []string) error {
	if len(args) != 2 {
		return errSyntax
	}
	c, err := parseColor(args[0])
	if err != nil {
		return err
	}
	p := s.g.Position()
	if strings.EqualFold(args[1], "pass") {
		if p.ToMove() == c && p.HasMoves() {
			return errors.New("illegal move")
		}
		return nil
	}
	sq, err := game.ParseSquare(args[1], p.Size())
	if err != nil || p.ToMove() != c {
		return errors.New("illegal move")
	}
	prev := *s.g
	if _, err := s.g.Play(sq); err != nil {
		return errors.New("illegal move")
	}
	s.history = append(s.history, prev)
	return nil
}

func (s *Server) genmove(ctx context.Context, args []string) (string, error) {
	if len(args) != 1 {
		return "", errSyntax
	}
	c, err := parseColor(args[0])
	if err != nil {
		return "", err
	}
	p := s.g.Position()
	if p.GameOver() {
		return "pass", nil
	}
	if p.ToMove() != c {
		if p.Pass().HasMoves() {
			return "", fmt.Errorf("it is %s's turn", p.ToMove())
		}
		return "pass", nil // c had no move; the game passed for it
	}
	limit := s.moveTime
	if s.work {
		limit = time.Hour
	}
	ctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	r, err := s.eng.Move(ctx, p, s.level, s.rng)
	if err != nil {
		return "", err
	}
	prev := *s.g
	if _, err := s.g.Play(r.Move); err != nil {
		return "", fmt.Errorf("engine chose an illegal move %s: %v", r.Move, err)
	}
	s.history = append(s.history, prev)
	return r.Move.String(), nil
}
