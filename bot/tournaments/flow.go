package tournaments

// This file is the flow of tournaments: /tournament's subcommands, the
// sign-up buttons, and the step that moves a running tournament on (pair
// the next round, open its games in threads, post the standings, finish
// with a podium). The rules are package tournament's; that each thing
// happens once, whoever tries, is the store's.

import (
	"context"
	"errors"
	"fmt"
	"othello-bot/bot"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"othello-bot/catalog"
	"othello-bot/game"
	"othello-bot/gametext"
	"othello-bot/record"
	"othello-bot/timecontrol"
	"othello-bot/tournament"
)

// PermManageEvents is Discord's Manage Events permission: creating a
// tournament, which is an event of the server.
const PermManageEvents int64 = 1 << 33

const (
	// tournamentReminder is how long before its start a tournament pings
	// its entrants.
	tournamentReminder = 10 * time.Minute
)

// tournamentControl is a tournament's clock when its organiser names none.
var tournamentControl = timecontrol.Control{Base: 5 * time.Minute, Increment: 3 * time.Second}

// tournamentLocks keeps one step of a tournament at a time in this
// process; the store keeps it to one across processes.
type tournamentLocks struct {
	mu    sync.Mutex
	locks map[int64]*sync.Mutex
	// shown is the standings each tournament's message shows, as this
	// process last wrote them: a tick that changes nothing edits nothing.
	shown map[int64]string
}

// changedSince records text as tournament id's standings, reporting
// whether they differ from what was shown.
func (l *tournamentLocks) changedSince(id int64, text string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.shown == nil {
		l.shown = map[int64]string{}
	}
	if l.shown[id] == text {
		return false
	}
	l.shown[id] = text
	return true
}

// steppingKey marks a context whose caller holds a tournament's lock: a
// game of it ending there needs no step of its own (the caller steps).
type steppingKey struct{}

func steppingTournament(ctx context.Context, id int64) bool {
	held, _ := ctx.Value(steppingKey{}).(int64)
	return held == id
}

func holding(ctx context.Context, id int64) context.Context {
	return context.WithValue(ctx, steppingKey{}, id)
}

func (l *tournamentLocks) lock(id int64) func() {
	l.mu.Lock()
	if l.locks == nil {
		l.locks = map[int64]*sync.Mutex{}
	}
	m := l.locks[id]
	if m == nil {
		m = &sync.Mutex{}
		l.locks[id] = m
	}
	l.mu.Unlock()
	m.Lock()
	return m.Unlock
}

// findTournament is the tournament a subcommand is about: the id given,
// else the newest open one in this channel (or the channel of this
// thread). The refusal says why there is none.
func (s *Service) findTournament(ctx context.Context, req bot.Request) (*tournament.Tournament, *bot.Response, error) {
	me := req.Me()
	if v := strings.TrimSpace(req.Options["id"]); v != "" {
		id, err := strconv.ParseInt(v, 10, 64)
		if err != nil || id <= 0 {
			r := bot.Refuse(me.T("tournament.not_found", "ID", game.QuoteInput(v)))
			return nil, &r, nil
		}
		t, err := s.store.Tournament(ctx, id)
		if errors.Is(err, record.ErrNotFound) || err == nil && t.GuildID != req.GuildID {
			r := bot.Refuse(me.T("tournament.not_found", "ID", id))
			return nil, &r, nil
		}
		return t, nil, err
	}
	channel := req.ChannelID
	if req.InThread && req.ParentID != "" {
		channel = req.ParentID
	}
	open, err := s.store.OpenTournaments(ctx, channel)
	if err != nil {
		return nil, nil, err
	}
	if len(open) == 0 {
		r := bot.Refuse(me.T("tournament.none_here"))
		return nil, &r, nil
	}
	return open[0], nil, nil
}

// mayRun says whether the user may start, pause, cancel or kick in a
// tournament: its organiser, or a moderator of its channel.
func mayRun(req bot.Request, t *tournament.Tournament) bool {
	return req.User.ID == t.OrganiserID || req.MemberPermissions&(bot.PermManageMessages|PermManageEvents|bot.PermManageGuild) != 0
}

