package tournaments

// This file is the driver: the tick that starts, reminds and steps
// tournaments, and the step that carries out tournament.Next.

import (
	"context"
	"errors"
	"strings"
	"time"

	"othello-bot/bot"
	"othello-bot/record"
	"othello-bot/tournament"
)

// begin starts a tournament taking sign-ups: false (and nothing changed)
// with fewer than two entrants.
func (s *Service) begin(ctx context.Context, t *tournament.Tournament) (bool, error) {
	entrants, err := s.store.Entrants(ctx, t.ID)
	if err != nil {
		return false, err
	}
	if len(entrants) < 2 {
		return false, nil
	}
	now := s.Now()
	switch t.Format {
	case tournament.Swiss:
		t.Rounds = min(t.Rounds, tournament.MaxSwissRounds(len(entrants)))
	case tournament.RoundRobin:
		t.Rounds = tournament.Rounds(len(entrants), t.Double)
	case tournament.Arena:
		t.EndsAt = now.Add(t.Duration)
	}
	t.Status, t.StartsAt = tournament.Running, now
	if err := s.store.UpdateTournament(ctx, t); err != nil {
		return false, err
	}
	s.Logger(ctx).Info("tournament started", "tournament", t.ID, "players", len(entrants), "rounds", t.Rounds)
	s.eventStatus(ctx, t, bot.EventActive)
	pub := s.PublicPrinter(ctx, t.GuildID)
	s.announce(ctx, t, pub.T("tournament.started", "ID", t.ID, "Name", bot.Escape(t.Name), "Count", len(entrants)))
	s.editSignup(ctx, t)
	return true, s.step(ctx, t)
}

// tick moves every open tournament on: reminders before the
// start, the start itself, and a step for running ones (which picks up
// whatever a stopped process left half done).
func (s *Service) tick(ctx context.Context, now time.Time) {
	open, err := s.store.OpenTournaments(ctx, "")
	if err != nil {
		s.Logger(ctx).Error("tick: tournaments", "err", err)
		return
	}
	for _, t := range open {
		func() {
			unlock := s.tournaments.lock(t.ID)
			defer unlock()
			t, err := s.store.Tournament(ctx, t.ID) // as of now, under the lock
			if err != nil {
				s.Logger(ctx).Error("tick: tournament", "tournament", t.ID, "err", err)
				return
			}
			if err := s.tickTournament(ctx, t, now); err != nil && !errors.Is(err, record.ErrStale) {
				s.Logger(ctx).Error("tick: tournament", "tournament", t.ID, "err", err)
			}
		}()
	}
}

func (s *Service) tickTournament(ctx context.Context, t *tournament.Tournament, now time.Time) error {
	switch t.Status {
	case tournament.SignUp:
		if t.StartsAt.IsZero() {
			return nil // the organiser starts it
		}
		if !now.Before(t.StartsAt) {
			ok, err := s.begin(ctx, t)
			if err != nil || ok {
				return err
			}
			t.Status, t.FinishedAt = tournament.Canceled, now
			if err := s.store.UpdateTournament(ctx, t); err != nil {
				return err
			}
			s.Logger(ctx).Info("tournament canceled: too few players", "tournament", t.ID)
			s.eventStatus(ctx, t, bot.EventCanceled)
			s.announce(ctx, t, s.PublicPrinter(ctx, t.GuildID).T("tournament.canceled_too_few", "ID", t.ID))
			s.editSignup(ctx, t)
			return nil
		}
		if !t.Reminded && !now.Before(t.StartsAt.Add(-tournamentReminder)) {
			t.Reminded = true
			if err := s.store.UpdateTournament(ctx, t); err != nil {
				return err
			}
			entrants, err := s.store.Entrants(ctx, t.ID)
			if err != nil {
				return err
			}
			var ids, pings []string
			for _, e := range entrants {
				ids = append(ids, e.ID)
				pings = append(pings, bot.Mention(e.ID))
			}
			if len(ids) > 0 {
				pub := s.PublicPrinter(ctx, t.GuildID)
				text := strings.Join(pings, " ") + " " + pub.T("tournament.reminder", "ID", t.ID, "Name", bot.Escape(t.Name),
					"When", bot.Stamp(t.StartsAt, bot.StampRelative))
				if _, err := s.Send(ctx, t.ChannelID, bot.Message{Content: text, Mentions: ids}); err != nil {
					s.Logger(ctx).Warn("reminding a tournament's entrants", "tournament", t.ID, "err", err)
				}
			}
		}
		return nil
	case tournament.Running:
		return s.step(ctx, t)
	}
	return nil
}

// stepTournament moves a tournament on after one of its games ended.
func (s *Service) stepTournament(ctx context.Context, id int64) {
	unlock := s.tournaments.lock(id)
	defer unlock()
	t, err := s.store.Tournament(ctx, id)
	if err == nil && t.Status == tournament.Running {
		err = s.step(ctx, t)
	}
	if err != nil && !errors.Is(err, record.ErrStale) {
		s.Logger(ctx).Error("moving a tournament on", "tournament", id, "err", err)
	}
}

// step does what a running tournament needs next, each part once however
// often it is called: games opened for the pairings that have none, the
// next round paired when this one is over (an arena pairs whoever waits),
// and the end when nothing is left to play.
func (s *Service) step(ctx context.Context, t *tournament.Tournament) error {
	if t.Status != tournament.Running {
		return nil
	}
	entrants, err := s.store.Entrants(ctx, t.ID)
	if err != nil {
		return err
	}
	pairings, err := s.store.Pairings(ctx, t.ID)
	if err != nil {
		return err
	}
	changed, err := s.openGames(ctx, t, entrants, pairings)
	if err != nil {
		return err
	}
	if changed {
		if pairings, err = s.store.Pairings(ctx, t.ID); err != nil {
			return err
		}
	}
	step, err := tournament.Next(t, entrants, pairings, s.Now())
	if err != nil {
		return err
	}
	switch step.Kind {
	case tournament.Wait:
		return s.postStandings(ctx, t)
	case tournament.FinishEarly:
		// Withdrawals left too few, or too many rounds for those left:
		// the tournament ends after the rounds played.
		s.Logger(ctx).Info("tournament ends early: no pairing", "tournament", t.ID, "round", t.Round+1, "err", step.Err)
		return s.finishTournament(ctx, t, entrants, pairings)
	case tournament.Finish:
		return s.finishTournament(ctx, t, entrants, pairings)
	}
	next := step.Pairings
	from := t.Round
	switch err := s.store.PairTournament(ctx, t, next); {
	case errors.Is(err, tournament.ErrAlreadyPaired), errors.Is(err, record.ErrStale):
		// Another process paired it (and opens the games) or paused,
		// canceled or finished it since t was read: the next step reads
		// it afresh.
		return nil
	case err != nil:
		return err
	}
	s.Logger(ctx).Info("tournament paired", "tournament", t.ID, "round", t.Round, "pairings", len(next))
	if pairings, err = s.store.Pairings(ctx, t.ID); err != nil {
		return err
	}
	if _, err := s.openGames(ctx, t, entrants, pairings); err != nil {
		return err
	}
	if t.Format != tournament.Arena {
		s.announceRound(ctx, t, from+1)
	}
	if t.Format == tournament.Swiss && t.Round == 2 {
		s.editSignup(ctx, t) // late entries close: the buttons go
	}
	return s.postStandings(ctx, t)
}
