// Package ranks holds the rules of rating roles: a server's members are
// kept in one role per speed, the band of points their rating in that
// speed falls in (every Step points: 1400-1599, 1600-1799, ...). It knows
// nothing of Discord or databases.
package ranks

import "math"

// Steps a server may choose: the width of a band, in rating points.
const (
	MinStep     = 50
	MaxStep     = 1000
	DefaultStep = 200
)

// Band is the lowest rating of the band a rating falls in.
func Band(rating float64, step int) int {
	if step <= 0 {
		return 0
	}
	return max(int(math.Floor(rating/float64(step)))*step, 0)
}

// Role is a band role of one speed (and the step it was made for).
type Role struct {
	Speed  string
	Step   int
	Band   int
	RoleID string
}

// Change says which band roles a member gives up and whether they take
// the one wanted: of the roles they hold, those of the speed other than
// the wanted band (of the step in use) go; the wanted one comes if not
// held. Roles of other speeds stay.
func Change(held []Role, speed string, step, want int) (remove []Role, add bool) {
	add = true
	for _, r := range held {
		if r.Speed != speed {
			continue
		}
		if r.Step == step && r.Band == want {
			add = false
			continue
		}
		remove = append(remove, r)
	}
	return remove, add
}

// Holding is where a member's role stands between the bot and Discord.
// The bot records what it is about to ask before it asks, so a crash in
// between leaves a note to finish, not a role nobody knows of.
type Holding int

const (
	NotHeld Holding = iota // no record: the member does not hold it
	Held                   // given, and Discord said so
	Giving                 // Discord asked to give it, no answer recorded
	Taking                 // Discord asked to take it, no answer recorded
)

// Pending is a role change Discord was asked for and whose answer was
// never recorded.
type Pending struct {
	GuildID, PlayerID, RoleID string
	Holding                   Holding // Giving or Taking
}
