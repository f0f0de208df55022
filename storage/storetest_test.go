package storage

import (
	"testing"

	"othello-bot/storage/storetest"
)

// The contract every store of the core's records passes, on each backend,
// each part on a new empty database.
func TestCoreStoreContract(t *testing.T) {
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			open := func(t *testing.T) *Store {
				s, _ := openIn(t, b.database(t))
				return s
			}
			t.Run("games", func(t *testing.T) { storetest.RunGames(t, func(t *testing.T) storetest.Games { return open(t) }) })
			t.Run("challenges", func(t *testing.T) {
				storetest.RunChallenges(t, func(t *testing.T) storetest.ChallengesAndGames { return open(t) })
			})
			t.Run("preferences", func(t *testing.T) {
				storetest.RunPreferences(t, func(t *testing.T) storetest.Preferences { return open(t) })
			})
		})
	}
}
