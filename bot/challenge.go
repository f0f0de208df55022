package bot

// This file is challenges between members: /challenge, Accept, Decline,
// Cancel, the cooldown, and Rematch.

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"othello-bot/game"
	"othello-bot/record"
)

// challenge posts an invitation to a player-vs-player game: to one member,
// or open to anyone when no opponent is named.
func (s *Service) challenge(ctx context.Context, req Request) (Response, error) {
	opp := record.Player{ID: strings.TrimSpace(req.Options["opponent"])}
	opp.Name = req.UserNames[opp.ID]
	if opp.Name == "" {
		opp.Name = opp.ID
	}
	if opp.ID == req.User.ID {
		return refuse("You can't challenge yourself. /start plays a game against me."), nil
	}
	if req.BotUsers[opp.ID] {
		return refuse("Bots can't take challenges. /start plays a game against me."), nil
	}
	rated := true
	if v, ok := req.Options["rated"]; ok && v != "" {
		var err error
		if rated, err = strconv.ParseBool(v); err != nil {
			return refuse("rated must be true or false."), nil
		}
	}
	opts, refusal, err := s.readGameOptions(ctx, req)
	if refusal != nil || err != nil {
		return deref(refusal), err
	}
	if missing := s.missingPermission(req, opts.size, opts.style); missing != "" {
		return refuse("I can't post challenges here: a server admin needs to give me the %s permission in this channel.", missing), nil
	}
	refusal, inThread, err := s.finishedThread(ctx, req.ChannelID)
	if refusal != nil || err != nil {
		return deref(refusal), err
	}
	c := &record.Challenge{GuildID: req.GuildID, ChannelID: req.ChannelID, Challenger: req.User, Opponent: opp,
		Color: opts.color, Size: opts.size, Rated: rated, Style: opts.style}
	return s.issue(ctx, c, "", false, !inThread && s.threadsHere(req))
}

// issue checks and stores a challenge and posts its message in the channel;
// the reply to the challenger is a short note only they see. A rematch is
// not held back by the cooldown. With threaded set the game will get its
// own thread, so a game running in the channel does not stand in the way.
func (s *Service) issue(ctx context.Context, c *record.Challenge, intro string, rematch, threaded bool) (Response, error) {
	unlock := s.lockChannel(c.ChannelID)
	defer unlock()
	if g, err := s.store.ActiveGame(ctx, c.ChannelID); err == nil && !threaded {
		return refuse("Game #%d is running in this channel. Challenge in another channel or a thread.", g.ID), nil
	} else if err != nil && !errors.Is(err, record.ErrNotFound) {
		return Response{}, err
	}
	now := s.clock.Now()
	if !rematch {
		recent, err := s.store.RecentChallenges(ctx, c.Challenger.ID, 2)
		if err != nil {
			return Response{}, err
		}
		if wait := s.cooldownLeft(recent, now); wait > 0 {
			return refuse("Please wait %s before your next challenge.", roundUp(wait)), nil
		}
	}
	c.CreatedAt, c.ExpiresAt = now, now.Add(s.cfg.ChallengeExpiry)
	if err := s.store.CreateChallenge(ctx, c); errors.Is(err, record.ErrChallengePending) {
		return refuse("You already have a challenge waiting in this channel. Cancel it first, or wait for an answer."), nil
	} else if err != nil {
		return Response{}, err
	}
	msg := s.challengeMessage(c, intro)
	id, err := s.send(ctx, c.ChannelID, *msg)
	if err != nil {
		if _, cerr := s.store.CloseChallenge(ctx, c.ID, record.ChallengeCanceled); cerr != nil {
			err = errors.Join(err, fmt.Errorf("withdrawing it: %w", cerr))
		}
		return Response{}, fmt.Errorf("posting challenge %d: %w", c.ID, err)
	}
	if err := s.store.SetChallengeMessage(ctx, c.ID, id); err != nil {
		return Response{}, err
	}
	s.logger(ctx).Info("challenge", "challenge", c.ID, "challenger", c.Challenger.ID, "opponent", c.Opponent.ID)
	if c.Opponent.ID == "" {
		return refuse("Open challenge posted: anyone here may accept it. It expires in %s.", roundUp(s.cfg.ChallengeExpiry)), nil
	}
	return refuse("Challenge sent to %s. It expires in %s.", name(c.Opponent), roundUp(s.cfg.ChallengeExpiry)), nil
}

