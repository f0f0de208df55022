package tournaments

// This file is /tournament show and the organiser's controls: start, pause,
// cancel, kick.

import (
	"cmp"
	"context"
	"errors"
	"strings"

	"othello-bot/bot"
	"othello-bot/catalog"
	"othello-bot/record"
	"othello-bot/tournament"
)

func (s *Service) tournamentShow(ctx context.Context, req bot.Request) (bot.Response, error) {
	t, refusal, err := s.findTournament(ctx, req)
	if refusal != nil || err != nil {
		return bot.Deref(refusal), err
	}
	msg, err := s.standingsMessage(ctx, req.Me(), t)
	if err != nil {
		return bot.Response{}, err
	}
	msg.Ephemeral = true
	resp := bot.Response{Message: &msg}
	if t.Round > 0 && t.Format != tournament.Arena {
		round, err := s.roundMessages(ctx, req.Me(), t, t.Round)
		if err != nil {
			return bot.Response{}, err
		}
		for _, m := range round {
			m.Ephemeral = true
			resp.Followups = append(resp.Followups, m)
		}
	}
	return resp, nil
}

// maxListed is how many tournaments /tournament list shows, newest first.
const maxListed = 15

// tournamentList lists the server's tournaments, running and past.
func (s *Service) tournamentList(ctx context.Context, req bot.Request) (bot.Response, error) {
	me := req.Me()
	ts, err := s.store.Tournaments(ctx, req.GuildID, "", maxListed)
	if err != nil {
		return bot.Response{}, err
	}
	if len(ts) == 0 {
		return bot.Refuse(me.T("tournament.list_empty")), nil
	}
	lines := make([]string, 0, len(ts))
	for _, t := range ts {
		when := startsText(me, t)
		if !t.FinishedAt.IsZero() {
			when = bot.Stamp(t.FinishedAt, bot.StampFull)
		}
		lines = append(lines, me.T("tournament.list_line", "ID", t.ID, "Name", bot.Escape(bot.Clip(t.Name, tournament.MaxNameLength)),
			"Format", formatLine(me, t), "Status", me.T("tournament.status."+string(t.Status)), "When", when, "Channel", "<#"+t.ChannelID+">"))
	}
	return bot.Response{Message: &bot.Message{Ephemeral: true, Embed: &bot.Embed{Title: me.T("tournament.list_title"),
		Description: bot.JoinLines(lines, bot.MaxDescription)}}}, nil
}

func (s *Service) tournamentStart(ctx context.Context, req bot.Request) (bot.Response, error) {
	me := req.Me()
	return s.organiserAction(ctx, req, func(t *tournament.Tournament, _ string) (string, error) {
		switch t.Status {
		case tournament.SignUp:
			ok, err := s.begin(ctx, t)
			if err != nil || !ok {
				return me.T("tournament.too_few", "ID", t.ID), err
			}
			s.Logger(ctx).Info("tournament started by hand", "tournament", t.ID, "by", req.User.ID)
			return me.T("tournament.you_started", "ID", t.ID, "Name", bot.Escape(t.Name)), nil
		case tournament.Paused:
			t.Status = tournament.Running
			if err := s.store.UpdateTournament(ctx, t); err != nil {
				return "", err
			}
			s.Logger(ctx).Info("tournament resumed", "tournament", t.ID, "by", req.User.ID)
			s.announce(ctx, t, s.PublicPrinter(ctx, t.GuildID).T("tournament.resumed", "ID", t.ID))
			return me.T("tournament.you_resumed", "ID", t.ID, "Name", bot.Escape(t.Name)), s.step(ctx, t)
		}
		return me.T("tournament.already_running", "ID", t.ID), nil
	})
}

func (s *Service) tournamentPause(ctx context.Context, req bot.Request) (bot.Response, error) {
	return s.organiserAction(ctx, req, func(t *tournament.Tournament, reason string) (string, error) {
		if t.Status != tournament.Running {
			return req.Me().T("tournament.not_running", "ID", t.ID), nil
		}
		t.Status = tournament.Paused
		if err := s.store.UpdateTournament(ctx, t); err != nil {
			return "", err
		}
		s.Logger(ctx).Info("tournament paused", "tournament", t.ID, "by", req.User.ID, "reason", reason)
		pub := s.PublicPrinter(ctx, t.GuildID)
		s.announce(ctx, t, pub.T("tournament.paused", "ID", t.ID, "Reason", reasonText(pub, reason)))
		return req.Me().T("tournament.you_paused", "ID", t.ID, "Name", bot.Escape(t.Name)), nil
	})
}