func (s *Service) tournamentCreate(ctx context.Context, req bot.Request) (bot.Response, error) {
	me := req.Me()
	if req.GuildID == "" {
		return bot.Refuse(me.T("tournament.server_only")), nil
	}
	if req.MemberPermissions&(PermManageEvents|bot.PermManageGuild) == 0 && !s.hasTournamentRole(req) {
		return bot.Refuse(me.T("tournament.create_not_allowed")), nil
	}
	format, err := tournament.ParseFormat(strings.TrimSpace(req.Options["format"]))
	if err != nil {
		return bot.Refuse(me.T("tournament.bad_format")), nil
	}
	now := s.Now()
	startsAt, err := tournament.ParseStart(req.Options["start"], now)
	if err != nil {
		return bot.Refuse(startError(me, req.Options["start"], err)), nil
	}
	control := tournamentControl
	if strings.TrimSpace(req.Options["time"]) != "" {
		var refusal *bot.Response
		if control, refusal = s.TimeOption(req, false); refusal != nil {
			return *refusal, nil
		}
	}
	if format == tournament.Arena && !control.Live() {
		return bot.Refuse(me.T("tournament.arena_live")), nil
	}
	size, err := bot.IntOption(req, "size", s.cfg.DefaultSize)
	if err != nil || !game.ValidSize(size) {
		return bot.Refuse(me.T("start.bad_size")), nil
	}
	rated, double := true, false
	for name, dst := range map[string]*bool{"rated": &rated, "double": &double} {
		if v := strings.TrimSpace(req.Options[name]); v != "" {
			if *dst, err = strconv.ParseBool(v); err != nil {
				return bot.Refuse(me.T("tournament.bad_option", "Option", name)), nil
			}
		}
	}
	rounds, err := bot.IntOption(req, "rounds", 5)
	if err != nil || rounds < 1 || rounds > tournament.MaxRounds {
		return bot.Refuse(me.T("tournament.bad_rounds", "Max", tournament.MaxRounds)), nil
	}
	minutes, err := bot.IntOption(req, "minutes", 60)
	if err != nil || minutes < tournament.MinArenaMinutes || minutes > tournament.MaxArenaMinutes {
		return bot.Refuse(me.T("tournament.bad_minutes", "Min", tournament.MinArenaMinutes, "Max", tournament.MaxArenaMinutes)), nil
	}
	if !s.ThreadsHere(req) {
		return bot.Refuse(me.T("tournament.needs_threads")), nil
	}
	if missing := s.MissingPermission(req, size, record.StyleEmoji); missing != "" {
		return bot.Refuse(me.T("challenge.no_permission", "Permission", me.T(missing))), nil
	}
	pub := req.Pub()
	title := strings.TrimSpace(req.Options["name"])
	if title == "" {
		title = pub.T("tournament.default_name", "Format", pub.T("choice.format."+string(format)))
	}
	t := &tournament.Tournament{GuildID: req.GuildID, ChannelID: req.ChannelID, Name: bot.Clip(title, tournament.MaxNameLength),
		Format: format, Size: size, Rated: rated, Control: control, StartsAt: startsAt, CreatedAt: now}
	switch format {
	case tournament.Swiss:
		t.Rounds = rounds
	case tournament.RoundRobin:
		t.Double = double
	case tournament.Arena:
		t.Duration = time.Duration(minutes) * time.Minute
	}
	if err := s.store.CreateTournament(ctx, t, req.User); err != nil {
		return bot.Response{}, err
	}
	id, err := s.Send(ctx, t.ChannelID, s.signupMessage(pub, t, nil))
	if err != nil {
		t.Status = tournament.Canceled
		if uerr := s.store.UpdateTournament(ctx, t); uerr != nil {
			err = errors.Join(err, uerr)
		}
		return bot.Response{}, fmt.Errorf("posting tournament %d: %w", t.ID, err)
	}
	t.SignupMessageID = id
	t.EventID = s.scheduleEvent(ctx, req, t)
	if err := s.store.UpdateTournament(ctx, t); err != nil {
		return bot.Response{}, err
	}
	s.Logger(ctx).Info("tournament created", "tournament", t.ID, "format", string(t.Format), "organiser", req.User.ID,
		"starts", t.StartsAt, "time", t.Control.String())
	return bot.Refuse(me.T("tournament.created", "ID", t.ID, "Name", bot.Escape(t.Name))), nil
}

// hasTournamentRole reports whether the user has a role the config lets
// create tournaments.
func (s *Service) hasTournamentRole(req bot.Request) bool {
	for _, r := range req.Roles {
		if slices.Contains(s.cfg.Roles, r) {
			return true
		}
	}
	return false
}