// cooldownLeft is how long a player must still wait before a new
// challenge, given their last two. Correcting a challenge right after
// canceling it is not spam: one such correction is free per cooldown. A
// stored time in the future (the clock stepped back) never makes the wait
// longer than the cooldown itself.
func (s *Service) cooldownLeft(recent []*record.Challenge, now time.Time) time.Duration {
	cool := s.cfg.ChallengeCooldown
	if len(recent) == 0 {
		return 0
	}
	last := recent[0]
	if last.Status == record.ChallengeCanceled && (len(recent) < 2 || now.Sub(recent[1].CreatedAt) >= cool) {
		return 0
	}
	return min(last.CreatedAt.Add(cool).Sub(now), cool)
}

func colorWords(c *record.Challenge) string {
	switch color, _ := c.Color.Color(); color {
	case game.Black:
		return name(c.Challenger) + " plays black"
	case game.White:
		return name(c.Challenger) + " plays white"
	}
	return "colours drawn at random"
}

// challengeMessage shows a challenge with the buttons its status allows.
func (s *Service) challengeMessage(c *record.Challenge, intro string) *Message {
	kind := "an unrated"
	if c.Rated {
		kind = "a rated"
	}
	what := fmt.Sprintf("%s %dx%d game (%s)", kind, c.Size, c.Size, colorWords(c))
	var text string
	m := &Message{}
	switch {
	case c.Opponent.ID != "" && c.Status == record.ChallengePending:
		// The one deliberate ping of a challenge: the member challenged.
		text = fmt.Sprintf("%s, **%s** challenges you to %s.", mention(c.Opponent.ID), name(c.Challenger), what)
		m.Mentions = []string{c.Opponent.ID}
	case c.Opponent.ID != "":
		text = fmt.Sprintf("**%s** challenged **%s** to %s.", name(c.Challenger), name(c.Opponent), what)
	default:
		text = fmt.Sprintf("**%s** is looking for an opponent: %s. Anyone may accept.", name(c.Challenger), what)
	}
	if intro != "" {
		text = intro + " " + text
	}
	id := strconv.FormatInt(c.ID, 10)
	switch c.Status {
	case record.ChallengePending:
		text += fmt.Sprintf(" It expires %s.", stamp(c.ExpiresAt, stampRelative))
		buttons := []ButtonSpec{{Label: "Accept", CustomID: "accept:" + id, Style: Success}}
		if c.Opponent.ID != "" {
			buttons = append(buttons, ButtonSpec{Label: "Decline", CustomID: "decline:" + id, Style: Secondary})
		}
		buttons = append(buttons, ButtonSpec{Label: "Cancel", CustomID: "cancel:" + id, Style: Danger})
		m.Components = []Row{{Buttons: buttons}}
	case record.ChallengeExpired:
		text += " ⌛ The challenge expired without an answer."
	case record.ChallengeDeclined:
		text += fmt.Sprintf(" %s declined.", name(c.Opponent))
	case record.ChallengeCanceled:
		text += fmt.Sprintf(" %s canceled it.", name(c.Challenger))
	}
	m.Content = text
	return m
}

