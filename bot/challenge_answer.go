package bot

// This file is answering a challenge: accept (its game opens, in a thread
// where it may), decline, cancel, and the rematch button.

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"othello-bot/catalog"
	"othello-bot/customid"
	"othello-bot/play"
	"othello-bot/record"
)

// challengeAnswer is the Accept, Decline or Cancel button: its custom id
// names the challenge.
func challengeAnswer(action string) componentHandler {
	return func(s *Service, ctx context.Context, req Request) (Response, error) {
		id, ok := customid.Parse(req.CustomID).Int(0)
		if !ok {
			return Refuse(req.Me().T("error.button_broken")), nil
		}
		return s.answerChallenge(ctx, req, action, id)
	}
}

// answerChallenge handles Accept, Decline and Cancel. Only the named
// opponent may accept or decline (anyone but the challenger, for an open
// challenge), and only the challenger may cancel.
func (s *Service) answerChallenge(ctx context.Context, req Request, action string, id int64) (Response, error) {
	me, pub := req.Me(), req.Pub()
	release := sync.OnceFunc(s.LockChannel(req.ChannelID))
	defer release()
	c, err := s.challenges.Challenge(ctx, id)
	if errors.Is(err, record.ErrNotFound) {
		return Refuse(me.T("challenge.gone")), nil
	}
	if err != nil {
		return Response{}, err
	}
	if c.ChannelID != req.ChannelID {
		// A forged or misrouted custom id: the challenge lives elsewhere.
		s.Logger(ctx).Warn("challenge button from another channel", "challenge", c.ID, "channel", req.ChannelID, "user", req.User.ID)
		return Refuse(me.T("error.wrong_channel")), nil
	}
	now := s.clock.Now()
	if c.Status == record.ChallengePending && !now.Before(c.ExpiresAt) {
		// The timer has not got to it yet; the answer comes too late all the same.
		if ok, err := s.challenges.CloseChallenge(ctx, c.ID, record.ChallengeExpired); err != nil {
			return Response{}, err
		} else if ok {
			c.Status = record.ChallengeExpired
			return Response{Update: true, Message: s.challengeMessage(pub, c, 0)}, nil
		}
		if c, err = s.challenges.Challenge(ctx, id); err != nil {
			return Response{}, err
		}
	}
	if c.Status != record.ChallengePending {
		return Refuse(me.T("challenge.closed", "Status", me.T("challenge.status."+string(c.Status)))), nil
	}
	user := req.User.ID
	switch action {
	case "cancel":
		if user != c.Challenger.ID {
			return Refuse(me.T("challenge.only_challenger", "Name", name(c.Challenger))), nil
		}
		return s.closeChallenge(ctx, req, c, record.ChallengeCanceled)
	case "decline":
		if user != c.Opponent.ID {
			return Refuse(me.T("challenge.for_other", "Name", name(c.Opponent))), nil
		}
		return s.closeChallenge(ctx, req, c, record.ChallengeDeclined)
	}
	switch {
	case user == c.Challenger.ID:
		return Refuse(req.Me().T("challenge.own")), nil
	case c.Opponent.ID != "" && user != c.Opponent.ID:
		return Refuse(req.Me().T("challenge.for_other", "Name", name(c.Opponent))), nil
	}
	if c.Opponent.ID == "" {
		c.Opponent = req.User
	}
	resp, _, err := s.accept(ctx, req, c, release, false)
	return resp, err
}

// AcceptFor accepts challenge id for req's member where req says (the
// Activity), as its Accept button would, served as Handle serves a
// request.
func (s *Service) AcceptFor(ctx context.Context, req Request, id int64) Response {
	return s.serve(ctx, req, "accept:", func(ctx context.Context, req Request) (Response, error) {
		return s.answerChallenge(ctx, req, "accept", id)
	})
}

// RematchFor offers the players of finished game id another, for req's
// member where req says (the web board), as its Rematch button would.
func (s *Service) RematchFor(ctx context.Context, req Request, id int64) Response {
	return s.serve(ctx, req, "rematch:", func(ctx context.Context, req Request) (Response, error) { return s.rematchGame(ctx, req, id) })
}

// AcceptPaired accepts, for req's member, the challenge the pool's
// pairing (bot/pairing) made in the channel req names (the host's), and
// returns the game it opened (nil when it was refused: resp says why).
func (s *Service) AcceptPaired(ctx context.Context, req Request, c *record.Challenge) (Response, *record.Game, error) {
	req.tr = s.chooseLanguages(ctx, req) // the host's server speaks its own language
	release := sync.OnceFunc(s.LockChannel(req.ChannelID))
	defer release()
	return s.accept(ctx, req, c, release, true)
}

