package bot

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"

	"othello-bot/engine"
	"othello-bot/game"
	"othello-bot/record"
)

const noGame = "There is no game in this channel. Start one with /start."

// channelGame loads the channel's active game. Without one it returns nil
// and the refusal to answer with (or the error).
func (s *Service) channelGame(ctx context.Context, channelID string) (*record.Game, Response, error) {
	g, err := s.store.ActiveGame(ctx, channelID)
	switch {
	case errors.Is(err, record.ErrNotFound):
		return nil, refuse(noGame), nil
	case err != nil:
		return nil, Response{}, err
	}
	return g, Response{}, nil
}

func (s *Service) start(ctx context.Context, req Request) (Response, error) {
	level, err := intOption(req, "level", s.cfg.DefaultLevel)
	if err != nil || level < engine.MinLevel || level > engine.MaxLevel {
		return refuse("The level must be a number from 1 (easiest) to 10 (strongest)."), nil
	}
	size, err := intOption(req, "size", s.cfg.DefaultSize)
	if err != nil || !game.ValidSize(size) {
		return refuse("The board size must be an even number from 4 to 26."), nil
	}
	color, ok := colorOption(req)
	if !ok {
		return refuse("The color must be black, white or random."), nil
	}
	style, err := s.styleFor(ctx, req)
	if err != nil {
		return refuse("The style must be emoji, image or auto."), nil
	}
	unlock := s.lockChannel(req.ChannelID)
	defer unlock()
	if g, err := s.store.ActiveGame(ctx, req.ChannelID); err == nil {
		if _, playing := playerColor(g, req.User.ID); playing {
			return refuse("Game #%d is already running in this channel. Finish it first, or start a thread for another game.", g.ID), nil
		}
		return refuse("Game #%d (%s) is running in this channel. Start a thread for your own game.", g.ID, gamePlayers(g)), nil
	} else if !errors.Is(err, record.ErrNotFound) {
		return Response{}, err
	}
	start, err := game.NewPosition(size)
	if err != nil {
		return Response{}, err
	}
	now := s.clock.Now()
	g := &record.Game{GuildID: req.GuildID, ChannelID: req.ChannelID, State: game.NewGame(start),
		CreatedAt: now, UpdatedAt: now, TurnStartedAt: now, Style: style}
	human := record.Human(req.User)
	g.Black, g.White = human, record.Bot(level)
	if orRandom(color) == game.White {
		g.Black, g.White = g.White, g.Black
	}
	if g.ToMove().IsBot() && req.Token != "" {
		// The bot moves first: if it crashes while thinking, the restarted
		// bot finishes this reply.
		g.ReplyToken, g.ReplyExpires = req.Token, now.Add(replyTokenLife)
	}
	if err := s.store.CreateGame(ctx, g); errors.Is(err, record.ErrChannelBusy) {
		return refuse("A game is already running in this channel."), nil
	} else if err != nil {
		return Response{}, err
	}
	s.logger(ctx).Info("game started", "game", g.ID, "channel", g.ChannelID, "user", req.User.ID, "level", level, "size", size)
	notes := []string{fmt.Sprintf("%s started a game against %s.", name(req.User), sideName(record.Bot(level)))}
	more, err := s.advance(ctx, g)
	if err != nil {
		return Response{}, err
	}
	return Response{Message: s.gameMessage(g, append(notes, more...))}, nil
}

// advance lets the bot move while it is to move, then ends the game if
// neither side can move. It returns what happened, for the message.
func (s *Service) advance(ctx context.Context, g *record.Game) ([]string, error) {
	var notes []string
	for !g.State.Over() && g.ToMove().IsBot() {
		side := g.ToMove()
		mctx, cancel := context.WithTimeout(ctx, s.cfg.EngineMoveTime)
		r, err := s.eng.Move(mctx, g.Position(), side.Level, rand.New(rand.NewPCG(rand.Uint64(), uint64(g.ID))))
		cancel()
		if err != nil {
			return notes, fmt.Errorf("engine move in game %d: %w", g.ID, err)
		}
		plies, err := g.State.Play(r.Move)
		if err != nil {
			return notes, fmt.Errorf("engine chose %s in game %d: %w", r.Move, g.ID, err)
		}
		if err := s.commit(ctx, g, plies, ""); err != nil {
			return notes, err
		}
		notes = append(notes, describePlies(g, plies)...)
	}
	if g.State.Over() {
		note, err := s.finish(ctx, g, record.EndNormal, game.Empty)
		if err != nil {
			return notes, err
		}
		notes = append(notes, note)
	}
	return notes, nil
}

