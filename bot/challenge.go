package bot

// This file is challenges between members: /challenge, Accept, Decline,
// Cancel, the cooldown, and Rematch.

import (
	"cmp"
	"context"
	"errors"
	"strconv"
	"strings"
	"time"

	"othello-bot/catalog"
	"othello-bot/customid"
	"othello-bot/game"
	"othello-bot/place"
	"othello-bot/record"
	"othello-bot/timecontrol"
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
	return s.challengeWith(ctx, req, &record.Challenge{Opponent: opp, Color: opts.color, Size: opts.size, Rated: rated,
		Style: opts.style, Control: control, XOT: useXOT})
}

// ChallengeFor challenges c.Opponent for req's member where req says (the
// Activity's channel), as /challenge with c's options would (a zero Style:
// the player's own; a zero Control: the server's default), served as
// Handle serves a request.
func (s *Service) ChallengeFor(ctx context.Context, req Request, c record.Challenge) Response {
	if c.Control == (timecontrol.Control{}) {
		c.Control = s.defaultControl()
	}
	return s.serve(ctx, req, "challenge", func(ctx context.Context, req Request) (Response, error) {
		if c.Style == "" {
			var err error
			if c.Style, err = s.prefs.BoardStyle(ctx, req.User.ID); err != nil {
				return Response{}, err
			}
		}
		return s.challengeWith(ctx, req, &c)
	})
}

// challengeWith issues challenge c, its game's options set, from req's
// member in req's channel.
func (s *Service) challengeWith(ctx context.Context, req Request, c *record.Challenge) (Response, error) {
	if c.Opponent.ID == req.User.ID {
		return Refuse(req.Me().T("challenge.self")), nil
	}
	if missing := s.MissingPermission(req, c.Size, c.Style); missing != "" {
		return Refuse(req.Me().T("challenge.no_permission", "Permission", req.Me().T(missing))), nil
	}
	refusal, inThread, err := s.finishedThread(ctx, req)
	if refusal != nil || err != nil {
		return Deref(refusal), err
	}
	c.GuildID, c.ChannelID, c.Challenger = req.GuildID, req.ChannelID, req.User
	return s.issue(ctx, req, c, 0, !inThread && s.ThreadsHere(req))
}

// issue checks and stores a challenge and posts its message in the channel;
// the reply to the challenger is a short note only they see. A rematch
// (rematchOf, the game it follows, not 0) is not held back by the cooldown. With threaded set the
// game will get its own thread, so a game running in the channel does not
// stand in the way.
func (s *Service) issue(ctx context.Context, req Request, c *record.Challenge, rematchOf int64, threaded bool) (Response, error) {
	unlock := s.LockChannel(c.ChannelID)
	defer unlock()
	me := req.Me()
	if g, err := s.games.ActiveGame(ctx, c.ChannelID); err == nil && !threaded {
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
		recent, err := s.challenges.RecentChallenges(ctx, c.Challenger.ID, 2)
		if err != nil {
			return Response{}, err
		}
		if wait := s.cooldownLeft(recent, now); wait > 0 {
			return Refuse(me.T("challenge.cooldown", "Wait", me.Duration(wait))), nil
		}
	}
	c.CreatedAt, c.ExpiresAt = now, now.Add(s.cfg.ChallengeExpiry)
	if err := s.challenges.CreateChallenge(ctx, c); errors.Is(err, record.ErrChallengePending) {
		return Refuse(me.T("challenge.pending")), nil
	} else if err != nil {
		return Response{}, err
	}
	// The challenge follows the reply: follow-ups spend none of the
	// channel's message budget (5 per 5 s), nothing waits on Discord under
	// the channel's lock, and its message is recorded once shown.
	msg := s.challengeMessage(req.Pub(), c, rematchOf)
	msg.posted = func(ctx context.Context, id string) {
		if err := s.challenges.SetChallengeMessage(ctx, c.ID, id); err != nil {
			s.Logger(ctx).Error("recording a challenge's message", "challenge", c.ID, "err", err)
		}
	}
	s.Logger(ctx).Info("challenge", "challenge", c.ID, "challenger", c.Challenger.ID, "opponent", c.Opponent.ID, "place", req.Place.String())
	resp := s.challengeSent(req, c)
	resp.Followups = append(resp.Followups, *msg)
	return resp, nil
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
	switch c.Status {
	case record.ChallengePending:
		text += " " + t.T("challenge.expires", "When", Stamp(c.ExpiresAt, StampRelative))
		buttons := []ButtonSpec{{Label: t.T("button.accept"), CustomID: customid.Make("accept", c.ID), Style: Success}}
		if c.Opponent.ID != "" {
			buttons = append(buttons, ButtonSpec{Label: t.T("button.decline"), CustomID: customid.Make("decline", c.ID), Style: Secondary})
		}
		buttons = append(buttons, ButtonSpec{Label: t.T("button.cancel"), CustomID: customid.Make("cancel", c.ID), Style: Danger})
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
