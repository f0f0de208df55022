// Package termgame is the classic terminal game of Othello against the
// computer: questions and answers on a text stream, the bordered ASCII board.
package termgame

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"othello-bot/catalog"
	"othello-bot/game"
	"othello-bot/lineio"
)

// Opponent chooses the computer's moves. The position always has a legal
// move for the side to move.
type Opponent interface {
	Move(ctx context.Context, p game.Position) (game.Square, error)
}

// OpponentFunc adapts a function to Opponent.
type OpponentFunc func(ctx context.Context, p game.Position) (game.Square, error)

func (f OpponentFunc) Move(ctx context.Context, p game.Position) (game.Square, error) {
	return f(ctx, p)
}

// Options set up a game. Without a Preset the player is asked for the board
// size and their letter.
type Options struct {
	Preset   *Preset
	Opponent Opponent
	// Words is the player's language; nil is English, the classic text.
	Words *catalog.Printer
}

// ErrNoInput is returned when the input ends while the game waits for the
// player's answer (after saying so to the player).
var ErrNoInput = errors.New("no more input; the game is left unfinished")

type session struct {
	ctx    context.Context
	in     *lineio.Reader
	out    io.Writer
	opp    Opponent
	player game.Color
	script map[game.Color][]string
	t      *catalog.Printer
}

// Run plays one game on in/out and returns when it ends, when the input
// runs out (ErrNoInput) or when ctx is done.
func Run(ctx context.Context, in io.Reader, out io.Writer, opts Options) error {
	if opts.Opponent == nil {
		return errors.New("termgame: no opponent")
	}
	s := &session{ctx: ctx, in: lineio.New(in, 0), out: out, opp: opts.Opponent, script: map[game.Color][]string{}, t: opts.Words}
	if s.t == nil {
		s.t = catalog.For(catalog.English)
	}
	err := s.play(opts.Preset)
	if errors.Is(err, ErrNoInput) {
		s.say(s.t.T("term.no_input"))
	}
	return err
}

func (s *session) play(preset *Preset) error {

	var start game.Position
	if p := preset; p != nil {
		start, s.player = p.start, p.player
		s.script[s.player] = append([]string(nil), p.ScriptedMoves.Player...)
		s.script[s.player.Opponent()] = append([]string(nil), p.ScriptedMoves.Computer...)
	} else {
		size, err := s.askSize()
		if err != nil {
			return err
		}
		if s.player, err = s.askLetter(); err != nil {
			return err
		}
		start, _ = game.NewPosition(size)
	}
	s.say(s.t.T("term.player_is", "Letter", s.player.Letter()))
	g := game.NewGame(start)
	fmt.Fprint(s.out, g.Position().ASCII())
	s.announcePasses(g.Plies())

	for !g.Over() {
		if err := s.ctx.Err(); err != nil {
			return err
		}
		var plies []game.Ply
		var err error
		if g.Position().ToMove() == s.player {
			plies, err = s.playerTurn(g)
		} else {
			plies, err = s.computerTurn(g)
		}
		if err != nil {
			return err
		}
		fmt.Fprint(s.out, g.Position().ASCII())
		b, w := g.Position().Count()
		s.say(s.t.T("term.score", "Black", b, "White", w))
		s.announcePasses(plies[1:])
	}
	s.sayResult(g.Position())
	return nil
}

func (s *session) say(line string) {
	fmt.Fprintln(s.out, line)
}

// ask prints a question and returns the next line of input.
func (s *session) ask(question string) (string, error) {
	for {
		s.say(question)
		line, err := s.in.Next()
		var tooLong *lineio.TooLongError
		switch {
		case errors.Is(err, io.EOF):
			return "", ErrNoInput
		case errors.As(err, &tooLong):
			s.say(s.t.T("term.too_long", "Max", tooLong.Max))
			continue
		case err != nil:
			return "", fmt.Errorf("reading input: %w", err)
		}
		return strings.TrimSpace(line), nil
	}
}