func (s *Service) tournamentCancel(ctx context.Context, req bot.Request) (bot.Response, error) {
	return s.organiserAction(ctx, req, func(t *tournament.Tournament, reason string) (string, error) {
		if !t.Status.Open() {
			return req.Me().T("tournament.over", "ID", t.ID), nil
		}
		// An event under way can only be completed, one not begun canceled.
		ending := bot.EventCompleted
		if t.Status == tournament.SignUp {
			ending = bot.EventCanceled
		}
		t.Status, t.FinishedAt = tournament.Canceled, s.Now()
		if err := s.store.UpdateTournament(ctx, t); err != nil {
			return "", err
		}
		s.Logger(ctx).Info("tournament canceled", "tournament", t.ID, "by", req.User.ID, "reason", reason)
		s.eventStatus(ctx, t, ending)
		pub := s.PublicPrinter(ctx, t.GuildID)
		s.announce(ctx, t, pub.T("tournament.canceled", "ID", t.ID, "Reason", reasonText(pub, reason)))
		s.editSignup(ctx, t)
		return req.Me().T("tournament.you_canceled", "ID", t.ID, "Name", bot.Escape(t.Name)), nil
	})
}

func (s *Service) tournamentKick(ctx context.Context, req bot.Request) (bot.Response, error) {
	who := strings.TrimSpace(req.Options["user"])
	return s.organiserAction(ctx, req, func(t *tournament.Tournament, reason string) (string, error) {
		if !t.Status.Open() {
			return req.Me().T("tournament.over", "ID", t.ID), nil
		}
		ok, err := s.withdraw(ctx, t, who, true)
		if err != nil {
			return "", err
		}
		if !ok {
			return req.Me().T("tournament.kick_not_in", "ID", t.ID), nil
		}
		s.Logger(ctx).Info("tournament kick", "tournament", t.ID, "player", who, "by", req.User.ID, "reason", reason)
		pub := s.PublicPrinter(ctx, t.GuildID)
		s.announce(ctx, t, pub.T("tournament.kicked", "ID", t.ID, "Player", bot.Mention(who), "Reason", reasonText(pub, reason)))
		s.editSignup(ctx, t)
		done := req.Me().T("tournament.you_kicked", "ID", t.ID, "Name", bot.Escape(t.Name), "Player", bot.Escape(cmp.Or(req.UserNames[who], who)))
		if t.Status == tournament.Running {
			return done, s.step(ctx, t)
		}
		return done, nil
	})
}

// organiserAction runs a control of the organiser's (or a moderator's) on
// the tournament asked for; act returns the answer, a refusal or what it
// did, for the user alone.
func (s *Service) organiserAction(ctx context.Context, req bot.Request, act func(*tournament.Tournament, string) (string, error)) (bot.Response, error) {
	t, refusal, err := s.findTournament(ctx, req)
	if refusal != nil || err != nil {
		return bot.Deref(refusal), err
	}
	me := req.Me()
	if !mayRun(req, t) {
		return bot.Refuse(me.T("tournament.organiser_only")), nil
	}
	unlock := s.tournaments.lock(t.ID)
	defer unlock()
	if t, err = s.store.Tournament(ctx, t.ID); err != nil {
		return bot.Response{}, err
	}
	answer, err := act(t, strings.TrimSpace(req.Options["reason"]))
	if errors.Is(err, record.ErrStale) {
		return bot.Refuse(me.T("tournament.changed")), nil
	}
	if err != nil {
		return bot.Response{}, err
	}
	return bot.Refuse(answer), nil
}

// reasonText is an organiser's reason as the announcement quotes it, ""
// for none.
func reasonText(t *catalog.Printer, reason string) string {
	if reason == "" {
		return ""
	}
	return t.T("tournament.reason", "Reason", bot.Escape(reason))
}

// announce posts a line about a tournament in its channel.
func (s *Service) announce(ctx context.Context, t *tournament.Tournament, text string) {
	if _, err := s.Send(ctx, t.ChannelID, bot.Message{Content: text}); err != nil {
		s.Logger(ctx).Warn("announcing in a tournament's channel", "tournament", t.ID, "err", err)
	}
}

// editSignup shows the sign-up message as the tournament now stands.
func (s *Service) editSignup(ctx context.Context, t *tournament.Tournament) {
	if t.SignupMessageID == "" {
		return
	}
	entrants, err := s.store.Entrants(ctx, t.ID)
	if err != nil {
		s.Logger(ctx).Warn("reading a tournament's entrants", "tournament", t.ID, "err", err)
		return
	}
	teams, err := s.teams(ctx, t)
	if err != nil {
		s.Logger(ctx).Warn("reading a tournament's teams", "tournament", t.ID, "err", err)
		return
	}
	if err := s.Edit(ctx, t.ChannelID, t.SignupMessageID, s.signupMessage(s.PublicPrinter(ctx, t.GuildID), t, entrants, teams)); err != nil {
		s.Logger(ctx).Warn("editing a tournament's sign-up", "tournament", t.ID, "err", err)
	}
}
