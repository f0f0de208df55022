package bot

// This file is the timers: challenges expire, players to move are reminded
// and then lose on time. Every timer lives in the database.

import (
	"context"
	"errors"
	"time"

	"othello-bot/catalog"
	"othello-bot/record"
	"othello-bot/schedule"
	"othello-bot/timecontrol"
)

// Jobs are the core's timed work, for the scheduler to run on every
// tick: challenges expire, the threads of games long over are archived,
// and players get a reminder before their move time runs out, then lose
// on time. Every timer is in the database and each change is
// conditional, so a restart or a second tick never fires one twice.
func (s *Service) Jobs() []schedule.Job {
	return []schedule.Job{
		{Name: "challenges", Run: s.expireChallenges},
		{Name: "threads", Run: func(ctx context.Context, _ time.Time) { s.archiveThreads(ctx) }},
		{Name: "games", Run: s.fireGameTimers},
	}
}

// Guard makes a job the service's own task (see Task), for the
// scheduler: none runs once shutdown has begun.
func (s *Service) Guard(j schedule.Job) schedule.Job {
	return schedule.Job{Name: j.Name, Run: func(ctx context.Context, now time.Time) {
		s.Task(ctx, "tick: "+j.Name, func(ctx context.Context) { j.Run(ctx, now) })
	}}
}

// Tick runs the core's jobs once, as a scheduler holding only them
// would: the core's own tests tick it so.
func (s *Service) Tick(ctx context.Context) {
	for _, j := range s.Jobs() {
		s.Guard(j).Run(ctx, s.clock.Now())
	}
}

// expireChallenges closes the challenges whose time is up.
func (s *Service) expireChallenges(ctx context.Context, now time.Time) {
	pending, err := s.challenges.PendingChallenges(ctx)
	if err != nil {
		s.Logger(ctx).Error("tick: challenges", "err", err)
	}
	for _, c := range pending {
		if now.Before(c.ExpiresAt) {
			break // soonest first
		}
		ok, err := s.challenges.CloseChallenge(ctx, c.ID, record.ChallengeExpired)
		if err != nil {
			s.Logger(ctx).Error("tick: expiring challenge", "challenge", c.ID, "err", err)
			continue
		}
		if !ok {
			continue // answered at the same moment
		}
		c.Status = record.ChallengeExpired
		s.Logger(ctx).Info("challenge expired", "challenge", c.ID)
		msg := *s.challengeMessage(s.PublicPrinter(ctx, c.GuildID), c, 0)
		if c.MessageID == "" || s.notify.Edit(ctx, c.ChannelID, c.MessageID, msg) != nil {
			// The message is gone (deleted, or from before a restart of the
			// terminal bot): say it in a new one.
			if err := s.SendOrKeep(ctx, c.ChannelID, msg); err != nil {
				s.Logger(ctx).Error("tick: announcing expired challenge", "challenge", c.ID, "err", err)
			}
		}
	}
}

// fireGameTimers fires the games' timers that are due.
func (s *Service) fireGameTimers(ctx context.Context, now time.Time) {
	if !s.cfg.Settle(ctx) {
		return // no flag falls while the bot can take no move
	}
	// With exact timers, the games due before the next tick get a timer
	// of their own: those another process (or the process before a
	// restart) armed fire at their time too.
	horizon := time.Duration(0)
	if s.cfg.ExactTimers {
		horizon = timerHorizon
	}
	due, err := s.games.DueGames(ctx, now.Add(horizon), s.cfg.ReminderBefore)
	if err != nil {
		s.Logger(ctx).Error("tick: games", "err", err)
		return
	}
	for _, g := range due {
		if at := s.nextTimer(g); at.After(now) {
			s.Arm(g)
			continue
		}
		s.fireGameTimer(ctx, g, now)
	}
}

