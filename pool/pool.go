// Package pool holds the rules of the pairing pool: players who want a
// game now wait with what they want (a time control, a board size, rated
// or not, how far from their rating an opponent may be), and a newcomer
// is paired with whoever waits for the same game. It knows nothing of
// Discord or databases.
package pool

import (
	"math"
	"time"

	"othello-bot/timecontrol"
)

// Want is the game a player waits for.
type Want struct {
	Control string // the time control as written ("3+2", "1d")
	Size    int
	Rated   bool
	// Range is how far from the player's rating an opponent's may be; 0
	// for anyone.
	Range int
}

// Entry is a player waiting in the pool.
type Entry struct {
	ID       int64
	GuildID  string
	PlayerID string
	Want     Want
	// Rating is the player's rating in the control's speed here when
	// they joined.
	Rating float64
	Since  time.Time
}

// MaxWait is how long an entry waits before it lapses.
const MaxWait = 30 * time.Minute

// Suits reports whether two players' wants make one game: the same
// control, size and ratedness, each within the other's range.
func Suits(a Want, aRating float64, b Want, bRating float64) bool {
	if a.Control != b.Control || a.Size != b.Size || a.Rated != b.Rated {
		return false
	}
	gap := math.Abs(aRating - bRating)
	return (a.Range == 0 || gap <= float64(a.Range)) && (b.Range == 0 || gap <= float64(b.Range))
}

// Match picks the entry a newcomer is paired with: among those that suit
// them (never their own), the one waiting longest, so nobody is passed
// over; false if none suits.
func Match(player string, want Want, rating float64, waiting []Entry) (Entry, bool) {
	var best Entry
	found := false
	for _, e := range waiting {
		if e.PlayerID == player || !Suits(want, rating, e.Want, e.Rating) {
			continue
		}
		if !found || e.Since.Before(best.Since) || e.Since.Equal(best.Since) && e.ID < best.ID {
			best, found = e, true
		}
	}
	return best, found
}

// Lapsed reports whether an entry has waited past MaxWait at now.
func Lapsed(e Entry, now time.Time) bool { return !now.Before(e.Since.Add(MaxWait)) }

// Crosses reports whether a wait may be paired with a player of another
// server (where both servers allow it): casual games on a clock only. A
// rating belongs to a server, so a rated game stays on one; and a game
// across servers is played on its web page, where a clock keeps both
// players there, while a game of days would leave one without the
// reminders their own server's channel gives.
func Crosses(w Want) bool {
	c, err := timecontrol.Parse(w.Control)
	return err == nil && c.Live() && !w.Rated
}
