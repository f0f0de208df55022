package bot

import (
	"testing"

	"othello-bot/storage/storetest"
)

// The fake the core's tests use passes the same contract as the real
// stores: a rule it copied wrong fails here, not silently in the tests it
// serves.
func TestFakeStoreContract(t *testing.T) {
	t.Run("games", func(t *testing.T) {
		storetest.RunGames(t, func(*testing.T) storetest.Games { return newFakeStore() })
	})
	t.Run("challenges", func(t *testing.T) {
		storetest.RunChallenges(t, func(*testing.T) storetest.ChallengesAndGames { return newFakeStore() })
	})
	t.Run("preferences", func(t *testing.T) {
		storetest.RunPreferences(t, func(*testing.T) storetest.Preferences { return newFakeStore() })
	})
}
