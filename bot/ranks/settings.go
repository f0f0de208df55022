package ranks

// This file is /settings roles: and role-step:, and giving every rated
// member their roles when rating roles are turned on.

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"time"

	"othello-bot/bot"
	"othello-bot/ranks"
	"othello-bot/rating/rated"
	"othello-bot/record"
	"othello-bot/timecontrol"
)

// giveAll gives every rated member of a server their roles, in the
// background, one change at a time (the transport keeps to Discord's
// pace).
func (s *Service) giveAll(guildID string, step int) {
	ctx := s.Background()
	p := &progress{}
	s.mu.Lock()
	s.backfill[guildID] = p // from now: Reconcile starts no second one
	s.mu.Unlock()
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		log := s.Logger(ctx).With("guild", guildID)
		defer func() {
			s.mu.Lock()
			if s.backfill[guildID] == p {
				delete(s.backfill, guildID)
			}
			s.mu.Unlock()
		}()
		type job struct {
			player string
			speed  timecontrol.Category
		}
		var jobs []job
		for _, speed := range timecontrol.Categories() {
			list, err := s.store.Leaderboard(ctx, record.SpeedScope(guildID, speed), rated.Growth(s.Now()), maxMembers)
			if err != nil {
				log.Error("rating roles: listing members", "err", err)
				return
			}
			for _, st := range list {
				jobs = append(jobs, job{st.Player.ID, speed})
			}
		}
		s.mu.Lock()
		p.total = len(jobs)
		s.mu.Unlock()
		t0 := time.Now()
		for _, j := range jobs {
			if ctx.Err() != nil {
				return // not done: the next start carries on (Reconcile)
			}
			switch err := s.update(ctx, guildID, j.player, j.speed, step); {
			case errors.Is(err, bot.ErrForbidden):
				log.Warn("rating roles: giving a member theirs", "player", j.player, "err", err)
			case errors.Is(err, bot.ErrLimitReached):
				// Said once (noted); members whose band has its role
				// still get it.
			case err != nil:
				log.Warn("rating roles: giving a member theirs", "player", j.player, "err", err)
			}
			if s.problem(guildID) == problemForbidden {
				break // nothing more until roles are turned on again
			}
			s.mu.Lock()
			p.done++
			s.mu.Unlock()
		}
		// Done (or refused): nothing for a start to carry on.
		if err := s.store.SetRolesBackfill(ctx, guildID, 0, s.Now()); err != nil {
			log.Warn("rating roles: recording members given their roles", "err", err)
		}
		log.Info("rating roles: members given their roles", "members", len(jobs), "seconds", time.Since(t0).Seconds())
	}()
}

// Settings answers /settings roles: (on or off) and role-step:, for
// members with Manage Server.
func (s *Service) Settings(ctx context.Context, req bot.Request) (bot.Response, bool, error) {
	choice, stepText := strings.TrimSpace(req.Options["roles"]), strings.TrimSpace(req.Options["role-step"])
	if choice == "" && stepText == "" {
		return bot.Response{}, false, nil
	}
	me := req.Me()
	if refusal, ok := bot.ServerSetting(req, "ranks.need_manage_server"); !ok {
		return refusal, true, nil
	}
	switch {
	case s.roles == nil:
		return bot.Refuse(me.T("ranks.unavailable")), true, nil
	}
	step := ranks.DefaultStep
	if stepText != "" {
		n, err := strconv.Atoi(stepText)
		if err != nil || n < ranks.MinStep || n > ranks.MaxStep {
			return bot.Refuse(me.T("ranks.bad_step", "Min", ranks.MinStep, "Max", ranks.MaxStep)), true, nil
		}
		step = n
	}
	if choice == "off" {
		if err := s.store.SetRoleStep(ctx, req.GuildID, 0, s.Now()); err != nil {
			return bot.Response{}, true, err
		}
		return bot.Refuse(me.T("ranks.off")), true, nil
	}
	if req.PermissionsKnown && req.AppPermissions&PermManageRoles == 0 {
		return bot.Refuse(me.T("ranks.need_manage_roles")), true, nil
	}
	if err := s.store.SetRoleStep(ctx, req.GuildID, step, s.Now()); err != nil {
		return bot.Response{}, true, err
	}
	s.mu.Lock()
	delete(s.problems, req.GuildID)
	s.mu.Unlock()
	// Recorded before any role is given: a crash before all are carries
	// on at the next start.
	if err := s.store.SetRolesBackfill(ctx, req.GuildID, step, s.Now()); err != nil {
		return bot.Response{}, true, err
	}
	s.Logger(ctx).Info("rating roles on", "guild", req.GuildID, "step", step)
	s.giveAll(req.GuildID, step)
	return bot.Refuse(me.T("ranks.on", "Step", step, "Example", RoleName(req.Pub(), string(timecontrol.Blitz), step, ranks.Band(1500, step)))), true, nil
}

// SettingsOptions are the options of /settings rating roles own.
func (s *Service) SettingsOptions() []bot.OptionSpec {
	return []bot.OptionSpec{
		{Name: "roles", Kind: bot.StringOption, Choices: []bot.OptionChoice{bot.ChoiceFor("choice.roles.on", "on"), bot.ChoiceFor("choice.roles.off", "off")}},
		{Name: "role-step", Kind: bot.IntegerOption, Min: ranks.MinStep, Max: ranks.MaxStep},
	}
}

// SettingsLines say whether rating roles are on, how far giving them has
// gone, and what stopped the bot from giving one.
func (s *Service) SettingsLines(ctx context.Context, req bot.Request) ([]string, error) {
	if req.GuildID == "" || s.roles == nil {
		return nil, nil
	}
	me := req.Me()
	step, err := s.store.RoleStep(ctx, req.GuildID)
	if err != nil {
		return nil, err
	}
	if step == 0 {
		return []string{me.T("ranks.show_off")}, nil
	}
	lines := []string{me.T("ranks.show", "Step", step)}
	s.mu.Lock()
	defer s.mu.Unlock()
	if p := s.backfill[req.GuildID]; p != nil {
		lines = append(lines, me.T("ranks.show_giving", "Done", p.done, "Count", p.total))
	}
	switch s.problems[req.GuildID] {
	case problemForbidden:
		lines = append(lines, me.T("ranks.show_forbidden"))
	case problemFull:
		lines = append(lines, me.T("ranks.show_full"))
	}
	return lines, nil
}