// commit stores a turn with the timer it starts. token is the reply owed
// to the player who made the turn, kept while the bot thinks about its own.
func (s *Service) commit(ctx context.Context, g *record.Game, plies []game.Ply, token string) error {
	now := s.clock.Now()
	t := record.Turn{Plies: plies, At: now}
	if !g.State.Over() && !g.Black.IsBot() && !g.White.IsBot() {
		t.Deadline = now.Add(s.cfg.MoveTimeout)
	}
	if token != "" && !g.State.Over() && g.ToMove().IsBot() {
		t.ReplyToken, t.ReplyExpires = token, now.Add(replyTokenLife)
	}
	return s.store.AppendTurn(ctx, g, t)
}

// finish ends a game. loser is the side that resigned or ran out of time
// (Empty for a normal end, where the discs decide).
func (s *Service) finish(ctx context.Context, g *record.Game, reason record.EndReason, loser game.Color) (string, error) {
	p := g.Position()
	b, w := p.Count()
	winner := p.Winner()
	if loser != game.Empty {
		winner = loser.Opponent()
	}
	// Ended early by a player rather than by the board: aborted, unrated.
	if reason != record.EndNormal && (movesBy(g, game.Black) < 2 || movesBy(g, game.White) < 2) {
		reason = record.EndAbort
	}
	result := record.Result{FinishedAt: s.clock.Now(), BlackDiscs: b, WhiteDiscs: w, Winner: winner, Reason: reason}
	err := s.store.FinishGame(ctx, g, result, RatingUpdate(g, result))
	if err != nil {
		return "", err
	}
	s.logger(ctx).Info("game over", "game", g.ID, "reason", reason, "black", b, "white", w)
	return resultLine(g), nil
}

func movesBy(g *record.Game, c game.Color) int {
	n := 0
	for _, p := range g.Plies() {
		if p.Color == c && !p.Square.IsPass() {
			n++
		}
	}
	return n
}

func (s *Service) moveCommand(ctx context.Context, req Request) (Response, error) {
	return s.playMove(ctx, req, req.Options["square"], 0, -1)
}

// moveComponent plays a move picked from a game message's select menu,
// whose custom id carries the game and ply it was made for.
func (s *Service) moveComponent(ctx context.Context, req Request, args string) (Response, error) {
	id, ply, ok := parseGamePly(args)
	if !ok || len(req.Values) != 1 {
		return refuse("That menu no longer works; use /board for the current game."), nil
	}
	resp, err := s.playMove(ctx, req, req.Values[0], id, ply)
	if resp.Message != nil && !resp.Message.Ephemeral {
		resp.Update = true
	}
	return resp, err
}

func parseGamePly(args string) (id int64, ply int, ok bool) {
	a, b, found := strings.Cut(args, ":")
	id, err1 := strconv.ParseInt(a, 10, 64)
	ply, err2 := strconv.Atoi(b)
	return id, ply, found && err1 == nil && err2 == nil
}