// accept opens the game of challenge c, accepted by req's member, under
// the channel's lock (release lets it go before Discord is asked); paired,
// the pool's pairing made it.
func (s *Service) accept(ctx context.Context, req Request, c *record.Challenge, release func(), paired bool) (Response, *record.Game, error) {
	pub := req.Pub()
	g, opened, err := s.flow.NewGame(play.Opening{GuildID: c.GuildID, ChannelID: c.ChannelID,
		Sides: [2]record.Side{record.Human(c.Challenger), record.Human(c.Opponent)}, Color: c.Color, Size: c.Size,
		Style: c.Style, Control: c.Control, Rated: c.Rated, XOT: c.XOT, MessageID: c.MessageID})
	if err != nil {
		return Response{}, nil, fmt.Errorf("challenge %d: %w", c.ID, err)
	}
	xotNote := xotOpened(pub, opened)
	for _, p := range []record.Player{c.Challenger, c.Opponent} {
		if r, err := s.tooManyGames(ctx, req, p); r != nil || err != nil {
			return Deref(r), nil, err
		}
	}
	_, inThread, err := s.finishedThread(ctx, req) // req's channel is the challenge's (checked above)
	if err != nil {
		return Response{}, nil, err
	}
	threaded := !inThread && s.ThreadsHere(req)
	// The rest asks Discord and holds no lock: accepting is conditional in
	// the store (record.ErrNotPending, record.ErrChannelBusy).
	release()
	if threaded {
		switch err := s.OpenThread(ctx, pub, c.ChannelID, g); {
		case errors.Is(err, ErrThreadsNotAllowed):
			threaded = false
		case err != nil:
			return Response{}, nil, fmt.Errorf("opening a thread for challenge %d: %w", c.ID, err)
		default:
			g.MessageID = "" // the game message will be in the thread
		}
	}
	switch err := s.challenges.AcceptChallenge(ctx, c.ID, g); {
	case errors.Is(err, record.ErrNotPending):
		s.DropThread(ctx, g)
		return Refuse(req.Me().T("challenge.taken")), nil, nil
	case errors.Is(err, record.ErrChannelBusy):
		s.DropThread(ctx, g)
		return Refuse(req.Me().T("challenge.channel_busy_accept")), nil, nil
	case err != nil:
		s.DropThread(ctx, g)
		return Response{}, nil, err
	}
	s.Logger(ctx).Info("challenge accepted", "challenge", c.ID, "game", g.ID, "time", g.Control.String())
	s.Arm(g)
	note := pub.T("challenge.accepted", "Name", name(req.User), "Challenger", name(c.Challenger))
	if paired { // the pool's pairing (bot/pairing), not a challenge anyone sent
		note = pub.T("challenge.paired", "Name", name(req.User), "Challenger", name(c.Challenger))
	}
	if xotNote != "" {
		note += " " + xotNote
	}
	first := g.ToMove().Player
	if threaded {
		// Both players are pinged into the thread, new to them, with the
		// board: one message, one request.
		other := c.Challenger
		if first.ID == other.ID {
			other = c.Opponent
		}
		if _, err := s.Send(ctx, g.ChannelID, s.WelcomeMessage(pub, g, note, first.ID, other.ID)); err != nil {
			s.Logger(ctx).Warn("posting a game in its thread", "game", g.ID, "thread", g.ChannelID, "err", err)
		}
		return Response{Update: true, Message: &Message{Content: note + " " + pub.T("challenge.on_in_thread", "ID", g.ID, "Thread", "<#"+g.ChannelID+">")},
			Followups: s.started(ctx, req, g)}, g, nil
	}
	resp := Response{Update: true, Message: s.GameMessage(pub, g, []string{note}), Followups: s.started(ctx, req, g)}
	if first.ID != req.User.ID {
		key := "challenge.accepted_ping"
		if paired { // nobody sent a challenge
			key = "challenge.paired_ping"
		}
		resp.Followups = append(resp.Followups, ping(first.ID, pub.T(key, "Name", name(req.User), "ID", g.ID)))
	}
	return resp, g, nil
}

// WelcomeMessage is a new game's first message in its own thread: the
// board with note, pinging first (to move) and other into the thread.
func (s *Service) WelcomeMessage(pub *catalog.Printer, g *record.Game, note, first, other string) Message {
	welcome := pub.T("challenge.welcome", "First", Mention(first), "ID", g.ID, "Other", Mention(other))
	m := s.GameMessage(pub, g, []string{note, welcome})
	m.Mentions = []string{first, other}
	return *m
}

// DropThread archives a thread opened for a game that then could not
// start.
func (s *Service) DropThread(ctx context.Context, g *record.Game) {
	if g.ParentID == "" {
		return
	}
	if err := s.notify.ArchiveThread(ctx, g.ChannelID); err != nil {
		s.Logger(ctx).Warn("archiving an unused thread", "thread", g.ChannelID, "err", err)
	}
}

func (s *Service) closeChallenge(ctx context.Context, req Request, c *record.Challenge, status record.ChallengeStatus) (Response, error) {
	ok, err := s.challenges.CloseChallenge(ctx, c.ID, status)
	if err != nil {
		return Response{}, err
	}
	if !ok {
		return Refuse(req.Me().T("challenge.just_answered")), nil
	}
	c.Status = status
	return Response{Update: true, Message: s.challengeMessage(req.Pub(), c, 0)}, nil
}

