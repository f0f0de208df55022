// Package ranks is rating roles in chat: with /settings roles:on a
// server's members are kept in a role per speed for the band their rating
// falls in (package ranks: every 200 points by default), made by the bot
// as they are first needed and only ever those: after every rated game
// both players move to their new band, and turning it on gives every
// rated member theirs in the background, at the pace Discord allows; titles
// (the last tournament's winners, last month's puzzle leaders) are roles
// kept the same way. The
// bot needs Manage Roles for it, and says so — and says when its own role
// sits too low to give one. It mounts on the core service (package bot)
// as a capability.
package ranks

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"time"

	"othello-bot/bot"
	"othello-bot/catalog"
	"othello-bot/internal/keyed"
	"othello-bot/ranks"
	"othello-bot/record"
	"othello-bot/timecontrol"
)

// Roles are what a transport does with a server's roles.
type Roles interface {
	// CreateRole makes a role and returns its id.
	CreateRole(ctx context.Context, guildID, name string) (string, error)
	// RoleNamed is the id of the server's role of that name, if any.
	RoleNamed(ctx context.Context, guildID, name string) (string, bool, error)
	// AddMemberRole and RemoveMemberRole give and take a role; both fail
	// with bot.ErrForbidden where the bot may not.
	AddMemberRole(ctx context.Context, guildID, userID, roleID string) error
	RemoveMemberRole(ctx context.Context, guildID, userID, roleID string) error
}

// Store keeps the settings and the roles, and gives the ratings.
type Store interface {
	SetRoleStep(ctx context.Context, guildID string, step int, now time.Time) error
	RoleStep(ctx context.Context, guildID string) (int, error)
	RankRoles(ctx context.Context, guildID string) ([]ranks.Role, error)
	SaveRankRole(ctx context.Context, guildID string, r ranks.Role) error
	HeldRanks(ctx context.Context, guildID, playerID string) ([]ranks.Role, error)
	// SetRankHeld records a role given or taken; Giving and Taking before
	// Discord is asked, so Reconcile finishes what a crash cut short.
	SetRankHeld(ctx context.Context, guildID, playerID, roleID string, h ranks.Holding) error
	PendingRanks(ctx context.Context, limit int) ([]ranks.Pending, error)
	RankHolders(ctx context.Context, guildID, roleID string) ([]string, error)
	// SetRolesBackfill records that a server's members are being given
	// their roles (0: done); RolesBackfills lists those not done.
	SetRolesBackfill(ctx context.Context, guildID string, step int, now time.Time) error
	RolesBackfills(ctx context.Context) (map[string]int, error)
	Rating(ctx context.Context, playerID, scope string) (record.Rating, error)
	Leaderboard(ctx context.Context, scope string, growth record.DeviationGrowth, limit int) ([]record.Standing, error)
}

// Core is what rating roles need of the shared flow: *bot.Service.
type Core interface {
	Now() time.Time
	Logger(ctx context.Context) *slog.Logger
	PublicPrinter(ctx context.Context, guildID string) *catalog.Printer
	Background() context.Context
}

// PermManageRoles is the permission rating roles need.
const PermManageRoles int64 = 1 << 28

// maxMembers bounds the members given roles when rating roles are
// turned on, per speed.
const maxMembers = 10000

// Service keeps a server's members in their rating roles.
type Service struct {
	Core
	store Store
	roles Roles // nil: this transport has no roles

	change   keyed.Mutex // one change of a server's roles at a time
	mu       sync.Mutex  // the state below
	problems map[string]string
	backfill map[string]*progress
	// reconciled is when Reconcile last began; reconciling while it runs.
	reconciled  time.Time
	reconciling bool
	wg          sync.WaitGroup
}

type progress struct{ done, total int }

// New returns the capability; roles may be nil where the transport has
// none (the settings say so).
func New(core Core, store Store, roles Roles) *Service {
	return &Service{Core: core, store: store, roles: roles, problems: map[string]string{}, backfill: map[string]*progress{}}
}

