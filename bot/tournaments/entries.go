package tournaments

// This file is joining and leaving: the subcommands, the sign-up buttons,
// and a withdrawal's forfeits.

import (
	"context"
	"errors"

	"othello-bot/bot"
	"othello-bot/customid"
	"othello-bot/game"
	"othello-bot/play"
	"othello-bot/rating/rated"
	"othello-bot/record"
	"othello-bot/tournament"
)

func (s *Service) tournamentJoin(ctx context.Context, req bot.Request) (bot.Response, error) {
	t, refusal, err := s.findTournament(ctx, req)
	if refusal != nil || err != nil {
		return bot.Deref(refusal), err
	}
	return s.join(ctx, req, t, false)
}

func (s *Service) tournamentLeave(ctx context.Context, req bot.Request) (bot.Response, error) {
	t, refusal, err := s.findTournament(ctx, req)
	if refusal != nil || err != nil {
		return bot.Deref(refusal), err
	}
	return s.leave(ctx, req, t, false)
}

// tournamentButton is a press of Join or Leave on a sign-up message.
func (s *Service) tournamentButton(ctx context.Context, req bot.Request, action string) (bot.Response, error) {
	// A sign-up message's buttons act in its own channel.
	t, refusal, err := s.pressed(ctx, req, func(t *tournament.Tournament) bool { return t.ChannelID == req.ChannelID })
	if t == nil {
		return refusal, err
	}
	if action == "tjoin" {
		return s.join(ctx, req, t, true)
	}
	return s.leave(ctx, req, t, true)
}

func (s *Service) join(ctx context.Context, req bot.Request, t *tournament.Tournament, button bool) (bot.Response, error) {
	me := req.Me()
	unlock := s.tournaments.lock(t.ID)
	defer unlock()
	now := s.Now()
	if !entriesOpen(t, now) {
		return bot.Refuse(me.T("tournament.entries_closed", "ID", t.ID)), nil
	}
	team, refusal, err := s.joinTeam(ctx, req, t)
	if refusal != nil || err != nil {
		return bot.Deref(refusal), err
	}
	rating := 1500.0
	scope := record.SpeedScope(req.GuildID, t.Control.Category()) // a team battle's guests: their own server's
	switch st, err := s.store.Standing(ctx, req.User.ID, scope, rated.Growth(now)); {
	case err == nil:
		rating = st.Rating.Rating
	case !errors.Is(err, record.ErrNotFound):
		return bot.Response{}, err
	}
	entrants, err := s.store.Entrants(ctx, t.ID)
	if err != nil {
		return bot.Response{}, err
	}
	if len(entrants) >= tournament.MaxEntrants {
		return bot.Refuse(me.T("tournament.full", "ID", t.ID, "Count", tournament.MaxEntrants)), nil
	}
	switch err := s.store.JoinTournament(ctx, t.ID, req.User, team, rating, now); {
	case errors.Is(err, tournament.ErrAlreadyEntered):
		return bot.Refuse(me.T("tournament.already_in", "ID", t.ID)), nil
	case err != nil:
		return bot.Response{}, err
	}
	s.Logger(ctx).Info("tournament joined", "tournament", t.ID, "player", req.User.ID)
	resp := bot.Refuse(me.T("tournament.joined", "ID", t.ID, "Name", bot.Escape(t.Name), "When", startsText(me, t)))
	if t.Status != tournament.SignUp {
		resp = bot.Refuse(me.T("tournament.joined_late", "ID", t.ID, "Name", bot.Escape(t.Name)))
	}
	if team != "" && team != t.GuildID { // a visitor plays on the games' pages
		resp = bot.Refuse(me.T("team.joined", "ID", t.ID, "Name", bot.Escape(t.Name)))
	}
	return s.refreshSignup(ctx, req, t, button, resp)
}

// leave takes the player out before the start; after it, leaving is a
// withdrawal (a game in progress lost, the rest forfeited), so it asks
// first, as /resign does.
func (s *Service) leave(ctx context.Context, req bot.Request, t *tournament.Tournament, button bool) (bot.Response, error) {
	me := req.Me()
	if !t.Status.Open() {
		return bot.Refuse(me.T("tournament.over", "ID", t.ID)), nil
	}
	if t.Status == tournament.SignUp {
		return s.leaveNow(ctx, req, t, button)
	}
	entrants, err := s.store.Entrants(ctx, t.ID)
	if err != nil {
		return bot.Response{}, err
	}
	in := false
	for _, e := range entrants {
		in = in || e.ID == req.User.ID && !e.Withdrawn
	}
	if !in {
		return bot.Refuse(me.T("tournament.not_in", "ID", t.ID)), nil
	}
	return bot.Response{Message: &bot.Message{Ephemeral: true, Content: me.T("tournament.withdraw_ask", "ID", t.ID, "Name", bot.Escape(t.Name)),
		Components: []bot.Row{{Buttons: []bot.ButtonSpec{
			{Label: me.T("tournament.button.withdraw"), CustomID: customid.Make("tleave-yes", t.ID), Style: bot.Danger},
			{Label: me.T("tournament.button.stay"), CustomID: customid.Make("tleave-no", t.ID), Style: bot.Secondary},
		}}}}}, nil
}

// withdrawYes is the answer Withdraw: the question is replaced by what
// happened, and the sign-up message is edited in place.
func (s *Service) withdrawYes(ctx context.Context, req bot.Request) (bot.Response, error) {
	// Asked wherever /tournament leave was used: in the same server.
	t, refusal, err := s.pressed(ctx, req, func(t *tournament.Tournament) bool { return t.GuildID == req.GuildID })
	if t == nil {
		return refusal, err
	}
	resp, err := s.leaveNow(ctx, req, t, false)
	if err != nil || resp.Message == nil {
		return resp, err
	}
	answer := *resp.Message
	answer.Components = nil
	return bot.Response{Update: true, Message: &answer}, nil
}

