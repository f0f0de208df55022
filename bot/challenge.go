package bot

// This file is challenges between members: /challenge, Accept, Decline,
// Cancel, the cooldown, and Rematch.

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"othello-bot/place"
	"strconv"
	"strings"
	"time"

	"othello-bot/catalog"
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
	me := req.Me()
	if req.Place == place.BotDM {
		return Refuse(me.T("challenge.bot_dm")), nil
	}
	if opp.ID == req.User.ID {
		return Refuse(me.T("challenge.self")), nil
	}
	if req.BotUsers[opp.ID] {
		return Refuse(me.T("challenge.bot")), nil
	}
	rated := true
	if v, ok := req.Options["rated"]; ok && v != "" {
		var err error
		if rated, err = strconv.ParseBool(v); err != nil {
			return Refuse(me.T("challenge.bad_rated")), nil
		}
	}
	opts, refusal, err := s.readGameOptions(ctx, req)
	if refusal != nil || err != nil {
		return Deref(refusal), err
	}
	control, refusal := s.TimeOption(req, false)
	if refusal != nil {
		return *refusal, nil
	}
	useXOT, refusal := xotOption(req, opts.size)
	if refusal != nil {
		return *refusal, nil
	}
	if missing := s.MissingPermission(req, opts.size, opts.style); missing != "" {
		return Refuse(me.T("challenge.no_permission", "Permission", me.T(missing))), nil
	}
	refusal, inThread, err := s.finishedThread(ctx, req)
	if refusal != nil || err != nil {
		return Deref(refusal), err
	}
	c := &record.Challenge{GuildID: req.GuildID, ChannelID: req.ChannelID, Challenger: req.User, Opponent: opp,
		Color: opts.color, Size: opts.size, Rated: rated, Style: opts.style, Control: control, XOT: useXOT}
	return s.issue(ctx, req, c, 0, !inThread && s.ThreadsHere(req))
}

// issue checks and stores a challenge and posts its message in the channel;
// the reply to the challenger is a short note only they see. A rematch
// (rematchOf, the game it follows, not 0) is not held back by the cooldown. With threaded set the
// game will get its own thread, so a game running in the channel does not
// stand in the way.
func (s *Service) issue(ctx context.Context, req Request, c *record.Challenge, rematchOf int64, threaded bool) (Response, error) {
	unlock := s.lockChannel(c.ChannelID)
	defer unlock()
	me := req.Me()
	if g, err := s.store.ActiveGame(ctx, c.ChannelID); err == nil && !threaded {
		if parent := cmp.Or(g.ParentID, req.ParentID); parent != "" && c.ChannelID == req.ChannelID {
			// No thread opens from a thread: point to its channel.
			return Refuse(me.T("challenge.thread_busy", "ID", g.ID, "Channel", "<#"+parent+">")), nil
		}
		return Refuse(me.T("challenge.channel_busy", "ID", g.ID)), nil
	} else if err != nil && !errors.Is(err, record.ErrNotFound) {
		return Response{}, err
	}
	now := s.clock.Now()
	if rematchOf == 0 {
		recent, err := s.store.RecentChallenges(ctx, c.Challenger.ID, 2)
		if err != nil {
			return Response{}, err
		}
		if wait := s.cooldownLeft(recent, now); wait > 0 {
			return Refuse(me.T("challenge.cooldown", "Wait", me.Duration(wait))), nil
		}
	}
	c.CreatedAt, c.ExpiresAt = now, now.Add(s.cfg.ChallengeExpiry)
	if err := s.store.CreateChallenge(ctx, c); errors.Is(err, record.ErrChallengePending) {
		return Refuse(me.T("challenge.pending")), nil
	} else if err != nil {
		return Response{}, err
	}
	msg := s.challengeMessage(req.Pub(), c, rematchOf)
	if !req.Place.BotPosts() {
		// No post of its own here: the challenge follows the reply, and
		// its message is recorded once shown.
		msg.posted = func(ctx context.Context, id string) {
			if err := s.store.SetChallengeMessage(ctx, c.ID, id); err != nil {
				s.Logger(ctx).Error("recording a challenge's message", "challenge", c.ID, "err", err)
			}
		}
		s.Logger(ctx).Info("challenge", "challenge", c.ID, "challenger", c.Challenger.ID, "opponent", c.Opponent.ID, "place", req.Place.String())
		resp := s.challengeSent(req, c)
		resp.Followups = append(resp.Followups, *msg)
		return resp, nil
	}
	id, err := s.Send(ctx, c.ChannelID, *msg)
	if err != nil {
		if _, cerr := s.store.CloseChallenge(ctx, c.ID, record.ChallengeCanceled); cerr != nil {
			err = errors.Join(err, fmt.Errorf("withdrawing it: %w", cerr))
		}
		return Response{}, fmt.Errorf("posting challenge %d: %w", c.ID, err)
	}
	if err := s.store.SetChallengeMessage(ctx, c.ID, id); err != nil {
		return Response{}, err
	}
	s.Logger(ctx).Info("challenge", "challenge", c.ID, "challenger", c.Challenger.ID, "opponent", c.Opponent.ID)
	return s.challengeSent(req, c), nil
}