// Routes: none of its own; /settings roles: reaches it as a section.
func (s *Service) Routes() map[string]bot.Handler { return nil }

// Wait waits until no server's members are being given their roles.
func (s *Service) Wait() { s.wg.Wait() }

// Drain is Wait, for shutdown (the work stops with the core's context).
func (s *Service) Drain() { s.wg.Wait() }

// GameEnded moves both players of a rated game to their new bands.
func (s *Service) GameEnded(ctx context.Context, g *record.Game) {
	if !g.Rated || g.GuildID == "" || s.roles == nil {
		return
	}
	step, err := s.store.RoleStep(ctx, g.GuildID)
	if err != nil || step == 0 {
		return
	}
	speed := g.Control.Category()
	for _, side := range []record.Side{g.Black, g.White} {
		if side.IsBot() {
			continue
		}
		if err := s.update(ctx, g.GuildID, side.Player.ID, speed, step); err != nil && !errors.Is(err, bot.ErrLimitReached) {
			s.Logger(ctx).Warn("rating roles: after a game", "game", g.ID, "player", side.Player.ID, "err", err)
		}
	}
}

// update puts a member in the band role of their rating in a speed.
func (s *Service) update(ctx context.Context, guildID, playerID string, speed timecontrol.Category, step int) error {
	r, err := s.store.Rating(ctx, playerID, record.SpeedScope(guildID, speed))
	if errors.Is(err, record.ErrNotFound) {
		return nil // not rated in that speed here
	}
	if err != nil {
		return err
	}
	defer s.change.Lock(guildID)()
	want := ranks.Band(r.Rating, step)
	role, err := s.role(ctx, guildID, string(speed), step, want)
	if err != nil {
		return s.noted(guildID, err)
	}
	held, err := s.store.HeldRanks(ctx, guildID, playerID)
	if err != nil {
		return err
	}
	remove, add := ranks.Change(held, string(speed), step, want)
	for _, old := range remove {
		if err := s.apply(ctx, guildID, playerID, old.RoleID, ranks.Taking); err != nil {
			return err
		}
	}
	if !add {
		return nil
	}
	return s.apply(ctx, guildID, playerID, role.RoleID, ranks.Giving)
}

// apply gives (Giving) or takes (Taking) a member's role: recorded as
// asked, then asked of Discord, then recorded as done. A crash between
// leaves it asked, for Reconcile; so does a refusal, which is noted. A
// member or role no longer there is forgotten.
func (s *Service) apply(ctx context.Context, guildID, playerID, roleID string, h ranks.Holding) error {
	if err := s.store.SetRankHeld(ctx, guildID, playerID, roleID, h); err != nil {
		return err
	}
	ask, done := s.roles.AddMemberRole, ranks.Held
	if h == ranks.Taking {
		ask, done = s.roles.RemoveMemberRole, ranks.NotHeld
	}
	err := ask(ctx, guildID, playerID, roleID)
	if errors.Is(err, record.ErrNotFound) {
		done, err = ranks.NotHeld, nil
	}
	if err != nil {
		return s.noted(guildID, err)
	}
	return s.store.SetRankHeld(ctx, guildID, playerID, roleID, done)
}

