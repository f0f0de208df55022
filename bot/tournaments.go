package bot

// This file is the flow of tournaments: /tournament's subcommands, the
// sign-up buttons, and the step that moves a running tournament on (pair
// the next round, open its games in threads, post the standings, finish
// with a podium). The rules are package tournament's; that each thing
// happens once, whoever tries, is the store's.

import (
	"context"
	"errors"
	"fmt"
	"othello-bot/place"
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
	maxTournamentName = 50
	maxSwissRounds    = 15
	minArenaMinutes   = 5
	maxArenaMinutes   = 240
	// tournamentReminder is how long before its start a tournament pings
	// its entrants.
	tournamentReminder = 10 * time.Minute
)

// tournamentControl is a tournament's clock when its organiser names none.
var tournamentControl = timecontrol.Control{Base: 5 * time.Minute, Increment: 3 * time.Second}

func tournamentID() OptionSpec {
	return OptionSpec{Name: "id", Kind: IntegerOption, Min: 1, Max: 1 << 30}
}

func reasonOption() OptionSpec {
	return OptionSpec{Name: "reason", Kind: StringOption, MaxLength: maxAbortReason}
}

var tournamentCommand = CommandSpec{Name: "tournament", Need: place.BotMember, Subcommands: []CommandSpec{
	{Name: "create", Private: true, handle: (*Service).tournamentCreate, Options: []OptionSpec{
		{Name: "format", Kind: StringOption, Required: true, Choices: []OptionChoice{
			choice("choice.format.swiss", "swiss"), choice("choice.format.roundrobin", "roundrobin"), choice("choice.format.arena", "arena")}},
		{Name: "name", Kind: StringOption, MaxLength: maxTournamentName},
		{Name: "start", Kind: StringOption, MaxLength: 32},
		timeOption,
		sizeOption(),
		{Name: "rated", Kind: BooleanOption},
		{Name: "rounds", Kind: IntegerOption, Min: 1, Max: maxSwissRounds},
		{Name: "double", Kind: BooleanOption},
		{Name: "minutes", Kind: IntegerOption, Min: minArenaMinutes, Max: maxArenaMinutes},
	}},
	{Name: "join", Private: true, handle: (*Service).tournamentJoin, Options: []OptionSpec{tournamentID()}},
	{Name: "leave", Private: true, handle: (*Service).tournamentLeave, Options: []OptionSpec{tournamentID()}},
	{Name: "show", Private: true, handle: (*Service).tournamentShow, Options: []OptionSpec{tournamentID()}},
	{Name: "start", Private: true, handle: (*Service).tournamentStart, Options: []OptionSpec{tournamentID()}},
	{Name: "pause", Private: true, handle: (*Service).tournamentPause, Options: []OptionSpec{tournamentID(), reasonOption()}},
	{Name: "cancel", Private: true, handle: (*Service).tournamentCancel, Options: []OptionSpec{tournamentID(), reasonOption()}},
	{Name: "kick", Private: true, handle: (*Service).tournamentKick, Options: []OptionSpec{
		{Name: "user", Kind: UserOption, Required: true}, tournamentID(), reasonOption()}},
}}

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
func (s *Service) findTournament(ctx context.Context, req Request) (*tournament.Tournament, *Response, error) {
	me := req.me()
	if v := strings.TrimSpace(req.Options["id"]); v != "" {
		id, err := strconv.ParseInt(v, 10, 64)
		if err != nil || id <= 0 {
			r := refuse(me.T("tournament.not_found", "ID", game.QuoteInput(v)))
			return nil, &r, nil
		}
		t, err := s.store.Tournament(ctx, id)
		if errors.Is(err, record.ErrNotFound) || err == nil && t.GuildID != req.GuildID {
			r := refuse(me.T("tournament.not_found", "ID", id))
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
		r := refuse(me.T("tournament.none_here"))
		return nil, &r, nil
	}
	return open[0], nil, nil
}

// mayRun says whether the user may start, pause, cancel or kick in a
// tournament: its organiser, or a moderator of its channel.
func mayRun(req Request, t *tournament.Tournament) bool {
	return req.User.ID == t.OrganiserID || req.MemberPermissions&(PermManageMessages|PermManageEvents|PermManageGuild) != 0
}

func (s *Service) tournamentCreate(ctx context.Context, req Request) (Response, error) {
	me := req.me()
	if req.GuildID == "" {
		return refuse(me.T("tournament.server_only")), nil
	}
	if req.MemberPermissions&(PermManageEvents|PermManageGuild) == 0 && !s.hasTournamentRole(req) {
		return refuse(me.T("tournament.create_not_allowed")), nil
	}
	format, err := tournament.ParseFormat(strings.TrimSpace(req.Options["format"]))
	if err != nil {
		return refuse(me.T("tournament.bad_format")), nil
	}
	now := s.clock.Now()
	startsAt, err := tournament.ParseStart(req.Options["start"], now)
	if err != nil {
		return refuse(startError(me, req.Options["start"], err)), nil
	}
	control := tournamentControl
	if strings.TrimSpace(req.Options["time"]) != "" {
		var refusal *Response
		if control, refusal = s.timeOption(req, false); refusal != nil {
			return *refusal, nil
		}
	}
	if format == tournament.Arena && !control.Live() {
		return refuse(me.T("tournament.arena_live")), nil
	}
	size, err := intOption(req, "size", s.cfg.DefaultSize)
	if err != nil || !game.ValidSize(size) {
		return refuse(me.T("start.bad_size")), nil
	}
	rated, double := true, false
	for name, dst := range map[string]*bool{"rated": &rated, "double": &double} {
		if v := strings.TrimSpace(req.Options[name]); v != "" {
			if *dst, err = strconv.ParseBool(v); err != nil {
				return refuse(me.T("tournament.bad_option", "Option", name)), nil
			}
		}
	}
	rounds, err := intOption(req, "rounds", 5)
	if err != nil || rounds < 1 || rounds > maxSwissRounds {
		return refuse(me.T("tournament.bad_rounds", "Max", maxSwissRounds)), nil
	}
	minutes, err := intOption(req, "minutes", 60)
	if err != nil || minutes < minArenaMinutes || minutes > maxArenaMinutes {
		return refuse(me.T("tournament.bad_minutes", "Min", minArenaMinutes, "Max", maxArenaMinutes)), nil
	}
	if !s.threadsHere(req) {
		return refuse(me.T("tournament.needs_threads")), nil
	}
	if missing := s.missingPermission(req, size, record.StyleEmoji); missing != "" {
		return refuse(me.T("challenge.no_permission", "Permission", me.T(missing))), nil
	}
	pub := req.pub()
	title := strings.TrimSpace(req.Options["name"])
	if title == "" {
		title = pub.T("tournament.default_name", "Format", pub.T("choice.format."+string(format)))
	}
	t := &tournament.Tournament{GuildID: req.GuildID, ChannelID: req.ChannelID, Name: clip(title, maxTournamentName),
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
		return Response{}, err
	}
	id, err := s.send(ctx, t.ChannelID, s.signupMessage(pub, t, nil))
	if err != nil {
		t.Status = tournament.Canceled
		if uerr := s.store.UpdateTournament(ctx, t); uerr != nil {
			err = errors.Join(err, uerr)
		}
		return Response{}, fmt.Errorf("posting tournament %d: %w", t.ID, err)
	}
	t.SignupMessageID = id
	t.EventID = s.scheduleEvent(ctx, req, t)
	if err := s.store.UpdateTournament(ctx, t); err != nil {
		return Response{}, err
	}
	s.logger(ctx).Info("tournament created", "tournament", t.ID, "format", string(t.Format), "organiser", req.User.ID,
		"starts", t.StartsAt, "time", t.Control.String())
	return refuse(me.T("tournament.created", "ID", t.ID, "Name", escape(t.Name))), nil
}

// hasTournamentRole reports whether the user has a role the config lets
// create tournaments.
func (s *Service) hasTournamentRole(req Request) bool {
	for _, r := range req.Roles {
		if slices.Contains(s.cfg.TournamentRoles, r) {
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

func (s *Service) tournamentJoin(ctx context.Context, req Request) (Response, error) {
	t, refusal, err := s.findTournament(ctx, req)
	if refusal != nil || err != nil {
		return deref(refusal), err
	}
	return s.join(ctx, req, t, false)
}

func (s *Service) tournamentLeave(ctx context.Context, req Request) (Response, error) {
	t, refusal, err := s.findTournament(ctx, req)
	if refusal != nil || err != nil {
		return deref(refusal), err
	}
	return s.leave(ctx, req, t, false)
}

// tournamentButton is a press of Join or Leave on a sign-up message.
func (s *Service) tournamentButton(ctx context.Context, req Request, action, args string) (Response, error) {
	id, err := strconv.ParseInt(args, 10, 64)
	if err != nil {
		return refuse(req.me().T("error.button_broken")), nil
	}
	t, err := s.store.Tournament(ctx, id)
	if errors.Is(err, record.ErrNotFound) || err == nil && t.ChannelID != req.ChannelID {
		return refuse(req.me().T("error.button_broken")), nil
	}
	if err != nil {
		return Response{}, err
	}
	if action == "tjoin" {
		return s.join(ctx, req, t, true)
	}
	return s.leave(ctx, req, t, true)
}

func (s *Service) join(ctx context.Context, req Request, t *tournament.Tournament, button bool) (Response, error) {
	me := req.me()
	unlock := s.tournaments.lock(t.ID)
	defer unlock()
	now := s.clock.Now()
	if !entriesOpen(t, now) {
		return refuse(me.T("tournament.entries_closed", "ID", t.ID)), nil
	}
	rating := 1500.0
	scope := record.SpeedScope(t.GuildID, t.Control.Category())
	switch st, err := s.store.Standing(ctx, req.User.ID, scope, growth(now)); {
	case err == nil:
		rating = st.Rating.Rating
	case !errors.Is(err, record.ErrNotFound):
		return Response{}, err
	}
	entrants, err := s.store.Entrants(ctx, t.ID)
	if err != nil {
		return Response{}, err
	}
	if len(entrants) >= tournament.MaxEntrants {
		return refuse(me.T("tournament.full", "ID", t.ID, "Count", tournament.MaxEntrants)), nil
	}
	switch err := s.store.JoinTournament(ctx, t.ID, req.User, rating, now); {
	case errors.Is(err, tournament.ErrAlreadyEntered):
		return refuse(me.T("tournament.already_in", "ID", t.ID)), nil
	case err != nil:
		return Response{}, err
	}
	s.logger(ctx).Info("tournament joined", "tournament", t.ID, "player", req.User.ID)
	resp := refuse(me.T("tournament.joined", "ID", t.ID, "Name", escape(t.Name), "When", startsText(me, t)))
	if t.Status != tournament.SignUp {
		resp = refuse(me.T("tournament.joined_late", "ID", t.ID, "Name", escape(t.Name)))
	}
	return s.refreshSignup(ctx, req, t, button, resp)
}

func (s *Service) leave(ctx context.Context, req Request, t *tournament.Tournament, button bool) (Response, error) {
	me := req.me()
	unlock := s.tournaments.lock(t.ID)
	defer unlock()
	if !t.Status.Open() {
		return refuse(me.T("tournament.over", "ID", t.ID)), nil
	}
	ok, err := s.withdraw(ctx, t, req.User.ID)
	if err != nil {
		return Response{}, err
	}
	if !ok {
		return refuse(me.T("tournament.not_in", "ID", t.ID)), nil
	}
	s.logger(ctx).Info("tournament left", "tournament", t.ID, "player", req.User.ID, "started", t.Status != tournament.SignUp)
	if t.Status == tournament.Running {
		if err := s.step(ctx, t); err != nil {
			return Response{}, err
		}
	}
	resp := refuse(me.T("tournament.left", "ID", t.ID))
	if t.Status != tournament.SignUp {
		resp = refuse(me.T("tournament.withdrawn", "ID", t.ID))
	}
	return s.refreshSignup(ctx, req, t, button, resp)
}

// withdraw takes a player out of a tournament: before the start their
// entry goes; after it their game in progress is lost (as a resignation)
// and every pairing of theirs not yet played is forfeited.
func (s *Service) withdraw(ctx context.Context, t *tournament.Tournament, playerID string) (bool, error) {
	ctx = holding(ctx, t.ID) // the caller holds the lock and steps after
	now := s.clock.Now()
	started := t.Status != tournament.SignUp
	ok, err := s.store.LeaveTournament(ctx, t.ID, playerID, started, now)
	if err != nil || !ok || !started {
		return ok, err
	}
	pairings, err := s.store.Pairings(ctx, t.ID)
	if err != nil {
		return true, err
	}
	pub := s.publicPrinter(ctx, t.GuildID)
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
		note, err := s.finishAgainst(ctx, pub, g, record.EndResign, loser, now)
		if errors.Is(err, record.ErrStale) || errors.Is(err, record.ErrNotActive) {
			continue // it ended meanwhile
		}
		if err != nil {
			return true, err
		}
		s.showFinal(ctx, g, *s.gameMessage(pub, g, []string{pub.T("tournament.game_withdrawn", "Name", escape(nameIn(t, playerID, g))), note}))
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
func (s *Service) refreshSignup(ctx context.Context, req Request, t *tournament.Tournament, button bool, resp Response) (Response, error) {
	entrants, err := s.store.Entrants(ctx, t.ID)
	if err != nil {
		return Response{}, err
	}
	msg := s.signupMessage(req.pub(), t, entrants)
	if button {
		return Response{Update: true, Message: &msg, Followups: []Message{*resp.Message}}, nil
	}
	if t.SignupMessageID != "" {
		if err := s.notify.Edit(ctx, t.ChannelID, t.SignupMessageID, msg); err != nil {
			s.logger(ctx).Warn("editing a tournament's sign-up", "tournament", t.ID, "err", err)
		}
	}
	return resp, nil
}

func (s *Service) tournamentShow(ctx context.Context, req Request) (Response, error) {
	t, refusal, err := s.findTournament(ctx, req)
	if refusal != nil || err != nil {
		return deref(refusal), err
	}
	msg, err := s.standingsMessage(ctx, req.me(), t)
	if err != nil {
		return Response{}, err
	}
	msg.Ephemeral = true
	resp := Response{Message: &msg}
	if t.Round > 0 && t.Format != tournament.Arena {
		round, err := s.roundMessages(ctx, req.me(), t, t.Round)
		if err != nil {
			return Response{}, err
		}
		for _, m := range round {
			m.Ephemeral = true
			resp.Followups = append(resp.Followups, m)
		}
	}
	return resp, nil
}

func (s *Service) tournamentStart(ctx context.Context, req Request) (Response, error) {
	me := req.me()
	return s.organiserAction(ctx, req, func(t *tournament.Tournament, _ string) (string, error) {
		switch t.Status {
		case tournament.SignUp:
			ok, err := s.begin(ctx, t)
			if err != nil || !ok {
				return me.T("tournament.too_few", "ID", t.ID), err
			}
			s.logger(ctx).Info("tournament started by hand", "tournament", t.ID, "by", req.User.ID)
		case tournament.Paused:
			t.Status = tournament.Running
			if err := s.store.UpdateTournament(ctx, t); err != nil {
				return "", err
			}
			s.logger(ctx).Info("tournament resumed", "tournament", t.ID, "by", req.User.ID)
			s.announce(ctx, t, s.publicPrinter(ctx, t.GuildID).T("tournament.resumed", "ID", t.ID))
			return "", s.step(ctx, t)
		default:
			return me.T("tournament.already_running", "ID", t.ID), nil
		}
		return "", nil
	})
}

func (s *Service) tournamentPause(ctx context.Context, req Request) (Response, error) {
	return s.organiserAction(ctx, req, func(t *tournament.Tournament, reason string) (string, error) {
		if t.Status != tournament.Running {
			return req.me().T("tournament.not_running", "ID", t.ID), nil
		}
		t.Status = tournament.Paused
		if err := s.store.UpdateTournament(ctx, t); err != nil {
			return "", err
		}
		s.logger(ctx).Info("tournament paused", "tournament", t.ID, "by", req.User.ID, "reason", reason)
		pub := s.publicPrinter(ctx, t.GuildID)
		s.announce(ctx, t, pub.T("tournament.paused", "ID", t.ID, "Reason", reasonText(pub, reason)))
		return "", nil
	})
}

func (s *Service) tournamentCancel(ctx context.Context, req Request) (Response, error) {
	return s.organiserAction(ctx, req, func(t *tournament.Tournament, reason string) (string, error) {
		if !t.Status.Open() {
			return req.me().T("tournament.over", "ID", t.ID), nil
		}
		// An event under way can only be completed, one not begun canceled.
		ending := EventCompleted
		if t.Status == tournament.SignUp {
			ending = EventCanceled
		}
		t.Status, t.FinishedAt = tournament.Canceled, s.clock.Now()
		if err := s.store.UpdateTournament(ctx, t); err != nil {
			return "", err
		}
		s.logger(ctx).Info("tournament canceled", "tournament", t.ID, "by", req.User.ID, "reason", reason)
		s.eventStatus(ctx, t, ending)
		pub := s.publicPrinter(ctx, t.GuildID)
		s.announce(ctx, t, pub.T("tournament.canceled", "ID", t.ID, "Reason", reasonText(pub, reason)))
		s.editSignup(ctx, t)
		return "", nil
	})
}

func (s *Service) tournamentKick(ctx context.Context, req Request) (Response, error) {
	who := strings.TrimSpace(req.Options["user"])
	return s.organiserAction(ctx, req, func(t *tournament.Tournament, reason string) (string, error) {
		if !t.Status.Open() {
			return req.me().T("tournament.over", "ID", t.ID), nil
		}
		ok, err := s.withdraw(ctx, t, who)
		if err != nil {
			return "", err
		}
		if !ok {
			return req.me().T("tournament.kick_not_in", "ID", t.ID), nil
		}
		s.logger(ctx).Info("tournament kick", "tournament", t.ID, "player", who, "by", req.User.ID, "reason", reason)
		pub := s.publicPrinter(ctx, t.GuildID)
		s.announce(ctx, t, pub.T("tournament.kicked", "ID", t.ID, "Player", mention(who), "Reason", reasonText(pub, reason)))
		s.editSignup(ctx, t)
		if t.Status == tournament.Running {
			return "", s.step(ctx, t)
		}
		return "", nil
	})
}

// organiserAction runs a control of the organiser's (or a moderator's) on
// the tournament asked for; act returns a refusal, or "" when done.
func (s *Service) organiserAction(ctx context.Context, req Request, act func(*tournament.Tournament, string) (string, error)) (Response, error) {
	t, refusal, err := s.findTournament(ctx, req)
	if refusal != nil || err != nil {
		return deref(refusal), err
	}
	me := req.me()
	if !mayRun(req, t) {
		return refuse(me.T("tournament.organiser_only")), nil
	}
	unlock := s.tournaments.lock(t.ID)
	defer unlock()
	if t, err = s.store.Tournament(ctx, t.ID); err != nil {
		return Response{}, err
	}
	no, err := act(t, strings.TrimSpace(req.Options["reason"]))
	if errors.Is(err, record.ErrStale) {
		return refuse(me.T("tournament.changed")), nil
	}
	if err != nil {
		return Response{}, err
	}
	if no != "" {
		return refuse(no), nil
	}
	return refuse(me.T("tournament.done", "ID", t.ID)), nil
}

// reasonText is an organiser's reason as the announcement quotes it, ""
// for none.
func reasonText(t *catalog.Printer, reason string) string {
	if reason == "" {
		return ""
	}
	return t.T("tournament.reason", "Reason", escape(reason))
}

// announce posts a line about a tournament in its channel.
func (s *Service) announce(ctx context.Context, t *tournament.Tournament, text string) {
	if _, err := s.send(ctx, t.ChannelID, Message{Content: text}); err != nil {
		s.logger(ctx).Warn("announcing in a tournament's channel", "tournament", t.ID, "err", err)
	}
}

// editSignup shows the sign-up message as the tournament now stands.
func (s *Service) editSignup(ctx context.Context, t *tournament.Tournament) {
	if t.SignupMessageID == "" {
		return
	}
	entrants, err := s.store.Entrants(ctx, t.ID)
	if err != nil {
		s.logger(ctx).Warn("reading a tournament's entrants", "tournament", t.ID, "err", err)
		return
	}
	if err := s.notify.Edit(ctx, t.ChannelID, t.SignupMessageID, s.signupMessage(s.publicPrinter(ctx, t.GuildID), t, entrants)); err != nil {
		s.logger(ctx).Warn("editing a tournament's sign-up", "tournament", t.ID, "err", err)
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
	now := s.clock.Now()
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
	s.logger(ctx).Info("tournament started", "tournament", t.ID, "players", len(entrants), "rounds", t.Rounds)
	s.eventStatus(ctx, t, EventActive)
	pub := s.publicPrinter(ctx, t.GuildID)
	s.announce(ctx, t, pub.T("tournament.started", "ID", t.ID, "Name", escape(t.Name), "Count", len(entrants)))
	s.editSignup(ctx, t)
	return true, s.step(ctx, t)
}

// tickTournaments moves every open tournament on: reminders before the
// start, the start itself, and a step for running ones (which picks up
// whatever a stopped process left half done).
func (s *Service) tickTournaments(ctx context.Context, now time.Time) {
	open, err := s.store.OpenTournaments(ctx, "")
	if err != nil {
		s.logger(ctx).Error("tick: tournaments", "err", err)
		return
	}
	for _, t := range open {
		func() {
			unlock := s.tournaments.lock(t.ID)
			defer unlock()
			t, err := s.store.Tournament(ctx, t.ID) // as of now, under the lock
			if err != nil {
				s.logger(ctx).Error("tick: tournament", "tournament", t.ID, "err", err)
				return
			}
			if err := s.tickTournament(ctx, t, now); err != nil && !errors.Is(err, record.ErrStale) {
				s.logger(ctx).Error("tick: tournament", "tournament", t.ID, "err", err)
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
			s.logger(ctx).Info("tournament canceled: too few players", "tournament", t.ID)
			s.eventStatus(ctx, t, EventCanceled)
			s.announce(ctx, t, s.publicPrinter(ctx, t.GuildID).T("tournament.canceled_too_few", "ID", t.ID))
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
				pings = append(pings, mention(e.ID))
			}
			if len(ids) > 0 {
				pub := s.publicPrinter(ctx, t.GuildID)
				text := strings.Join(pings, " ") + " " + pub.T("tournament.reminder", "ID", t.ID, "Name", escape(t.Name),
					"When", stamp(t.StartsAt, stampRelative))
				if _, err := s.send(ctx, t.ChannelID, Message{Content: text, Mentions: ids}); err != nil {
					s.logger(ctx).Warn("reminding a tournament's entrants", "tournament", t.ID, "err", err)
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
		s.logger(ctx).Error("moving a tournament on", "tournament", id, "err", err)
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
	step, err := tournament.Next(t, entrants, pairings, s.clock.Now())
	if err != nil {
		return err
	}
	switch step.Kind {
	case tournament.Wait:
		return s.postStandings(ctx, t)
	case tournament.FinishEarly:
		// Withdrawals left too few, or too many rounds for those left:
		// the tournament ends after the rounds played.
		s.logger(ctx).Info("tournament ends early: no pairing", "tournament", t.ID, "round", t.Round+1, "err", step.Err)
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
	s.logger(ctx).Info("tournament paired", "tournament", t.ID, "round", t.Round, "pairings", len(next))
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
	pub := s.publicPrinter(ctx, t.GuildID)
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
	now := s.clock.Now()
	g := &record.Game{GuildID: t.GuildID, ChannelID: t.ChannelID, Rated: t.Rated, State: game.NewGame(start),
		Black: record.Human(record.Player{ID: black.ID, Name: black.Name}), White: record.Human(record.Player{ID: white.ID, Name: white.Name}),
		CreatedAt: now, UpdatedAt: now, Control: t.Control, TournamentID: t.ID}
	s.startClocks(g, now)
	if err := s.openThread(ctx, pub, t.ChannelID, g); err != nil {
		return false, fmt.Errorf("a thread for tournament %d round %d: %w", t.ID, p.Round, err)
	}
	switch err := s.store.OpenPairingGame(ctx, t.ID, p.Round, p.Board, g); {
	case errors.Is(err, tournament.ErrAlreadyPaired):
		s.dropThread(ctx, g)
		return false, nil
	case err != nil:
		s.dropThread(ctx, g)
		return false, err
	}
	s.arm(g)
	note := pub.T("tournament.game_note", "ID", t.ID, "Name", escape(t.Name), "Round", p.Round)
	if t.Format == tournament.Arena {
		note = pub.T("tournament.game_note_arena", "ID", t.ID, "Name", escape(t.Name))
	}
	if _, err := s.send(ctx, g.ChannelID, *s.gameMessage(pub, g, []string{note})); err != nil {
		s.logger(ctx).Warn("posting a tournament game", "game", g.ID, "err", err)
	}
	welcome := Message{Content: pub.T("challenge.welcome", "First", mention(black.ID), "ID", g.ID, "Other", mention(white.ID)),
		Mentions: []string{black.ID, white.ID}}
	if _, err := s.send(ctx, g.ChannelID, welcome); err != nil {
		s.logger(ctx).Warn("pinging players into a tournament game", "game", g.ID, "err", err)
	}
	s.logger(ctx).Info("tournament game", "tournament", t.ID, "round", p.Round, "game", g.ID, "thread", g.ChannelID)
	return true, nil
}

// announceRound posts a round's pairings in the tournament's channel.
func (s *Service) announceRound(ctx context.Context, t *tournament.Tournament, round int) {
	msgs, err := s.roundMessages(ctx, s.publicPrinter(ctx, t.GuildID), t, round)
	for _, m := range msgs {
		if err == nil {
			_, err = s.send(ctx, t.ChannelID, m)
		}
	}
	if err != nil {
		s.logger(ctx).Warn("announcing a round", "tournament", t.ID, "err", err)
	}
}

// postStandings shows the standings in the tournament's channel: edited in
// place after the first.
func (s *Service) postStandings(ctx context.Context, t *tournament.Tournament) error {
	pub := s.publicPrinter(ctx, t.GuildID)
	msg, err := s.standingsMessage(ctx, pub, t)
	if err != nil {
		return err
	}
	text := t.StandingsMessageID + "\x00" + msg.Embed.Title + "\x00" + msg.Embed.Description + "\x00" + msg.Embed.Footer
	if t.StandingsMessageID != "" && !s.tournaments.changedSince(t.ID, text) {
		return nil
	}
	if t.StandingsMessageID != "" {
		if err := s.notify.Edit(ctx, t.ChannelID, t.StandingsMessageID, msg); err == nil {
			return nil
		}
	}
	id, err := s.send(ctx, t.ChannelID, msg)
	if err != nil {
		s.logger(ctx).Warn("posting a tournament's standings", "tournament", t.ID, "err", err)
		return nil
	}
	t.StandingsMessageID = id
	s.tournaments.changedSince(t.ID, id+"\x00"+msg.Embed.Title+"\x00"+msg.Embed.Description+"\x00"+msg.Embed.Footer)
	return s.store.UpdateTournament(ctx, t)
}

// finishTournament ends a tournament whose games are all played: the
// podium in its channel, the full standings attached.
func (s *Service) finishTournament(ctx context.Context, t *tournament.Tournament, entrants []tournament.Entrant, pairings []tournament.Pairing) error {
	t.Status, t.FinishedAt = tournament.Finished, s.clock.Now()
	if err := s.store.UpdateTournament(ctx, t); err != nil {
		return err
	}
	s.logger(ctx).Info("tournament finished", "tournament", t.ID, "rounds", t.Round)
	s.eventStatus(ctx, t, EventCompleted)
	pub := s.publicPrinter(ctx, t.GuildID)
	if err := s.postStandings(ctx, t); err != nil {
		s.logger(ctx).Warn("final standings", "tournament", t.ID, "err", err)
	}
	rows := tournament.Standings(t.Format, entrants, tournament.Games(pairings))
	lines := []string{pub.T("tournament.podium_title", "ID", t.ID, "Name", escape(t.Name))}
	medals := []string{"🥇", "🥈", "🥉"}
	var ids []string
	for _, r := range rows {
		if r.Rank > 3 || r.Withdrawn {
			continue
		}
		lines = append(lines, pub.T("tournament.podium_line", "Medal", medals[r.Rank-1], "Player", mention(r.ID), "Points", gametext.Points(r.Points)))
		ids = append(ids, r.ID)
	}
	if url := s.tournamentURL(t); url != "" {
		lines = append(lines, pub.T("tournament.page", "URL", url))
	}
	table := pub.T("tournament.standings_title", "ID", t.ID, "Name", t.Name) + "\n\n" + standingsTable(pub, t.Format, rows) + "\n"
	msg := Message{Content: joinLines(lines, MaxContent), Mentions: ids,
		Files: []File{{Name: fmt.Sprintf("tournament-%d.txt", t.ID), Data: []byte(table)}}}
	if _, err := s.send(ctx, t.ChannelID, msg); err != nil {
		s.logger(ctx).Warn("posting a tournament's podium", "tournament", t.ID, "err", err)
	}
	s.editSignup(ctx, t)
	return nil
}

// tournamentChannelDeleted cancels the tournaments of a deleted channel
// and ends their games under way, whose threads went with it: nothing is
// left waiting on a channel nobody can see.
func (s *Service) tournamentChannelDeleted(ctx context.Context, channelID string) {
	open, err := s.store.OpenTournaments(ctx, channelID)
	if err != nil {
		s.logger(ctx).Error("channel deleted: its tournaments", "channel", channelID, "err", err)
		return
	}
	for _, t := range open {
		var games []int64
		func() {
			unlock := s.tournaments.lock(t.ID)
			defer unlock()
			t, err := s.store.Tournament(ctx, t.ID)
			ending := EventCompleted
			if err == nil && t.Status == tournament.SignUp {
				ending = EventCanceled
			}
			if err == nil && t.Status.Open() {
				t.Status, t.FinishedAt = tournament.Canceled, s.clock.Now()
				err = s.store.UpdateTournament(ctx, t)
			}
			if err != nil {
				s.logger(ctx).Error("channel deleted: canceling its tournament", "tournament", t.ID, "err", err)
				return
			}
			s.logger(ctx).Info("tournament canceled: its channel was deleted", "tournament", t.ID, "channel", channelID)
			s.eventStatus(ctx, t, ending)
			pairings, err := s.store.Pairings(ctx, t.ID)
			if err != nil {
				s.logger(ctx).Error("channel deleted: its tournament's games", "tournament", t.ID, "err", err)
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
func (s *Service) scheduleEvent(ctx context.Context, req Request, t *tournament.Tournament) string {
	es, ok := s.notify.(EventScheduler)
	if !ok || !req.PermissionsKnown || req.AppPermissions&(PermManageEvents|PermCreateEvents) == 0 ||
		!t.StartsAt.After(s.clock.Now().Add(time.Minute)) {
		return ""
	}
	pub := req.pub()
	location := s.tournamentURL(t)
	if location == "" {
		location = pub.T("tournament.event_location")
	}
	e := ScheduledEvent{Name: clip(t.Name, 100), Location: clip(location, 100), Start: t.StartsAt, End: t.StartsAt.Add(expectedLength(t)),
		Description: clip(pub.T("tournament.event_description", "ID", t.ID, "Format", formatLine(pub, t),
			"Control", controlName(pub, t.Control)), 1000)}
	id, err := es.ScheduleEvent(ctx, t.GuildID, e)
	if err != nil {
		s.logger(ctx).Warn("listing a tournament among the server's events", "tournament", t.ID, "err", err)
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
func (s *Service) eventStatus(ctx context.Context, t *tournament.Tournament, status EventStatus) {
	es, ok := s.notify.(EventScheduler)
	if !ok || t.EventID == "" {
		return
	}
	if err := es.SetEventStatus(ctx, t.GuildID, t.EventID, status); err != nil {
		s.logger(ctx).Warn("updating a tournament's scheduled event", "tournament", t.ID, "event", t.EventID, "err", err)
	}
}