// fireGameTimer does what a game's timer is for, armed being the game as
// it was when the timer was set.
func (s *Service) fireGameTimer(ctx context.Context, armed *record.Game, now time.Time) {
	if !s.cfg.Settle(ctx) {
		return // the tick fires it once the outage is given back
	}
	// What the end of the game brings comes after its final board, and
	// outside the channel's lock.
	ctx, held := holdEnds(ctx)
	defer s.release(held)
	unlock := s.LockChannel(armed.ChannelID)
	defer unlock()
	// A flag falls on the game as armed, unread: in a burst (a round's
	// games started together) the reads were half of the lateness. The
	// end is written only if the game is still at that version; if it
	// moved on, it is read and its timer tried afresh.
	if armed.Status == record.Active && live(armed) && !armed.Deadline.IsZero() && !now.Before(armed.Deadline) && s.flagFalls(ctx, armed) {
		s.Arm(armed)
		return
	}
	g, err := s.games.Game(ctx, armed.ID)
	if err != nil {
		s.Logger(ctx).Error("tick: loading game", "game", armed.ID, "err", err)
		return
	}
	if g.Status != record.Active || g.Deadline.IsZero() {
		return
	}
	defer s.Arm(g) // the next timer, if the game goes on
	side := g.ToMove()
	if live(g) {
		s.fireClock(ctx, g, now)
		return
	}
	pub := s.PublicPrinter(ctx, g.GuildID)
	vsBot := g.Black.IsBot() || g.White.IsBot()
	if vsBot {
		// The inactivity timeout of a game against the bot: no reminder,
		// but noted as sent, so the tick stops loading the game until it
		// is due.
		switch {
		case !now.Before(g.Deadline):
			s.abandon(ctx, pub, g)
		case !g.Reminded:
			if _, err := s.games.MarkReminded(ctx, g); err != nil {
				s.Logger(ctx).Error("tick: noting an idle game", "game", g.ID, "err", err)
			}
		}
		return
	}
	if !now.Before(g.Deadline) {
		// Lost at the deadline, even when the bot was down then.
		note, err := s.FinishAgainst(ctx, pub, g, record.EndTimeout, g.Position().ToMove(), g.Deadline)
		if err != nil {
			if !errors.Is(err, record.ErrStale) && !errors.Is(err, record.ErrNotActive) {
				s.Logger(ctx).Error("tick: timeout", "game", g.ID, "err", err)
			}
			return
		}
		loser := g.Side(g.Position().ToMove())
		msg := s.GameMessage(pub, g, []string{pub.T("timeout.ran_out", "Side", SideLabel(pub, g, g.Position().ToMove())), note})
		s.ShowFinal(ctx, g, *msg)
		// The loser is the one player pinged: they may not have seen the
		// reminder.
		if err := s.SendOrKeep(ctx, g.ChannelID, ping(loser.Player.ID, pub.T("timeout.ping", "ID", g.ID, "Result", note))); err != nil {
			s.Logger(ctx).Error("tick: announcing timeout", "game", g.ID, "err", err)
		}
		return
	}
	if g.Reminded || now.Before(g.Deadline.Add(-s.cfg.ReminderBefore)) {
		return
	}
	if ok, err := s.games.MarkReminded(ctx, g); err != nil {
		s.Logger(ctx).Error("tick: noting reminder", "game", g.ID, "err", err)
		return
	} else if !ok {
		return
	}
	deadline := g.Deadline
	if limit := now.Add(s.cfg.MoveTimeout); deadline.After(limit) {
		deadline = limit // the clock stepped back
	}
	text := pub.T("timeout.reminder", "ID", g.ID, "When", Stamp(deadline, StampRelative), "Until", Stamp(deadline, StampFull))
	if _, err := s.Send(ctx, g.ChannelID, ping(side.Player.ID, text)); errors.Is(err, ErrUnreachable) {
		// A reminder shown after its deadline would only mislead: none.
		s.Logger(ctx).Info("tick: no way to remind here now", "game", g.ID, "player", side.Player.ID)
	} else if err != nil {
		s.Logger(ctx).Error("tick: reminder", "game", g.ID, "player", side.Player.ID, "err", err)
	}
}

