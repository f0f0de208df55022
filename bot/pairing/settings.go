package pairing

// This file is the pool's part of /settings: the role a new wait pings
// (play-role:) and whether the server's casual live waits pair with other
// servers (pool:open, or pool:server to keep them here).

import (
	"context"
	"strings"

	"othello-bot/bot"
)

// Settings answers /settings play-role: and pool:, for members with
// Manage Server.
func (s *Service) Settings(ctx context.Context, req bot.Request) (bot.Response, bool, error) {
	role, open := strings.TrimSpace(req.Options["play-role"]), strings.TrimSpace(req.Options["pool"])
	if role == "" && open == "" {
		return bot.Response{}, false, nil
	}
	me := req.Me()
	if refusal, ok := bot.ServerSetting(req, "pool.need_manage_server"); !ok {
		return refusal, true, nil
	}
	if open == "open" && !s.ServesPages() {
		return bot.Refuse(me.T("pool.open_needs_pages")), true, nil
	}
	var lines []string
	if open != "" {
		if err := s.store.SetPoolOpen(ctx, req.GuildID, open == "open", s.Now()); err != nil {
			return bot.Response{}, true, err
		}
		if open == "open" {
			lines = append(lines, me.T("pool.open_on"))
		} else {
			lines = append(lines, me.T("pool.open_off"))
		}
	}
	if role != "" {
		if role == req.GuildID { // @everyone: no ping
			role = ""
		}
		if err := s.store.SetPlayRole(ctx, req.GuildID, role, s.Now()); err != nil {
			return bot.Response{}, true, err
		}
		if role == "" {
			lines = append(lines, me.T("pool.ping_off"))
		} else {
			lines = append(lines, me.T("pool.ping_on", "Role", "<@&"+role+">", "Minutes", int(pingEvery.Minutes())))
			if req.UnmentionableRoles[role] && (!req.PermissionsKnown || req.AppPermissions&PermMentionEveryone == 0) {
				lines = append(lines, me.T("pool.ping_unmentionable", "Role", "<@&"+role+">"))
			}
		}
	}
	return bot.Refuse(strings.Join(lines, "\n")), true, nil
}

// SettingsOptions are the options of /settings the pool owns.
func (s *Service) SettingsOptions() []bot.OptionSpec {
	return []bot.OptionSpec{
		{Name: "play-role", Kind: bot.RoleOption},
		{Name: "pool", Kind: bot.StringOption, Choices: []bot.OptionChoice{bot.ChoiceFor("choice.pool.open", "open"), bot.ChoiceFor("choice.pool.server", "server")}},
	}
}

// SettingsLines say which role the pool pings and whether it pairs across
// servers.
func (s *Service) SettingsLines(ctx context.Context, req bot.Request) ([]string, error) {
	if req.GuildID == "" {
		return nil, nil
	}
	me := req.Me()
	role, err := s.store.PlayRole(ctx, req.GuildID)
	if err != nil {
		return nil, err
	}
	open, err := s.store.PoolOpen(ctx, req.GuildID)
	if err != nil {
		return nil, err
	}
	lines := []string{me.T("pool.show_ping_off")}
	if role != "" {
		lines[0] = me.T("pool.show_ping", "Role", "<@&"+role+">")
	}
	if open {
		lines = append(lines, me.T("pool.show_open"))
	}
	return lines, nil
}