// rematch offers a new game between the same sides with colours swapped:
// against the bot it starts at once; against a person it is a challenge
// the other player accepts.
func (s *Service) rematch(ctx context.Context, req Request) (Response, error) {
	id, ok := customid.Parse(req.CustomID).Int(0)
	if !ok {
		return Refuse(req.Me().T("error.button_broken")), nil
	}
	return s.rematchGame(ctx, req, id)
}

// rematchGame is Rematch pressed on finished game id's message.
func (s *Service) rematchGame(ctx context.Context, req Request, id int64) (Response, error) {
	me := req.Me()
	g, err := s.games.Game(ctx, id)
	if errors.Is(err, record.ErrNotFound) {
		return Refuse(me.T("rematch.gone")), nil
	}
	if err != nil {
		return Response{}, err
	}
	if g.ChannelID != req.ChannelID {
		s.Logger(ctx).Warn("rematch button from another channel", "game", g.ID, "channel", req.ChannelID, "user", req.User.ID)
		return Refuse(me.T("error.wrong_channel")), nil
	}
	color, playing := PlayerColor(g, req.User.ID)
	switch {
	case !playing:
		return Refuse(me.T("rematch.not_player", "ID", g.ID)), nil
	case g.Status == record.Active:
		return Refuse(me.T("rematch.still_going", "ID", g.ID)), nil
	}
	other := g.Side(color.Opponent())
	// The rematch is offered where the game came from: a game's thread
	// holds that game only, so from one the rematch goes to its channel
	// and may get a thread of its own. The request keeps what Discord said
	// the bot may do (a thread inherits its channel's permissions): no
	// thread Discord already refused is tried.
	here := req
	here.CustomID, here.Values = "", nil
	if g.ParentID != "" {
		here.ChannelID, here.InThread, here.ParentID, here.repliedIn = g.ParentID, false, "", req.ChannelID
	}
	if other.IsBot() { // the same game, colours swapped
		return s.startGame(ctx, here, Start{Level: other.Level, Size: g.Size(), Color: record.Choose(color.Opponent()),
			Style: g.Style, Control: g.Control})
	}
	// Both asked at once: the second press accepts the first's challenge.
	if crossing, err := s.crossingChallenge(ctx, here.ChannelID, other.Player.ID, req.User.ID); err != nil || crossing != nil {
		if err != nil {
			return Response{}, err
		}
		return s.acceptCrossing(ctx, here, crossing, other.Player)
	}
	if missing := s.MissingPermission(here, g.Size(), g.Style); missing != "" {
		return Refuse(me.T("challenge.no_permission", "Permission", me.T(missing))), nil
	}
	c := &record.Challenge{GuildID: g.GuildID, ChannelID: here.ChannelID, Challenger: req.User, Opponent: other.Player,
		Color: record.Choose(color.Opponent()), Size: g.Size(), Rated: g.Rated, Style: g.Style, Control: g.Control}
	threaded := g.ParentID != "" && s.ThreadsHere(here)
	return s.issue(ctx, req, c, g.ID, threaded)
}

// crossingChallenge is a live challenge from one player to the other in
// a channel (the other's Rematch, pressed first), or nil.
func (s *Service) crossingChallenge(ctx context.Context, channelID, from, to string) (*record.Challenge, error) {
	recent, err := s.challenges.RecentChallenges(ctx, from, 5)
	if err != nil {
		return nil, err
	}
	now := s.clock.Now()
	for _, c := range recent {
		if c.Status == record.ChallengePending && c.ChannelID == channelID && c.Opponent.ID == to && now.Before(c.ExpiresAt) {
			return c, nil
		}
	}
	return nil, nil
}

// acceptCrossing accepts a crossing challenge for the player who pressed
// Rematch second: the challenge's message becomes the new game's (or says
// where it is played), and the presser is told.
func (s *Service) acceptCrossing(ctx context.Context, here Request, c *record.Challenge, other record.Player) (Response, error) {
	resp, err := s.answerChallenge(ctx, here, "accept", c.ID)
	if err != nil || !resp.Update || resp.Message == nil {
		return resp, err // a refusal (taken meanwhile, a busy channel) as it is
	}
	// The answer was for the challenge's message, not the Rematch button's.
	shown := *resp.Message
	out := Response{Message: &Message{Ephemeral: true, Content: here.Me().T("rematch.crossed", "Name", name(other))}}
	if c.MessageID != "" && s.Edit(ctx, c.ChannelID, c.MessageID, shown) == nil {
		s.Posted(ctx, c.ChannelID, &shown, c.MessageID)
		out.Followups = resp.Followups
		return out, nil
	}
	// The challenge's message is gone: the game is shown anew.
	shown.Ephemeral = false
	out.Followups = append([]Message{shown}, resp.Followups...)
	return out, nil
}
