package pairing

// This file is a pairing made: the challenge the newcomer accepts at once,
// the one who waited told where the game is; and the pool's buttons, its
// list and its lapsed waits.

import (
	"context"
	"errors"
	"time"

	"othello-bot/bot"
	"othello-bot/catalog"
	"othello-bot/pool"
	"othello-bot/record"
	"othello-bot/timecontrol"
)

// pair starts the game between the newcomer (req's user, where they
// asked) and the waiting entry, already taken from the pool: a challenge
// from the one who waited, accepted by the newcomer's own Accept, so
// every rule of a game's start (threads, clocks, the number of games a
// player may have) holds. fromButton says the newcomer pressed Play on the
// wait's own message, which the answer then replaces.
func (s *Service) pair(ctx context.Context, req bot.Request, e record.PoolEntry, fromButton bool) (bot.Response, error) {
	now := s.Now()
	control, err := timecontrol.Parse(e.Want.Control)
	if err != nil {
		return bot.Response{}, err
	}
	// The game starts where the newcomer is, or, for a newcomer in the
	// bot's DM, where the one who waited is (see across.go).
	host := hostOf(req, e)
	color := record.RandomColor
	switch {
	case e.GuildID == req.GuildID:
	case host.ChannelID == req.ChannelID:
		// Across servers the one who waited has a page to open first: the
		// newcomer, who is there, moves first.
		color = record.ChooseWhite
	default:
		color = record.ChooseBlack // the one who waited hosts and starts
	}
	c := &record.Challenge{GuildID: host.GuildID, ChannelID: host.ChannelID, Challenger: e.Player, Opponent: req.User,
		Color: color, Size: e.Want.Size, Rated: e.Want.Rated, CreatedAt: now, ExpiresAt: now.Add(time.Minute), Control: control}
	if err := s.store.CreateChallenge(ctx, c); err != nil {
		s.rejoin(ctx, e)
		if errors.Is(err, record.ErrChallengePending) {
			return bot.Refuse(req.Me().T("pool.try_again")), nil
		}
		return bot.Response{}, err
	}
	resp, g, err := s.AcceptPaired(ctx, host, c)
	if err != nil || g == nil {
		// Refused (a player has too many games, say): the one who waited
		// waits on, and the newcomer hears why.
		if _, cerr := s.store.CloseChallenge(ctx, c.ID, record.ChallengeCanceled); cerr != nil {
			s.Logger(ctx).Warn("closing a pairing's challenge", "challenge", c.ID, "err", cerr)
		}
		s.rejoin(ctx, e)
		return resp, err
	}
	s.Logger(ctx).Info("paired from the pool", "guild", req.GuildID, "entry", e.ID, "game", g.ID, "from guild", e.GuildID)
	if host.ChannelID != req.ChannelID {
		return s.hostedByTheWaiter(ctx, req, e, g, resp), nil
	}
	if e.GuildID != req.GuildID {
		return s.pairedAcross(ctx, req, e, g, resp), nil
	}
	pub := s.PublicPrinter(ctx, req.GuildID)
	where := "<#" + g.ChannelID + ">"
	if e.ChannelID != req.ChannelID {
		// The one who waited asked elsewhere: pinged there, with the way.
		s.tell(ctx, e, bot.Message{Content: pub.T("pool.paired_ping", "Mention", bot.Mention(e.Player.ID), "Name", bot.Escape(req.User.Name),
			"ID", g.ID, "Where", where), Mentions: []string{e.Player.ID}})
	}
	if !fromButton {
		s.closeWait(ctx, e, pub.T("pool.paired", "Name", bot.Escape(e.Player.Name), "Other", bot.Escape(req.User.Name), "ID", g.ID, "Where", where))
	}
	resp.Update = fromButton && resp.Update
	return resp, nil
}

// tell posts to the one who waited, in the channel where they waited.
func (s *Service) tell(ctx context.Context, e record.PoolEntry, m bot.Message) {
	if _, err := s.Send(ctx, e.ChannelID, m); err != nil {
		s.Logger(ctx).Warn("telling a waiting player of their game", "entry", e.ID, "channel", e.ChannelID, "err", err)
	}
}

// closeWait says on a paired wait's message what became of it (its
// buttons gone).
func (s *Service) closeWait(ctx context.Context, e record.PoolEntry, text string) {
	s.endPing(ctx, e, "pool.ping_taken")
	if e.MessageID == "" {
		return
	}
	if err := s.Edit(ctx, e.ChannelID, e.MessageID, bot.Message{Content: text}); err != nil {
		s.Logger(ctx).Warn("closing a wait's message", "entry", e.ID, "err", err)
	}
}

// rejoin puts a taken entry back in the pool (a pairing that did not come
// about), its message showing the new wait.
func (s *Service) rejoin(ctx context.Context, e record.PoolEntry) {
	again := e
	again.ID = 0
	if err := s.store.JoinPool(ctx, &again); err != nil {
		s.Logger(ctx).Warn("putting a wait back in the pool", "entry", e.ID, "err", err)
		return
	}
	if e.MessageID == "" {
		return
	}
	if err := s.Edit(ctx, e.ChannelID, e.MessageID, *waitMessage(s.PublicPrinter(ctx, e.GuildID), again)); err != nil {
		s.Logger(ctx).Warn("showing a wait again", "entry", again.ID, "err", err)
	}
	if err := s.store.SetPoolMessage(ctx, again.ID, e.MessageID); err != nil {
		s.Logger(ctx).Warn("recording a wait's message", "entry", again.ID, "err", err)
	}
}