// challengeSent is the challenger's only-you note on a challenge posted.
func (s *Service) challengeSent(req Request, c *record.Challenge) Response {
	me := req.Me()
	if c.Opponent.ID == "" {
		return Refuse(me.T("challenge.posted_open", "Expiry", me.Duration(s.cfg.ChallengeExpiry)))
	}
	return Refuse(me.T("challenge.sent", "Name", name(c.Opponent), "Expiry", me.Duration(s.cfg.ChallengeExpiry)))
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

func colorWords(t *catalog.Printer, c *record.Challenge) string {
	switch color, _ := c.Color.Color(); color {
	case game.Black:
		return t.T("challenge.plays_black", "Name", name(c.Challenger))
	case game.White:
		return t.T("challenge.plays_white", "Name", name(c.Challenger))
	}
	return t.T("challenge.colors_random")
}

// challengeMessage shows a challenge, in the channel's language, with the
// buttons its status allows.
// A rematch's first message names the game it follows (rematchOf).
func (s *Service) challengeMessage(t *catalog.Printer, c *record.Challenge, rematchOf int64) *Message {
	kind := "challenge.unrated"
	if c.Rated {
		kind = "challenge.rated"
	}
	what := t.T(kind, "Size", c.Size, "Colors", colorWords(t, c))
	if !c.Control.IsZero() {
		what = t.T("challenge.with_time", "What", what, "Control", ControlName(t, c.Control))
	}
	if c.XOT {
		what = t.T("xot.challenge", "What", what)
	}
	var text string
	m := &Message{}
	switch {
	case c.Opponent.ID != "" && c.Status == record.ChallengePending:
		// The one deliberate ping of a challenge: the member challenged.
		text = t.T("challenge.to_you", "Mention", Mention(c.Opponent.ID), "Challenger", name(c.Challenger), "What", what)
		m.Mentions = []string{c.Opponent.ID}
	case c.Opponent.ID != "":
		text = t.T("challenge.to_them", "Challenger", name(c.Challenger), "Opponent", name(c.Opponent), "What", what)
	default:
		text = t.T("challenge.open", "Challenger", name(c.Challenger), "What", what)
	}
	if rematchOf != 0 {
		text = t.T("challenge.rematch", "ID", rematchOf) + " " + text
	}
	id := strconv.FormatInt(c.ID, 10)
	switch c.Status {
	case record.ChallengePending:
		text += " " + t.T("challenge.expires", "When", Stamp(c.ExpiresAt, StampRelative))
		buttons := []ButtonSpec{{Label: t.T("button.accept"), CustomID: "accept:" + id, Style: Success}}
		if c.Opponent.ID != "" {
			buttons = append(buttons, ButtonSpec{Label: t.T("button.decline"), CustomID: "decline:" + id, Style: Secondary})
		}
		buttons = append(buttons, ButtonSpec{Label: t.T("button.cancel"), CustomID: "cancel:" + id, Style: Danger})
		m.Components = []Row{{Buttons: buttons}}
	case record.ChallengeExpired:
		text += " " + t.T("challenge.expired")
	case record.ChallengeDeclined:
		text += " " + t.T("challenge.declined", "Name", name(c.Opponent))
	case record.ChallengeCanceled:
		text += " " + t.T("challenge.canceled", "Name", name(c.Challenger))
	}
	m.Content = text
	return m
}

// answerChallenge handles Accept, Decline and Cancel. Only the named
// opponent may accept or decline (anyone but the challenger, for an open
// challenge), and only the challenger may cancel.
func (s *Service) answerChallenge(ctx context.Context, req Request, action, args string) (Response, error) {
	me, pub := req.Me(), req.Pub()
	id, err := strconv.ParseInt(args, 10, 64)
	if err != nil {
		return Refuse(me.T("error.button_broken")), nil
	}
	unlock := s.lockChannel(req.ChannelID)
	defer unlock()
	c, err := s.store.Challenge(ctx, id)
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
		if ok, err := s.store.CloseChallenge(ctx, c.ID, record.ChallengeExpired); err != nil {
			return Response{}, err
		} else if ok {
			c.Status = record.ChallengeExpired
			return Response{Update: true, Message: s.challengeMessage(pub, c, 0)}, nil
		}
		if c, err = s.store.Challenge(ctx, id); err != nil {
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
	color := settle(c.Color)
	start, err := game.NewPosition(c.Size)
	if err != nil {
		return Response{}, fmt.Errorf("challenge %d: %w", c.ID, err)
	}
	g := &record.Game{GuildID: c.GuildID, ChannelID: c.ChannelID, Rated: c.Rated, State: game.NewGame(start),
		Black: record.Human(c.Challenger), White: record.Human(c.Opponent),
		CreatedAt: now, UpdatedAt: now, MessageID: c.MessageID, Style: c.Style, Control: c.Control}
	if color == game.White {
		g.Black, g.White = g.White, g.Black
	}
	var xotNote string
	if c.XOT {
		if xotNote, err = openXOT(pub, g); err != nil {
			return Response{}, err
		}
	}
	s.StartClocks(g, now)
	for _, p := range []record.Player{c.Challenger, c.Opponent} {
		if r, err := s.tooManyGames(ctx, req, p); r != nil || err != nil {
			return Deref(r), err
		}
	}
	_, inThread, err := s.finishedThread(ctx, req) // req's channel is the challenge's (checked above)
	if err != nil {
		return Response{}, err
	}
	threaded := !inThread && s.ThreadsHere(req)
	if threaded {
		switch err := s.OpenThread(ctx, pub, c.ChannelID, g); {
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
		s.DropThread(ctx, g)
		return Refuse(req.Me().T("challenge.taken")), nil
	case errors.Is(err, record.ErrChannelBusy):
		s.DropThread(ctx, g)
		return Refuse(req.Me().T("challenge.channel_busy_accept")), nil
	case err != nil:
		s.DropThread(ctx, g)
		return Response{}, err
	}
	s.Logger(ctx).Info("challenge accepted", "challenge", c.ID, "game", g.ID, "time", g.Control.String())
	s.Arm(g)
	note := pub.T("challenge.accepted", "Name", name(req.User), "Challenger", name(c.Challenger))
	if xotNote != "" {
		note += " " + xotNote
	}
	first := g.ToMove().Player
	if threaded {
		if _, err := s.Send(ctx, g.ChannelID, *s.GameMessage(pub, g, []string{note})); err != nil {
			s.Logger(ctx).Warn("posting a game in its thread", "game", g.ID, "thread", g.ChannelID, "err", err)
		}
		// Both players are pinged into the thread: it is new to them.
		other := c.Challenger
		if first.ID == other.ID {
			other = c.Opponent
		}
		welcome := Message{Content: pub.T("challenge.welcome", "First", Mention(first.ID), "ID", g.ID, "Other", Mention(other.ID)),
			Mentions: []string{first.ID, other.ID}}
		if _, err := s.Send(ctx, g.ChannelID, welcome); err != nil {
			s.Logger(ctx).Warn("pinging players into a game's thread", "game", g.ID, "err", err)
		}
		return Response{Update: true, Message: &Message{Content: note + " " + pub.T("challenge.on_in_thread", "ID", g.ID, "Thread", "<#"+g.ChannelID+">")}}, nil
	}
	resp := Response{Update: true, Message: s.GameMessage(pub, g, []string{note})}
	if first.ID != req.User.ID {
		resp.Followups = []Message{ping(first.ID, pub.T("challenge.accepted_ping", "Name", name(req.User), "ID", g.ID))}
	}
	return resp, nil
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
	ok, err := s.store.CloseChallenge(ctx, c.ID, status)
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
func (s *Service) rematch(ctx context.Context, req Request, args string) (Response, error) {
	me := req.Me()
	id, err := strconv.ParseInt(args, 10, 64)
	if err != nil {
		return Refuse(me.T("error.button_broken")), nil
	}
	g, err := s.store.Game(ctx, id)
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
	color, playing := playerColor(g, req.User.ID)
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
	if other.IsBot() {
		swapped := game.White
		if color == game.White {
			swapped = game.Black
		}
		here.Kind, here.Command = Command, "start"
		here.Options = map[string]string{"level": strconv.Itoa(other.Level), "size": strconv.Itoa(g.Size()), "color": swapped.String(),
			"style": string(g.Style), "time": g.Control.String()}
		return s.start(ctx, here)
	}
	if missing := s.MissingPermission(here, g.Size(), g.Style); missing != "" {
		return Refuse(me.T("challenge.no_permission", "Permission", me.T(missing))), nil
	}
	c := &record.Challenge{GuildID: g.GuildID, ChannelID: here.ChannelID, Challenger: req.User, Opponent: other.Player,
		Color: record.Choose(color.Opponent()), Size: g.Size(), Rated: g.Rated, Style: g.Style, Control: g.Control}
	threaded := g.ParentID != "" && s.ThreadsHere(here)
	return s.issue(ctx, req, c, g.ID, threaded)
}
