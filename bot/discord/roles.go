package discord

// This file is a server's roles, for rating roles: making a role, giving
// and taking one. Discord refusing for want of a permission (Manage Roles,
// or a role above the bot's own) is bot.ErrForbidden.

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/bwmarrin/discordgo"

	"othello-bot/bot"
	"othello-bot/record"
)

// maxRolesReached is Discord's JSON error code for a server at its 250
// roles ("Maximum number of server roles reached").
const maxRolesReached = 30005

// CreateRole makes a role (at the bottom of the list, nobody pinged by
// it, no permissions) and returns its id.
func (a *Poster) CreateRole(ctx context.Context, guildID, name string) (string, error) {
	mentionable, hoist := false, false
	perms := int64(0)
	r, err := a.session.GuildRoleCreate(guildID, &discordgo.RoleParams{Name: name, Mentionable: &mentionable, Hoist: &hoist,
		Permissions: &perms}, discordgo.WithContext(ctx))
	if err != nil {
		err = fmt.Errorf("making role %q: %w", name, err)
		if rest := (*discordgo.RESTError)(nil); errors.As(err, &rest) && rest.Message != nil && rest.Message.Code == maxRolesReached {
			return "", fmt.Errorf("%w: %w", bot.ErrLimitReached, err)
		}
		return "", forbidden(err)
	}
	return r.ID, nil
}

// RoleNamed finds a server's role by its name.
func (a *Poster) RoleNamed(ctx context.Context, guildID, name string) (string, bool, error) {
	roles, err := a.session.GuildRoles(guildID, discordgo.WithContext(ctx))
	if err != nil {
		return "", false, forbidden(fmt.Errorf("listing the roles of %s: %w", guildID, err))
	}
	for _, r := range roles {
		if r.Name == name {
			return r.ID, true, nil
		}
	}
	return "", false, nil
}

// AddMemberRole gives a member a role.
func (a *Poster) AddMemberRole(ctx context.Context, guildID, userID, roleID string) error {
	if err := a.session.GuildMemberRoleAdd(guildID, userID, roleID, discordgo.WithContext(ctx)); err != nil {
		return forbidden(fmt.Errorf("giving role %s to %s: %w", roleID, userID, err))
	}
	return nil
}

// RemoveMemberRole takes a role from a member.
func (a *Poster) RemoveMemberRole(ctx context.Context, guildID, userID, roleID string) error {
	if err := a.session.GuildMemberRoleRemove(guildID, userID, roleID, discordgo.WithContext(ctx)); err != nil {
		return forbidden(fmt.Errorf("taking role %s from %s: %w", roleID, userID, err))
	}
	return nil
}

// forbidden marks a 403 as bot.ErrForbidden, and a 404 (Unknown Member:
// the member left; Unknown Role: an admin deleted it) as
// record.ErrNotFound.
func forbidden(err error) error {
	var rest *discordgo.RESTError
	if errors.As(err, &rest) && rest.Response != nil {
		switch rest.Response.StatusCode {
		case http.StatusForbidden:
			return fmt.Errorf("%w: %w", bot.ErrForbidden, err)
		case http.StatusNotFound:
			return fmt.Errorf("%w: %w", record.ErrNotFound, err)
		}
	}
	return err
}