// startError says why a typed start was refused.
func startError(t *catalog.Printer, typed string, err error) string {
	quoted := game.QuoteInput(typed)
	switch {
	case errors.Is(err, tournament.ErrStartPast):
		return t.T("tournament.start_past", "Typed", quoted)
	case errors.Is(err, tournament.ErrStartFar):
		return t.T("tournament.start_far", "Typed", quoted, "Days", int(tournament.MaxLead.Hours()/24))
	}
	return t.T("tournament.start_syntax", "Typed", quoted)
}

// entriesOpen says whether a player may still join: before the start; in
// a Swiss until its second round is paired; in an arena until its end.
func entriesOpen(t *tournament.Tournament, now time.Time) bool {
	switch {
	case t.Status == tournament.SignUp:
		return true
	case t.Status != tournament.Running && t.Status != tournament.Paused:
		return false
	case t.Format == tournament.Swiss:
		return t.Round < 2
	case t.Format == tournament.Arena:
		return now.Before(t.EndsAt)
	}
	return false
}

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
func (s *Service) tournamentButton(ctx context.Context, req bot.Request, action, args string) (bot.Response, error) {
	id, err := strconv.ParseInt(args, 10, 64)
	if err != nil {
		return bot.Refuse(req.Me().T("error.button_broken")), nil
	}
	t, err := s.store.Tournament(ctx, id)
	if errors.Is(err, record.ErrNotFound) || err == nil && t.ChannelID != req.ChannelID {
		return bot.Refuse(req.Me().T("error.button_broken")), nil
	}
	if err != nil {
		return bot.Response{}, err
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
	rating := 1500.0
	scope := record.SpeedScope(t.GuildID, t.Control.Category())
	switch st, err := s.store.Standing(ctx, req.User.ID, scope, bot.Growth(now)); {
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
	switch err := s.store.JoinTournament(ctx, t.ID, req.User, rating, now); {
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
	return s.refreshSignup(ctx, req, t, button, resp)
}

func (s *Service) leave(ctx context.Context, req bot.Request, t *tournament.Tournament, button bool) (bot.Response, error) {
	me := req.Me()
	unlock := s.tournaments.lock(t.ID)
	defer unlock()
	if !t.Status.Open() {
		return bot.Refuse(me.T("tournament.over", "ID", t.ID)), nil
	}
	ok, err := s.withdraw(ctx, t, req.User.ID)
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

// withdraw takes a player out of a tournament: before the start their
// entry goes; after it their game in progress is lost (as a resignation)
// and every pairing of theirs not yet played is forfeited.
func (s *Service) withdraw(ctx context.Context, t *tournament.Tournament, playerID string) (bool, error) {
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
		note, err := s.FinishAgainst(ctx, pub, g, record.EndResign, loser, now)
		if errors.Is(err, record.ErrStale) || errors.Is(err, record.ErrNotActive) {
			continue // it ended meanwhile
		}
		if err != nil {
			return true, err
		}
		s.ShowFinal(ctx, g, *s.GameMessage(pub, g, []string{pub.T("tournament.game_withdrawn", "Name", bot.Escape(nameIn(t, playerID, g))), note}))
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
	msg := s.signupMessage(req.Pub(), t, entrants)
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
		case tournament.Paused:
			t.Status = tournament.Running
			if err := s.store.UpdateTournament(ctx, t); err != nil {
				return "", err
			}
			s.Logger(ctx).Info("tournament resumed", "tournament", t.ID, "by", req.User.ID)
			s.announce(ctx, t, s.PublicPrinter(ctx, t.GuildID).T("tournament.resumed", "ID", t.ID))
			return "", s.step(ctx, t)
		default:
			return me.T("tournament.already_running", "ID", t.ID), nil
		}
		return "", nil
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
		return "", nil
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
		return "", nil
	})
}

func (s *Service) tournamentKick(ctx context.Context, req bot.Request) (bot.Response, error) {
	who := strings.TrimSpace(req.Options["user"])
	return s.organiserAction(ctx, req, func(t *tournament.Tournament, reason string) (string, error) {
		if !t.Status.Open() {
			return req.Me().T("tournament.over", "ID", t.ID), nil
		}
		ok, err := s.withdraw(ctx, t, who)
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
		if t.Status == tournament.Running {
			return "", s.step(ctx, t)
		}
		return "", nil
	})
}

// organiserAction runs a control of the organiser's (or a moderator's) on
// the tournament asked for; act returns a refusal, or "" when done.
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
	no, err := act(t, strings.TrimSpace(req.Options["reason"]))
	if errors.Is(err, record.ErrStale) {
		return bot.Refuse(me.T("tournament.changed")), nil
	}
	if err != nil {
		return bot.Response{}, err
	}
	if no != "" {
		return bot.Refuse(no), nil
	}
	return bot.Refuse(me.T("tournament.done", "ID", t.ID)), nil
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
	if err := s.Edit(ctx, t.ChannelID, t.SignupMessageID, s.signupMessage(s.PublicPrinter(ctx, t.GuildID), t, entrants)); err != nil {
		s.Logger(ctx).Warn("editing a tournament's sign-up", "tournament", t.ID, "err", err)
	}
}

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