// pressed is the tournament a button names (its custom id's number) when
// the press may act on it (here says where); else the refusal to answer.
func (s *Service) pressed(ctx context.Context, req bot.Request, here func(*tournament.Tournament) bool) (*tournament.Tournament, bot.Response, error) {
	id, ok := req.Component().Int(0)
	if !ok {
		return nil, bot.Refuse(req.Me().T("error.button_broken")), nil
	}
	t, err := s.store.Tournament(ctx, id)
	if errors.Is(err, record.ErrNotFound) || err == nil && !here(t) {
		return nil, bot.Refuse(req.Me().T("error.button_broken")), nil
	}
	if err != nil {
		return nil, bot.Response{}, err
	}
	return t, bot.Response{}, nil
}

// withdrawNo is the answer Stay in.
func (s *Service) withdrawNo(ctx context.Context, req bot.Request) (bot.Response, error) {
	id, _ := req.Component().Int(0)
	return bot.Response{Update: true, Message: &bot.Message{Ephemeral: true, Content: req.Me().T("tournament.stay", "ID", id)}}, nil
}

// leaveNow takes the player out at once.
func (s *Service) leaveNow(ctx context.Context, req bot.Request, t *tournament.Tournament, button bool) (bot.Response, error) {
	me := req.Me()
	unlock := s.tournaments.lock(t.ID)
	defer unlock()
	if !t.Status.Open() {
		return bot.Refuse(me.T("tournament.over", "ID", t.ID)), nil
	}
	ok, err := s.withdraw(ctx, t, req.User.ID, false)
	if err != nil {
		return bot.Response{}, err
	}
	if !ok {
		return bot.Refuse(me.T("tournament.not_in", "ID", t.ID)), nil
	}
	s.Logger(ctx).Info("tournament left", "tournament", t.ID, "player", req.User.ID, "started", t.Status != tournament.SignUp)
	if t.Status == tournament.Running {
		if err := s.step(ctx, t); err != nil {
			return bot.Response{}, err
		}
	}
	resp := bot.Refuse(me.T("tournament.left", "ID", t.ID))
	if t.Status != tournament.SignUp {
		resp = bot.Refuse(me.T("tournament.withdrawn", "ID", t.ID))
	}
	return s.refreshSignup(ctx, req, t, button, resp)
}

// withdraw takes a player out of a tournament (removed: by its organiser):
// before the start their entry goes; after it their game in progress is
// lost (as a resignation) and every pairing of theirs not yet played is
// forfeited.
func (s *Service) withdraw(ctx context.Context, t *tournament.Tournament, playerID string, removed bool) (bool, error) {
	why := "tournament.game_withdrawn"
	if removed {
		why = "tournament.game_removed"
	}
	ctx = holding(ctx, t.ID) // the caller holds the lock and steps after
	now := s.Now()
	started := t.Status != tournament.SignUp
	ok, err := s.store.LeaveTournament(ctx, t.ID, playerID, started, now)
	if err != nil || !ok || !started {
		return ok, err
	}
	pairings, err := s.store.Pairings(ctx, t.ID)
	if err != nil {
		return true, err
	}
	pub := s.PublicPrinter(ctx, t.GuildID)
	for _, p := range pairings {
		if !p.Has(playerID) || p.Bye() || p.Done() {
			continue
		}
		if p.GameID == 0 {
			if _, err := s.store.ForfeitPairing(ctx, t.ID, p.Round, p.Board, playerID); err != nil {
				return true, err
			}
			continue
		}
		g, err := s.store.Game(ctx, p.GameID)
		if err != nil {
			return true, err
		}
		if g.Status != record.Active {
			continue
		}
		loser := game.Black
		if p.White == playerID {
			loser = game.White
		}
		// Lost as a resignation is, and said as what it is.
		r := play.LostBy(g, record.EndResign, loser, now)
		r.Note = record.WithdrawalNote
		err = s.EndShown(ctx, pub, g, r, pub.T(why, "Name", bot.Escape(nameIn(t, playerID, g))))
		if errors.Is(err, record.ErrStale) || errors.Is(err, record.ErrNotActive) {
			continue // it ended meanwhile
		}
		if err != nil {
			return true, err
		}
	}
	return true, nil
}

// nameIn is a player's name as the game knows it.
func nameIn(_ *tournament.Tournament, playerID string, g *record.Game) string {
	if g.Black.Player.ID == playerID {
		return g.Black.Player.Name
	}
	return g.White.Player.Name
}

// refreshSignup edits the sign-up message after an entry changed: as the
// answer to its own button, or in place.
func (s *Service) refreshSignup(ctx context.Context, req bot.Request, t *tournament.Tournament, button bool, resp bot.Response) (bot.Response, error) {
	entrants, err := s.store.Entrants(ctx, t.ID)
	if err != nil {
		return bot.Response{}, err
	}
	teams, err := s.teams(ctx, t)
	if err != nil {
		return bot.Response{}, err
	}
	// In the host's language: a team battle's guests join from elsewhere.
	msg := s.signupMessage(s.PublicPrinter(ctx, t.GuildID), t, entrants, teams)
	if button {
		return bot.Response{Update: true, Message: &msg, Followups: []bot.Message{*resp.Message}}, nil
	}
	if t.SignupMessageID != "" {
		if err := s.Edit(ctx, t.ChannelID, t.SignupMessageID, msg); err != nil {
			s.Logger(ctx).Warn("editing a tournament's sign-up", "tournament", t.ID, "err", err)
		}
	}
	return resp, nil
}