// answerChallenge handles Accept, Decline and Cancel. Only the named
// opponent may accept or decline (anyone but the challenger, for an open
// challenge), and only the challenger may cancel.
func (s *Service) answerChallenge(ctx context.Context, req Request, action, args string) (Response, error) {
	id, err := strconv.ParseInt(args, 10, 64)
	if err != nil {
		return refuse("That button no longer works."), nil
	}
	unlock := s.lockChannel(req.ChannelID)
	defer unlock()
	c, err := s.store.Challenge(ctx, id)
	if errors.Is(err, record.ErrNotFound) {
		return refuse("That challenge no longer exists."), nil
	}
	if err != nil {
		return Response{}, err
	}
	if c.ChannelID != req.ChannelID {
		// A forged or misrouted custom id: the challenge lives elsewhere.
		s.logger(ctx).Warn("challenge button from another channel", "challenge", c.ID, "channel", req.ChannelID, "user", req.User.ID)
		return refuse("That button does not belong to this channel."), nil
	}
	now := s.clock.Now()
	if c.Status == record.ChallengePending && !now.Before(c.ExpiresAt) {
		// The timer has not got to it yet; the answer comes too late all the same.
		if ok, err := s.store.CloseChallenge(ctx, c.ID, record.ChallengeExpired); err != nil {
			return Response{}, err
		} else if ok {
			c.Status = record.ChallengeExpired
			return Response{Update: true, Message: s.challengeMessage(c, "")}, nil
		}
		if c, err = s.store.Challenge(ctx, id); err != nil {
			return Response{}, err
		}
	}
	if c.Status != record.ChallengePending {
		return refuse("This challenge is no longer open (%s).", c.Status), nil
	}
	me := req.User.ID
	switch action {
	case "cancel":
		if me != c.Challenger.ID {
			return refuse("Only %s can cancel this challenge.", name(c.Challenger)), nil
		}
		return s.closeChallenge(ctx, c, record.ChallengeCanceled)
	case "decline":
		if me != c.Opponent.ID {
			return refuse("This challenge is for %s.", name(c.Opponent)), nil
		}
		return s.closeChallenge(ctx, c, record.ChallengeDeclined)
	}
	switch {
	case me == c.Challenger.ID:
		return refuse("You can't accept your own challenge; wait for an opponent, or cancel it."), nil
	case c.Opponent.ID != "" && me != c.Opponent.ID:
		return refuse("This challenge is for %s.", name(c.Opponent)), nil
	}
	if c.Opponent.ID == "" {
		c.Opponent = req.User
	}
	color := settle(c.Color)
	start, err := game.NewPosition(c.Size)
	if err != nil {
		return Response{}, fmt.Errorf("challenge %d: %w", c.ID, err)
	}
	g := &record.Game{GuildID: c.GuildID, ChannelID: c.ChannelID, Rated: c.Rated, State: game.NewGame(start),
		Black: record.Human(c.Challenger), White: record.Human(c.Opponent),
		CreatedAt: now, UpdatedAt: now, TurnStartedAt: now, Deadline: now.Add(s.cfg.MoveTimeout), MessageID: c.MessageID,
		Style: c.Style}
	if color == game.White {
		g.Black, g.White = g.White, g.Black
	}
	for _, p := range []record.Player{c.Challenger, c.Opponent} {
		if r, err := s.tooManyGames(ctx, p); r != nil || err != nil {
			return deref(r), err
		}
	}
	_, inThread, err := s.finishedThread(ctx, c.ChannelID)
	if err != nil {
		return Response{}, err
	}
	threaded := !inThread && s.threadsHere(req)
	if threaded {
		switch err := s.openThread(ctx, c.ChannelID, g); {
		case errors.Is(err, ErrThreadsNotAllowed):
			threaded = false
		case err != nil:
			return Response{}, fmt.Errorf("opening a thread for challenge %d: %w", c.ID, err)
		default:
			g.MessageID = "" // the game message will be in the thread
		}
	}
	switch err := s.store.AcceptChallenge(ctx, c.ID, g); {
	case errors.Is(err, record.ErrNotPending):
		s.dropThread(ctx, g)
		return refuse("Someone else answered this challenge first."), nil
	case errors.Is(err, record.ErrChannelBusy):
		s.dropThread(ctx, g)
		return refuse("Another game is running in this channel; this challenge can be accepted once it ends."), nil
	case err != nil:
		s.dropThread(ctx, g)
		return Response{}, err
	}
	s.logger(ctx).Info("challenge accepted", "challenge", c.ID, "game", g.ID)
	note := fmt.Sprintf("%s accepted %s's challenge.", name(req.User), name(c.Challenger))
	first := g.ToMove().Player
	if threaded {
		s.nameThread(ctx, g)
		if _, err := s.send(ctx, g.ChannelID, *s.gameMessage(g, []string{note})); err != nil {
			s.logger(ctx).Warn("posting a game in its thread", "game", g.ID, "thread", g.ChannelID, "err", err)
		}
		// Both players are pinged into the thread: it is new to them.
		other := c.Challenger
		if first.ID == other.ID {
			other = c.Opponent
		}
		welcome := Message{Content: fmt.Sprintf("%s it's your move in game #%d. %s, you play here too.",
			mention(first.ID), g.ID, mention(other.ID)), Mentions: []string{first.ID, other.ID}}
		if _, err := s.send(ctx, g.ChannelID, welcome); err != nil {
			s.logger(ctx).Warn("pinging players into a game's thread", "game", g.ID, "err", err)
		}
		return Response{Update: true, Message: &Message{Content: fmt.Sprintf("%s Game #%d is on in <#%s>.", note, g.ID, g.ChannelID)}}, nil
	}
	resp := Response{Update: true, Message: s.gameMessage(g, []string{note})}
	if first.ID != req.User.ID {
		resp.Followups = []Message{ping(first.ID, fmt.Sprintf("%s accepted your challenge: your move in game #%d.", name(req.User), g.ID))}
	}
	return resp, nil
}