// role is the band's role, made if the bot has not made it yet.
func (s *Service) role(ctx context.Context, guildID, speed string, step, band int) (ranks.Role, error) {
	list, err := s.store.RankRoles(ctx, guildID)
	if err != nil {
		return ranks.Role{}, err
	}
	for _, r := range list {
		if r.Speed == speed && r.Step == step && r.Band == band {
			return r, nil
		}
	}
	t := s.PublicPrinter(ctx, guildID)
	name := RoleName(t, speed, step, band)
	if s.problem(guildID) == problemFull {
		// Discord refused a role already: asking again for each member
		// would be refused requests (1,000 for 500 members).
		return ranks.Role{}, fmt.Errorf("making the role %q: %w (refused before)", name, bot.ErrLimitReached)
	}
	// A role the server made already under that name is adopted (an
	// admin may have made "Blitz 1400–1599" with a colour of their own).
	id, found, err := s.roles.RoleNamed(ctx, guildID, name)
	if err != nil {
		return ranks.Role{}, fmt.Errorf("looking for the role %q: %w", name, err)
	}
	if !found {
		if id, err = s.roles.CreateRole(ctx, guildID, name); err != nil {
			return ranks.Role{}, fmt.Errorf("making the role %q: %w", name, err)
		}
	}
	r := ranks.Role{Speed: speed, Step: step, Band: band, RoleID: id}
	s.Logger(ctx).Info("rating roles: a role taken on", "guild", guildID, "role", name, "adopted", found)
	return r, s.store.SaveRankRole(ctx, guildID, r)
}

// Titles a server's members hold with rating roles on, each a role of
// its own kept among the band roles under the title as its speed.
const (
	Champion     = "champion" // the last finished tournament's winners
	PuzzleLeader = "puzzles"  // who solved the most puzzles last month
)

// Crown gives a title's role to its new holders (a finished tournament's
// winners, a month's puzzle leaders), taken from those who held it.
func (s *Service) Crown(ctx context.Context, guildID, title string, winners []string) {
	if s.roles == nil || guildID == "" {
		return
	}
	if step, err := s.store.RoleStep(ctx, guildID); err != nil || step == 0 {
		return
	}
	if err := s.crown(ctx, guildID, title, winners); err != nil {
		s.Logger(ctx).Warn("rating roles: a title", "guild", guildID, "title", title, "err", err)
	}
}

func (s *Service) crown(ctx context.Context, guildID, title string, winners []string) error {
	defer s.change.Lock(guildID)()
	role, err := s.role(ctx, guildID, title, 0, 0)
	if err != nil {
		return s.noted(guildID, err)
	}
	holders, err := s.store.RankHolders(ctx, guildID, role.RoleID)
	if err != nil {
		return err
	}
	for _, p := range holders {
		if slices.Contains(winners, p) {
			continue
		}
		if err := s.apply(ctx, guildID, p, role.RoleID, ranks.Taking); err != nil {
			return err
		}
	}
	for _, p := range winners {
		if slices.Contains(holders, p) {
			continue
		}
		if err := s.apply(ctx, guildID, p, role.RoleID, ranks.Giving); err != nil {
			return err
		}
	}
	return nil
}

// RoleName names a band role in the server's language: "Blitz 1400-1599".
func RoleName(t *catalog.Printer, speed string, step, band int) string {
	switch speed {
	case Champion:
		return t.T("ranks.champion")
	case PuzzleLeader:
		return t.T("ranks.puzzle_leader")
	}
	return t.T("ranks.role", "Speed", t.T("speed."+speed), "From", band, "To", band+step-1)
}

// What Discord refused a server's rating roles, for /settings to show.
const (
	problemForbidden = "forbidden" // Manage Roles, or the bot's role too low
	problemFull      = "full"      // the server's 250 roles: no new one
)

// noted keeps a refusal for /settings to show the server's admins, and
// logs it the first time.
func (s *Service) noted(guildID string, err error) error {
	kind := ""
	switch {
	case errors.Is(err, bot.ErrForbidden):
		kind = problemForbidden
	case errors.Is(err, bot.ErrLimitReached):
		kind = problemFull
	default:
		return err
	}
	s.mu.Lock()
	first := s.problems[guildID] != kind
	s.problems[guildID] = kind
	s.mu.Unlock()
	if first {
		s.Logger(context.Background()).Warn("rating roles: Discord refused them on this server; no more is asked until they are turned on again",
			"guild", guildID, "problem", kind, "err", err)
	}
	return err
}

// problem is what Discord refused a server's rating roles, if anything.
func (s *Service) problem(guildID string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.problems[guildID]
}