// entry is a wait of the server by its number, from a button.
func (s *Service) entry(ctx context.Context, req bot.Request) (record.PoolEntry, bool, error) {
	id, ok := req.Component().Int(0)
	if !ok {
		return record.PoolEntry{}, false, nil
	}
	list, err := s.store.PoolEntries(ctx, req.GuildID)
	if err != nil {
		return record.PoolEntry{}, false, err
	}
	for _, e := range list {
		if e.ID == id {
			return e, true, nil
		}
	}
	return record.PoolEntry{}, false, nil
}

// playButton is Play on a wait: another member takes that game.
func (s *Service) playButton(ctx context.Context, req bot.Request) (bot.Response, error) {
	me := req.Me()
	e, ok, err := s.entry(ctx, req)
	switch {
	case err != nil:
		return bot.Response{}, err
	case !ok:
		return bot.Refuse(me.T("pool.gone")), nil
	case e.PlayerID == req.User.ID:
		return bot.Refuse(me.T("pool.own")), nil
	}
	control, err := timecontrol.Parse(e.Want.Control)
	if err != nil {
		return bot.Response{}, err
	}
	rating, err := s.rating(ctx, req.GuildID, req.User.ID, control)
	if err != nil {
		return bot.Response{}, err
	}
	if !pool.Suits(pool.Want{Control: e.Want.Control, Size: e.Want.Size, Rated: e.Want.Rated}, rating, e.Want, e.Rating) {
		return bot.Refuse(me.T("pool.out_of_range", "Name", bot.Escape(e.Player.Name), "Range", e.Want.Range)), nil
	}
	if r, err := s.taken(ctx, me, e.ID); r != nil || err != nil {
		return bot.Deref(r), err
	}
	return s.pair(ctx, req, e, true)
}

// taken takes a wait from the pool for a button: the refusal to give if
// another took it first.
func (s *Service) taken(ctx context.Context, me *catalog.Printer, id int64) (*bot.Response, error) {
	took, err := s.store.TakePoolEntry(ctx, id)
	if err != nil || took {
		return nil, err
	}
	return bot.Refusal(me.T("pool.gone")), nil
}

// leaveButton is Leave on a wait: only the one waiting.
func (s *Service) leaveButton(ctx context.Context, req bot.Request) (bot.Response, error) {
	me := req.Me()
	e, ok, err := s.entry(ctx, req)
	switch {
	case err != nil:
		return bot.Response{}, err
	case !ok:
		return bot.Refuse(me.T("pool.gone")), nil
	case e.PlayerID != req.User.ID:
		return bot.Refuse(me.T("pool.not_yours", "Name", bot.Escape(e.Player.Name))), nil
	}
	if r, err := s.taken(ctx, me, e.ID); r != nil || err != nil {
		return bot.Deref(r), err
	}
	s.endPing(ctx, e, "pool.ping_left")
	return bot.Response{Update: true, Message: &bot.Message{Content: req.Pub().T("pool.left", "Name", bot.Escape(e.Player.Name))}}, nil
}

// list shows who waits on the server, only to the asker.
func (s *Service) list(ctx context.Context, req bot.Request) (bot.Response, error) {
	me := req.Me()
	entries, err := s.store.PoolEntries(ctx, req.GuildID)
	if err != nil {
		return bot.Response{}, err
	}
	if len(entries) == 0 {
		return bot.Refuse(me.T("pool.nobody")), nil
	}
	lines := []string{me.T("pool.list_title")}
	for _, e := range entries {
		lines = append(lines, me.T("pool.list_line", "Name", bot.Escape(e.Player.Name), "Game", describe(me, e.Want),
			"Since", bot.Stamp(e.Since, bot.StampRelative), "Channel", "<#"+e.ChannelID+">"))
	}
	return bot.Refuse(bot.JoinLines(lines, bot.MaxContent)), nil
}

// lapse lets the waits of over pool.MaxWait go, each said on its message.
func (s *Service) lapse(ctx context.Context, now time.Time) {
	entries, err := s.store.LapsedPoolEntries(ctx, now.Add(-pool.MaxWait))
	if err != nil {
		s.Logger(ctx).Error("tick: the pool", "err", err)
		return
	}
	for _, e := range entries {
		took, err := s.store.TakePoolEntry(ctx, e.ID)
		if err != nil || !took {
			continue
		}
		s.endPing(ctx, e, "pool.ping_lapsed")
		if e.MessageID == "" {
			continue
		}
		t := s.PublicPrinter(ctx, e.GuildID)
		m := bot.Message{Content: t.T("pool.lapsed", "Name", bot.Escape(e.Player.Name), "Minutes", int(pool.MaxWait/time.Minute))}
		if err := s.Edit(ctx, e.ChannelID, e.MessageID, m); err != nil {
			s.Logger(ctx).Warn("tick: closing a lapsed wait", "entry", e.ID, "err", err)
		}
	}
}