// Tick moves every open tournament on: reminders before the
// start, the start itself, and a step for running ones (which picks up
// whatever a stopped process left half done).
func (s *Service) Tick(ctx context.Context, now time.Time) {
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
	switch err := s.store.PairTournament(ctx, t.ID, t.Round, next); {
	case errors.Is(err, tournament.ErrAlreadyPaired):
		return nil // another process paired it; it opens the games
	case err != nil:
		return err
	}
	from := t.Round
	if t, err = s.store.Tournament(ctx, t.ID); err != nil {
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

// openGames opens a game, in a thread of its own, for each pairing that
// has none yet and forfeits those of players who withdrew; it reports
// whether it changed any.
func (s *Service) openGames(ctx context.Context, t *tournament.Tournament, entrants []tournament.Entrant, pairings []tournament.Pairing) (bool, error) {
	players := map[string]tournament.Entrant{}
	for _, e := range entrants {
		players[e.ID] = e
	}
	pub := s.PublicPrinter(ctx, t.GuildID)
	changed := false
	for _, p := range pairings {
		if p.Bye() || p.GameID != 0 || p.ForfeitBy != "" {
			continue
		}
		black, white := players[p.Black], players[p.White]
		if black.Withdrawn || white.Withdrawn {
			by := p.Black
			if white.Withdrawn {
				by = p.White
			}
			if _, err := s.store.ForfeitPairing(ctx, t.ID, p.Round, p.Board, by); err != nil {
				return changed, err
			}
			changed = true
			continue
		}
		opened, err := s.openGame(ctx, pub, t, p, black, white)
		if err != nil {
			return changed, err
		}
		changed = changed || opened
	}
	return changed, nil
}

// openGame starts a pairing's game in a new thread off the tournament's
// channel and pings both players into it.
func (s *Service) openGame(ctx context.Context, pub *catalog.Printer, t *tournament.Tournament, p tournament.Pairing, black, white tournament.Entrant) (bool, error) {
	start, err := game.NewPosition(t.Size)
	if err != nil {
		return false, fmt.Errorf("tournament %d: %w", t.ID, err)
	}
	now := s.Now()
	g := &record.Game{GuildID: t.GuildID, ChannelID: t.ChannelID, Rated: t.Rated, State: game.NewGame(start),
		Black: record.Human(record.Player{ID: black.ID, Name: black.Name}), White: record.Human(record.Player{ID: white.ID, Name: white.Name}),
		CreatedAt: now, UpdatedAt: now, Control: t.Control, TournamentID: t.ID}
	s.StartClocks(g, now)
	if err := s.OpenThread(ctx, pub, t.ChannelID, g); err != nil {
		return false, fmt.Errorf("a thread for tournament %d round %d: %w", t.ID, p.Round, err)
	}
	switch err := s.store.OpenPairingGame(ctx, t.ID, p.Round, p.Board, g); {
	case errors.Is(err, tournament.ErrAlreadyPaired):
		s.DropThread(ctx, g)
		return false, nil
	case err != nil:
		s.DropThread(ctx, g)
		return false, err
	}
	s.Arm(g)
	note := pub.T("tournament.game_note", "ID", t.ID, "Name", bot.Escape(t.Name), "Round", p.Round)
	if t.Format == tournament.Arena {
		note = pub.T("tournament.game_note_arena", "ID", t.ID, "Name", bot.Escape(t.Name))
	}
	if _, err := s.Send(ctx, g.ChannelID, *s.GameMessage(pub, g, []string{note})); err != nil {
		s.Logger(ctx).Warn("posting a tournament game", "game", g.ID, "err", err)
	}
	welcome := bot.Message{Content: pub.T("challenge.welcome", "First", bot.Mention(black.ID), "ID", g.ID, "Other", bot.Mention(white.ID)),
		Mentions: []string{black.ID, white.ID}}
	if _, err := s.Send(ctx, g.ChannelID, welcome); err != nil {
		s.Logger(ctx).Warn("pinging players into a tournament game", "game", g.ID, "err", err)
	}
	s.Logger(ctx).Info("tournament game", "tournament", t.ID, "round", p.Round, "game", g.ID, "thread", g.ChannelID)
	return true, nil
}

// announceRound posts a round's pairings in the tournament's channel.
func (s *Service) announceRound(ctx context.Context, t *tournament.Tournament, round int) {
	msgs, err := s.roundMessages(ctx, s.PublicPrinter(ctx, t.GuildID), t, round)
	for _, m := range msgs {
		if err == nil {
			_, err = s.Send(ctx, t.ChannelID, m)
		}
	}
	if err != nil {
		s.Logger(ctx).Warn("announcing a round", "tournament", t.ID, "err", err)
	}
}

// postStandings shows the standings in the tournament's channel: edited in
// place after the first.
func (s *Service) postStandings(ctx context.Context, t *tournament.Tournament) error {
	pub := s.PublicPrinter(ctx, t.GuildID)
	msg, err := s.standingsMessage(ctx, pub, t)
	if err != nil {
		return err
	}
	text := t.StandingsMessageID + "\x00" + msg.Embed.Title + "\x00" + msg.Embed.Description + "\x00" + msg.Embed.Footer
	if t.StandingsMessageID != "" && !s.tournaments.changedSince(t.ID, text) {
		return nil
	}
	if t.StandingsMessageID != "" {
		if err := s.Edit(ctx, t.ChannelID, t.StandingsMessageID, msg); err == nil {
			return nil
		}
	}
	id, err := s.Send(ctx, t.ChannelID, msg)
	if err != nil {
		s.Logger(ctx).Warn("posting a tournament's standings", "tournament", t.ID, "err", err)
		return nil
	}
	t.StandingsMessageID = id
	s.tournaments.changedSince(t.ID, id+"\x00"+msg.Embed.Title+"\x00"+msg.Embed.Description+"\x00"+msg.Embed.Footer)
	return s.store.UpdateTournament(ctx, t)
}

// finishTournament ends a tournament whose games are all played: the
// podium in its channel, the full standings attached.
func (s *Service) finishTournament(ctx context.Context, t *tournament.Tournament, entrants []tournament.Entrant, pairings []tournament.Pairing) error {
	t.Status, t.FinishedAt = tournament.Finished, s.Now()
	if err := s.store.UpdateTournament(ctx, t); err != nil {
		return err
	}
	s.Logger(ctx).Info("tournament finished", "tournament", t.ID, "rounds", t.Round)
	s.eventStatus(ctx, t, bot.EventCompleted)
	pub := s.PublicPrinter(ctx, t.GuildID)
	if err := s.postStandings(ctx, t); err != nil {
		s.Logger(ctx).Warn("final standings", "tournament", t.ID, "err", err)
	}
	rows := tournament.Standings(t.Format, entrants, tournament.Games(pairings))
	lines := []string{pub.T("tournament.podium_title", "ID", t.ID, "Name", bot.Escape(t.Name))}
	medals := []string{"🥇", "🥈", "🥉"}
	var ids []string
	for _, r := range rows {
		if r.Rank > 3 || r.Withdrawn {
			continue
		}
		lines = append(lines, pub.T("tournament.podium_line", "Medal", medals[r.Rank-1], "Player", bot.Mention(r.ID), "Points", gametext.Points(r.Points)))
		ids = append(ids, r.ID)
	}
	if url := s.tournamentURL(t); url != "" {
		lines = append(lines, pub.T("tournament.page", "URL", url))
	}
	table := pub.T("tournament.standings_title", "ID", t.ID, "Name", t.Name) + "\n\n" + standingsTable(pub, t.Format, rows) + "\n"
	msg := bot.Message{Content: bot.JoinLines(lines, bot.MaxContent), Mentions: ids,
		Files: []bot.File{{Name: fmt.Sprintf("tournament-%d.txt", t.ID), Data: []byte(table)}}}
	if _, err := s.Send(ctx, t.ChannelID, msg); err != nil {
		s.Logger(ctx).Warn("posting a tournament's podium", "tournament", t.ID, "err", err)
	}
	s.editSignup(ctx, t)
	return nil
}

// ChannelDeleted cancels the tournaments of a deleted channel
// and ends their games under way, whose threads went with it: nothing is
// left waiting on a channel nobody can see.
func (s *Service) ChannelDeleted(ctx context.Context, channelID string) {
	open, err := s.store.OpenTournaments(ctx, channelID)
	if err != nil {
		s.Logger(ctx).Error("channel deleted: its tournaments", "channel", channelID, "err", err)
		return
	}
	for _, t := range open {
		var games []int64
		func() {
			unlock := s.tournaments.lock(t.ID)
			defer unlock()
			t, err := s.store.Tournament(ctx, t.ID)
			ending := bot.EventCompleted
			if err == nil && t.Status == tournament.SignUp {
				ending = bot.EventCanceled
			}
			if err == nil && t.Status.Open() {
				t.Status, t.FinishedAt = tournament.Canceled, s.Now()
				err = s.store.UpdateTournament(ctx, t)
			}
			if err != nil {
				s.Logger(ctx).Error("channel deleted: canceling its tournament", "tournament", t.ID, "err", err)
				return
			}
			s.Logger(ctx).Info("tournament canceled: its channel was deleted", "tournament", t.ID, "channel", channelID)
			s.eventStatus(ctx, t, ending)
			pairings, err := s.store.Pairings(ctx, t.ID)
			if err != nil {
				s.Logger(ctx).Error("channel deleted: its tournament's games", "tournament", t.ID, "err", err)
				return
			}
			for _, p := range pairings {
				if p.GameID != 0 && !p.Done() {
					games = append(games, p.GameID)
				}
			}
		}()
		for _, id := range games {
			if g, err := s.store.Game(ctx, id); err == nil && g.Status == record.Active && g.ChannelID != channelID {
				s.ChannelDeleted(ctx, g.ChannelID)
			}
		}
	}
}

// PermCreateEvents is Discord's Create Events permission.
const PermCreateEvents int64 = 1 << 44

// scheduleEvent lists a tournament that starts later among the server's
// events, where the transport can and the bot may; it returns the event's
// id, "" for none. A failure only costs the listing.
func (s *Service) scheduleEvent(ctx context.Context, req bot.Request, t *tournament.Tournament) string {
	es, ok := s.Notifier().(bot.EventScheduler)
	if !ok || !req.PermissionsKnown || req.AppPermissions&(PermManageEvents|PermCreateEvents) == 0 ||
		!t.StartsAt.After(s.Now().Add(time.Minute)) {
		return ""
	}
	pub := req.Pub()
	location := s.tournamentURL(t)
	if location == "" {
		location = pub.T("tournament.event_location")
	}
	e := bot.ScheduledEvent{Name: bot.Clip(t.Name, 100), Location: bot.Clip(location, 100), Start: t.StartsAt, End: t.StartsAt.Add(expectedLength(t)),
		Description: bot.Clip(pub.T("tournament.event_description", "ID", t.ID, "Format", formatLine(pub, t),
			"Control", bot.ControlName(pub, t.Control)), 1000)}
	id, err := es.ScheduleEvent(ctx, t.GuildID, e)
	if err != nil {
		s.Logger(ctx).Warn("listing a tournament among the server's events", "tournament", t.ID, "err", err)
		return ""
	}
	return id
}

// expectedLength is about how long a tournament runs: an arena its
// duration; a round a game with both clocks used up (about 30 moves each
// on a correspondence clock) and a few minutes between rounds.
func expectedLength(t *tournament.Tournament) time.Duration {
	if t.Format == tournament.Arena {
		return t.Duration
	}
	rounds := t.Rounds
	if t.Format == tournament.RoundRobin {
		rounds = 7 // the table's length is known at the start only
	}
	game := 2 * (t.Control.Base + 30*t.Control.Increment + 30*t.Control.PerMove)
	return time.Duration(max(rounds, 1)) * (game + 5*time.Minute)
}

// eventStatus moves a tournament's scheduled event on, if it has one.
func (s *Service) eventStatus(ctx context.Context, t *tournament.Tournament, status bot.EventStatus) {
	es, ok := s.Notifier().(bot.EventScheduler)
	if !ok || t.EventID == "" {
		return
	}
	if err := es.SetEventStatus(ctx, t.GuildID, t.EventID, status); err != nil {
		s.Logger(ctx).Warn("updating a tournament's scheduled event", "tournament", t.ID, "event", t.EventID, "err", err)
	}
}