// dropThread archives a thread opened for a game that then could not
// start.
func (s *Service) dropThread(ctx context.Context, g *record.Game) {
	if g.ParentID == "" {
		return
	}
	if err := s.notify.ArchiveThread(ctx, g.ChannelID); err != nil {
		s.logger(ctx).Warn("archiving an unused thread", "thread", g.ChannelID, "err", err)
	}
}

func (s *Service) closeChallenge(ctx context.Context, c *record.Challenge, status record.ChallengeStatus) (Response, error) {
	ok, err := s.store.CloseChallenge(ctx, c.ID, status)
	if err != nil {
		return Response{}, err
	}
	if !ok {
		return refuse("This challenge was answered a moment ago."), nil
	}
	c.Status = status
	return Response{Update: true, Message: s.challengeMessage(c, "")}, nil
}

// rematch offers a new game between the same sides with colours swapped:
// against the bot it starts at once; against a person it is a challenge
// the other player accepts.
func (s *Service) rematch(ctx context.Context, req Request, args string) (Response, error) {
	id, err := strconv.ParseInt(args, 10, 64)
	if err != nil {
		return refuse("That button no longer works."), nil
	}
	g, err := s.store.Game(ctx, id)
	if errors.Is(err, record.ErrNotFound) {
		return refuse("That game no longer exists."), nil
	}
	if err != nil {
		return Response{}, err
	}
	if g.ChannelID != req.ChannelID {
		s.logger(ctx).Warn("rematch button from another channel", "game", g.ID, "channel", req.ChannelID, "user", req.User.ID)
		return refuse("That button does not belong to this channel."), nil
	}
	color, playing := playerColor(g, req.User.ID)
	switch {
	case !playing:
		return refuse("Only the players of game #%d can ask for a rematch.", g.ID), nil
	case g.Status == record.Active:
		return refuse("Game #%d is still going.", g.ID), nil
	}
	other := g.Side(color.Opponent())
	if other.IsBot() {
		swapped := game.White
		if color == game.White {
			swapped = game.Black
		}
		channel := req.ChannelID
		if g.ParentID != "" {
			channel = g.ParentID // the new game gets a thread of its own
		}
		return s.start(ctx, Request{Kind: Command, Command: "start", User: req.User, GuildID: req.GuildID, ChannelID: channel,
			Options: map[string]string{"level": strconv.Itoa(other.Level), "size": strconv.Itoa(g.Size()), "color": swapped.String(),
				"style": string(g.Style)}})
	}
	if missing := s.missingPermission(req, g.Size(), g.Style); missing != "" {
		return refuse("I can't post challenges here: a server admin needs to give me the %s permission in this channel.", missing), nil
	}
	c := &record.Challenge{GuildID: g.GuildID, ChannelID: req.ChannelID, Challenger: req.User, Opponent: other.Player,
		Color: record.Choose(color.Opponent()), Size: g.Size(), Rated: g.Rated, Style: g.Style}
	threaded := false
	if g.ParentID != "" {
		// A game's thread holds that game only: the rematch is offered
		// where the game came from, and gets a thread of its own.
		c.ChannelID, threaded = g.ParentID, true
	}
	return s.issue(ctx, c, fmt.Sprintf("Rematch of game #%d!", g.ID), true, threaded)
}