func (s *session) askSize() (int, error) {
	for {
		a, err := s.ask(s.t.T("term.ask_size"))
		if err != nil {
			return 0, err
		}
		n, err := strconv.Atoi(a)
		switch {
		case err != nil:
			s.say(s.t.T("term.not_number", "Input", strconv.Quote(a)))
		case !game.ValidSize(n):
			s.say(s.t.T("term.bad_size", "Size", n))
		default:
			return n, nil
		}
	}
}

func (s *session) askLetter() (game.Color, error) {
	for {
		a, err := s.ask(s.t.T("term.ask_letter"))
		if err != nil {
			return game.Empty, err
		}
		switch a {
		case "X":
			return game.Black, nil
		case "O":
			return game.White, nil
		}
		s.say(s.t.T("term.bad_letter"))
	}
}

// nextScripted plays the side's scripted moves while they last, skipping any
// that cannot be played. It returns nil plies when the script has nothing
// usable left.
func (s *session) nextScripted(g *game.Game) []game.Ply {
	side := g.Position().ToMove()
	for len(s.script[side]) > 0 {
		text := s.script[side][0]
		s.script[side] = s.script[side][1:]
		sq, err := game.ParseSquare(text, g.Position().Size())
		if err == nil {
			var plies []game.Ply
			if plies, err = g.Play(sq); err == nil {
				s.say(s.t.T(s.whose(side, "term.scripted"), "Square", sq))
				return plies
			}
		}
		s.say(s.t.T("term.skipped", "Move", text, "Why", s.t.MoveError(text, g.Position().Size(), err)))
	}
	return nil
}

func (s *session) playerTurn(g *game.Game) ([]game.Ply, error) {
	if plies := s.nextScripted(g); plies != nil {
		return plies, nil
	}
	for {
		a, err := s.ask(s.t.T("term.ask_move"))
		if err != nil {
			return nil, err
		}
		sq, err := game.ParseSquare(a, g.Position().Size())
		if err == nil {
			var plies []game.Ply
			if plies, err = g.Play(sq); err == nil {
				return plies, nil
			}
		}
		s.say(s.t.T("term.invalid", "Why", s.t.MoveError(a, g.Position().Size(), err), "Moves", game.SquareList(g.Position().LegalMoves())))
	}
}

func (s *session) computerTurn(g *game.Game) ([]game.Ply, error) {
	// The pause lets a person read the board; scripts that end their input
	// early simply let the computer go on.
	if _, err := s.ask(s.t.T("term.ask_enter")); err != nil && !errors.Is(err, ErrNoInput) {
		return nil, err
	}
	if plies := s.nextScripted(g); plies != nil {
		return plies, nil
	}
	sq, err := s.opp.Move(s.ctx, g.Position())
	if err != nil {
		return nil, fmt.Errorf("computer move: %w", err)
	}
	plies, err := g.Play(sq)
	if err != nil {
		return nil, fmt.Errorf("computer chose %s: %w", sq, err)
	}
	s.say(s.t.T("term.computer_plays", "Square", sq))
	return plies, nil
}

func (s *session) announcePasses(plies []game.Ply) {
	for _, p := range plies {
		if p.Square.IsPass() {
			s.say(s.t.T(s.whose(p.Color, "term.passes"), "Letter", p.Color.Letter()))
		}
	}
}

func (s *session) sayResult(p game.Position) {
	b, w := p.Count()
	s.say(s.t.T("term.game_over", "Black", b, "White", w))
	switch p.Winner() {
	case game.Empty:
		s.say(s.t.T("term.draw"))
	case s.player:
		s.say(s.t.T("term.you_win"))
	default:
		s.say(s.t.T("term.computer_wins"))
	}
}

// whose picks the player's or the computer's form of a message.
func (s *session) whose(c game.Color, id string) string {
	if c == s.player {
		return id + ".player"
	}
	return id + ".computer"
}