// playMove plays a human move. wantGame and wantPly (0 and -1 for a typed
// command) name the board a component was pressed on.
func (s *Service) playMove(ctx context.Context, req Request, square string, wantGame int64, wantPly int) (Response, error) {
	unlock := s.lockChannel(req.ChannelID)
	defer unlock()
	g, err := s.store.ActiveGame(ctx, req.ChannelID)
	if errors.Is(err, record.ErrNotFound) {
		if wantGame != 0 {
			return refuse("That game is over. Start a new one with /start."), nil
		}
		return refuse(noGame), nil
	}
	if err != nil {
		return Response{}, err
	}
	if wantGame != 0 && (wantGame != g.ID || wantPly != len(g.Plies())) {
		return refuse("That board is out of date. Use the newest one, or /board to see the game now."), nil
	}
	color, playing := playerColor(g, req.User.ID)
	if !playing {
		return refuse("You are not playing in this game. Start your own with /start in another channel or a thread."), nil
	}
	if g.Position().ToMove() != color {
		return refuse("It's not your turn: %s is to move.", sideLabel(g, g.Position().ToMove())), nil
	}
	if strings.TrimSpace(square) == "" {
		return refuse("Which square? Type it like /move d3. Your legal moves: %s.", game.SquareList(g.Position().LegalMoves())), nil
	}
	var plies []game.Ply
	sq, err := game.ParseSquare(square, g.Size())
	if err == nil {
		plies, err = g.State.Play(sq) // a refused move leaves the game as it was
	}
	if err != nil {
		return refuse("%s. Your legal moves: %s.", err, game.SquareList(g.Position().LegalMoves())), nil
	}
	if err := s.commit(ctx, g, plies, req.Token); errors.Is(err, record.ErrStale) || errors.Is(err, record.ErrNotActive) {
		return refuse("The game changed at the same moment; use /board to see it now."), nil
	} else if err != nil {
		return Response{}, err
	}
	notes := describePlies(g, plies)
	more, err := s.advance(ctx, g)
	if err != nil {
		return Response{}, err
	}
	resp := Response{Message: s.gameMessage(g, append(notes, more...))}
	// In a game between members, the turn passing to the other player
	// pings them (an edited message would not).
	if next := g.ToMove(); g.Status == record.Active && !next.IsBot() && next.Player.ID != req.User.ID {
		text := fmt.Sprintf("your move in game #%d.", g.ID)
		if !g.Deadline.IsZero() {
			text = fmt.Sprintf("your move in game #%d (time runs out %s).", g.ID, stamp(g.Deadline, stampRelative))
		}
		resp.Followups = []Message{ping(next.Player.ID, text)}
	}
	return resp, nil
}

func playerColor(g *record.Game, userID string) (game.Color, bool) {
	switch {
	case !g.Black.IsBot() && g.Black.Player.ID == userID:
		return game.Black, true
	case !g.White.IsBot() && g.White.Player.ID == userID:
		return game.White, true
	}
	return game.Empty, false
}

func (s *Service) board(ctx context.Context, req Request) (Response, error) {
	g, refusal, err := s.channelGame(ctx, req.ChannelID)
	if g == nil {
		return refusal, err
	}
	return Response{Message: s.gameMessage(g, nil)}, nil
}

func (s *Service) hint(ctx context.Context, req Request) (Response, error) {
	g, refusal, err := s.channelGame(ctx, req.ChannelID)
	if g == nil {
		return refusal, err
	}
	color, playing := playerColor(g, req.User.ID)
	switch {
	case !playing:
		return refuse("Hints are for the players of this game."), nil
	case g.Rated:
		return refuse("Hints are off in rated games."), nil
	case g.Position().ToMove() != color:
		return refuse("It's not your turn; ask again when it is."), nil
	}
	actx, cancel := context.WithTimeout(ctx, s.cfg.EngineMoveTime)
	defer cancel()
	evals, err := s.eng.Analyze(actx, g.Position())
	if err != nil {
		return Response{}, fmt.Errorf("hint for game %d: %w", g.ID, err)
	}
	var lines []string
	exact := true
	for i, e := range evals {
		if i == 3 {
			break
		}
		exact = exact && e.Eval.Exact
		lines = append(lines, fmt.Sprintf("**%s** %s", e.Move, describeEval(e.Eval)))
	}
	unit := "Numbers: the final disc margin I expect for you (+ ahead, − behind)."
	if exact {
		unit = "Solved exactly: the final disc margin with perfect play from both sides."
	}
	return Response{Message: &Message{Ephemeral: true, Content: "My suggestion: " + strings.Join(lines, " · ") + "\n" + unit}}, nil
}

func describeEval(e engine.Eval) string {
	d := e.Cents / 100
	switch {
	case e.Exact && d > 0:
		return fmt.Sprintf("(wins by %d with perfect play)", d)
	case e.Exact && d < 0:
		return fmt.Sprintf("(loses by %d with perfect play)", -d)
	case e.Exact:
		return "(a draw with perfect play)"
	}
	return fmt.Sprintf("(%+.1f discs)", e.Discs())
}

func (s *Service) resignAsk(ctx context.Context, req Request) (Response, error) {
	g, refusal, err := s.channelGame(ctx, req.ChannelID)
	if g == nil {
		return refusal, err
	}
	return s.confirmResign(g, req.User.ID), nil
}

