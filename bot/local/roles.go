package local

// This file is the terminal's server roles, for rating roles: made, given
// and taken as Discord would, each said in the terminal.

import (
	"context"
	"fmt"
	"strconv"
)

// CreateRole makes a role.
func (a *Adapter) CreateRole(_ context.Context, _, name string) (string, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.roles == nil {
		a.roles = map[string]string{}
	}
	id := "role-" + strconv.Itoa(len(a.roles)+1)
	a.roles[id] = name
	fmt.Fprintln(a.out, a.t().T("local.role_made", "Role", name))
	return id, nil
}

// RoleNamed finds a role by its name.
func (a *Adapter) RoleNamed(_ context.Context, _, name string) (string, bool, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	for id, n := range a.roles {
		if n == name {
			return id, true, nil
		}
	}
	return "", false, nil
}

// AddMemberRole gives a member a role.
func (a *Adapter) AddMemberRole(_ context.Context, _, userID, roleID string) error {
	return a.memberRole(userID, roleID, "local.role_given")
}

// RemoveMemberRole takes a role from a member.
func (a *Adapter) RemoveMemberRole(_ context.Context, _, userID, roleID string) error {
	return a.memberRole(userID, roleID, "local.role_taken")
}

func (a *Adapter) memberRole(userID, roleID, said string) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	name, ok := a.roles[roleID]
	if !ok {
		return fmt.Errorf("no role %q", roleID)
	}
	fmt.Fprintln(a.out, a.t().T(said, "User", userID, "Role", name))
	return nil
}