// fireClock is a live game's timer: the side to move's time is up (it
// loses on time, or the game is aborted if its first move never came), or
// its flag is near and it gets its one ping.
func (s *Service) fireClock(ctx context.Context, g *record.Game, now time.Time) {
	side := g.ToMove()
	if !now.Before(g.Deadline) {
		s.flagFalls(ctx, g)
		return
	}
	if g.Reminded || side.IsBot() || g.RemindAt.IsZero() || now.Before(g.RemindAt) {
		return
	}
	if ok, err := s.games.MarkReminded(ctx, g); err != nil || !ok {
		if err != nil {
			s.Logger(ctx).Error("tick: noting the low-time ping", "game", g.ID, "err", err)
		}
		return
	}
	pub := s.PublicPrinter(ctx, g.GuildID)
	text := pub.T("timeout.low_time", "ID", g.ID, "Left", timecontrol.Format(g.Clock().LeftAt(g.Clock().ToMove, now)),
		"When", Stamp(g.Deadline, StampRelative))
	if _, err := s.Send(ctx, g.ChannelID, ping(side.Player.ID, text)); errors.Is(err, ErrUnreachable) {
		s.Logger(ctx).Info("tick: no way to ping here now", "game", g.ID)
	} else if err != nil {
		s.Logger(ctx).Error("tick: low-time ping", "game", g.ID, "err", err)
	}
}

// flagFalls ends a live game whose side to move's time is up and shows
// it; false if the game could not be ended as read (it moved on).
func (s *Service) flagFalls(ctx context.Context, g *record.Game) bool {
	side, deadline := g.ToMove(), g.Deadline
	msg, lost, err := s.endOnTime(ctx, g, nil)
	if err != nil {
		if !errors.Is(err, record.ErrStale) && !errors.Is(err, record.ErrNotActive) {
			s.Logger(ctx).Error("tick: flag", "game", g.ID, "err", err)
		}
		return false
	}
	s.meter.FlagFell(s.clock.Now().Sub(deadline))
	s.ShowFinal(ctx, g, *msg)
	if lost && !side.IsBot() {
		pub := s.PublicPrinter(ctx, g.GuildID)
		if err := s.SendOrKeep(ctx, g.ChannelID, ping(side.Player.ID, pub.T("timeout.ping", "ID", g.ID, "Result", ResultLine(pub, g)))); err != nil {
			s.Logger(ctx).Error("tick: announcing a flag", "game", g.ID, "err", err)
		}
	}
	return true
}

// endOnTime ends a live game whose side to move's time is up, as of the
// moment it was (play.Flow.Flag): lost on time (lost true), or aborted
// when that side's first move never came. It returns the game's final
// message in pub's words (nil: the server's, read once the end is
// stored, so a burst of flags writes first and reads after).
func (s *Service) endOnTime(ctx context.Context, g *record.Game, pub *catalog.Printer) (*Message, bool, error) {
	color, untimed := g.Position().ToMove(), !g.Clock().Timed() && g.TournamentID == 0
	lost, err := s.flow.Flag(ctx, g)
	if err != nil {
		return nil, false, err
	}
	if pub == nil {
		pub = s.PublicPrinter(ctx, g.GuildID)
	}
	why := "timeout.ran_out"
	if untimed {
		why = "timeout.no_first_move"
	}
	return s.GameMessage(pub, g, []string{pub.T(why, "Side", SideLabel(pub, g, color)), ResultLine(pub, g)}), lost, nil
}

// timeRanOut answers a move that came after its player's time was up:
// the game ends as of then, the board shows it, and the player learns why
// their move was not played.
func (s *Service) timeRanOut(ctx context.Context, me, pub *catalog.Printer, g *record.Game) (Response, error) {
	msg, _, err := s.endOnTime(ctx, g, pub)
	if errors.Is(err, record.ErrStale) || errors.Is(err, record.ErrNotActive) {
		return Refuse(me.T("play.changed")), nil
	}
	if err != nil {
		return Response{}, err
	}
	return Response{Message: msg, Followups: []Message{{Ephemeral: true, Content: me.T("play.too_late")}}}, nil
}