func (s *Service) confirmResign(g *record.Game, userID string) Response {
	if _, playing := playerColor(g, userID); !playing {
		return refuse("You are not playing in this game.")
	}
	id := strconv.FormatInt(g.ID, 10)
	return Response{Message: &Message{Ephemeral: true, Content: fmt.Sprintf("Resign game #%d? This cannot be undone.", g.ID),
		Components: []Row{{Buttons: []ButtonSpec{
			{Label: "Resign", CustomID: "resign-yes:" + id, Style: Danger},
			{Label: "Keep playing", CustomID: "resign-no:" + id, Style: Secondary},
		}}}}}
}

// resignButton is the Resign button on a game message: it asks first.
func (s *Service) resignButton(ctx context.Context, req Request, args string) (Response, error) {
	id, _, ok := parseGamePly(args)
	g, err := s.store.ActiveGame(ctx, req.ChannelID)
	if errors.Is(err, record.ErrNotFound) || ok && err == nil && g.ID != id {
		return refuse("That game is over."), nil
	}
	if err != nil {
		return Response{}, err
	}
	return s.confirmResign(g, req.User.ID), nil
}

func (s *Service) resignConfirm(ctx context.Context, req Request, args string) (Response, error) {
	id, err := strconv.ParseInt(args, 10, 64)
	if err != nil {
		return refuse("That button no longer works."), nil
	}
	unlock := s.lockChannel(req.ChannelID)
	defer unlock()
	g, err := s.store.ActiveGame(ctx, req.ChannelID)
	if errors.Is(err, record.ErrNotFound) || err == nil && g.ID != id {
		return Response{Update: true, Message: &Message{Ephemeral: true, Content: "That game is already over."}}, nil
	}
	if err != nil {
		return Response{}, err
	}
	color, playing := playerColor(g, req.User.ID)
	if !playing {
		return refuse("You are not playing in this game."), nil
	}
	note, err := s.finish(ctx, g, record.EndResign, color)
	if errors.Is(err, record.ErrStale) {
		return refuse("The game changed at the same moment; try again."), nil
	}
	if err != nil {
		return Response{}, err
	}
	final := s.gameMessage(g, []string{fmt.Sprintf("%s resigned.", name(req.User)), note})
	resp := Response{Update: true, Message: &Message{Ephemeral: true, Content: fmt.Sprintf("You resigned game #%d.", g.ID)}}
	if !s.showFinal(ctx, g, *final) {
		// The bot may not post in this channel: the interaction can.
		resp.Followups = []Message{*final}
	}
	return resp, nil
}

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
		if strings.HasPrefix(m.String(), typed) && len(choices) < maxMenuOptions {
			choices = append(choices, Choice{Name: fmt.Sprintf("%s (flips %d)", m, len(g.Position().Flips(m))), Value: m.String()})
		}
	}
	return Response{Choices: choices}, nil
}

// Resume picks up after a restart: the bot moves in every game where it is
// to move, and games that ended as the process stopped are finished. Each
// gets a fresh message in its channel.
func (s *Service) Resume(ctx context.Context) error {
	games, err := s.store.ActiveGames(ctx)
	if err != nil {
		return err
	}
	for _, g := range games {
		if !g.State.Over() && !g.ToMove().IsBot() {
			continue
		}
		s.logger(ctx).Info("resuming game", "game", g.ID, "channel", g.ChannelID)
		token, tokenValid := g.ReplyToken, g.ReplyToken != "" && s.clock.Now().Before(g.ReplyExpires)
		unlock := s.lockChannel(g.ChannelID)
		notes, err := s.advance(ctx, g)
		unlock()
		if err != nil {
			s.logger(ctx).Error("resume", "game", g.ID, "err", err)
			continue
		}
		msg := s.gameMessage(g, append([]string{"I'm back."}, notes...))
		if tokenValid {
			// Finish the reply the player has been looking at.
			s.fitOut(ctx, msg)
			id, err := s.notify.EditReply(ctx, token, *msg)
			if err == nil {
				s.Posted(ctx, g.ChannelID, msg, id)
				continue
			}
			s.logger(ctx).Warn("resume: finishing the reply in flight", "game", g.ID, "err", err)
		}
		if _, err := s.send(ctx, g.ChannelID, *msg); err != nil {
			s.logger(ctx).Error("resume: posting", "game", g.ID, "err", err)
		}
	}
	s.Tick(ctx) // timers that fell due while the bot was away
	return nil
}

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
