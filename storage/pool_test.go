package storage

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"othello-bot/pool"
	"othello-bot/record"
)

// The pool keeps who waits, longest first; a player waits once per
// server; an entry is taken once however many processes try; lapsed
// entries are found by age.
func TestPoolStore(t *testing.T) {
	eachBackend(t, func(t *testing.T, database string) {
		ctx := context.Background()
		s, _ := openIn(t, database)
		join := func(player record.Player, since time.Time) record.PoolEntry {
			e := record.PoolEntry{Entry: pool.Entry{GuildID: "g", Want: pool.Want{Control: "3+2", Size: 8, Rated: true, Range: 200},
				Rating: 1600, Since: since}, Player: player, ChannelID: "c"}
			if err := s.JoinPool(ctx, &e); err != nil {
				t.Fatal(err)
			}
			return e
		}
		b := join(bob, t0.Add(time.Minute))
		a := join(alice, t0)
		dup := record.PoolEntry{Entry: pool.Entry{GuildID: "g", Want: pool.Want{Control: "1+0", Size: 8}, Since: t0}, Player: alice}
		if err := s.JoinPool(ctx, &dup); !errors.Is(err, record.ErrWaiting) {
			t.Fatalf("waiting twice: %v", err)
		}
		list, err := s.PoolEntries(ctx, "g")
		if err != nil || len(list) != 2 || list[0].ID != a.ID || list[0].Want != a.Want || list[0].Player.Name != alice.Name ||
			list[0].PlayerID != alice.ID || !list[0].Since.Equal(t0) || list[0].Rating != 1600 {
			t.Fatalf("the pool: %+v %v", list, err)
		}
		if other, _ := s.PoolEntries(ctx, "elsewhere"); len(other) != 0 {
			t.Fatalf("another server's pool: %+v", other)
		}
		s.SetPoolMessage(ctx, b.ID, "m1")
		if got, err := s.PoolEntryOf(ctx, "g", bob.ID); err != nil || got.MessageID != "m1" {
			t.Fatalf("bob's entry: %+v %v", got, err)
		}
		lapsed, _ := s.LapsedPoolEntries(ctx, t0.Add(30*time.Second))
		if len(lapsed) != 1 || lapsed[0].ID != a.ID {
			t.Fatalf("lapsed: %+v", lapsed)
		}
		var wins int
		var mu sync.Mutex
		var wg sync.WaitGroup
		for range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				ok, err := s.TakePoolEntry(ctx, a.ID)
				if err != nil {
					t.Error(err)
				}
				if ok {
					mu.Lock()
					wins++
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
		if wins != 1 {
			t.Fatalf("the entry was taken %d times", wins)
		}
		if _, err := s.PoolEntryOf(ctx, "g", alice.ID); !errors.Is(err, record.ErrNotFound) {
			t.Fatalf("a taken entry is still there: %v", err)
		}

		// Across servers: only the casual waits of other open servers.
		casual := func(guild string, player record.Player) record.PoolEntry {
			e := record.PoolEntry{Entry: pool.Entry{GuildID: guild, Want: pool.Want{Control: "1+0", Size: 8}, Since: t0}, Player: player, ChannelID: "c"}
			if err := s.JoinPool(ctx, &e); err != nil {
				t.Fatal(err)
			}
			return e
		}
		carol := record.Player{ID: "333", Name: "carol"}
		h := casual("h", carol)
		casual("shut", alice) // a server that keeps its pool to itself
		casual("g", alice)    // the newcomer's own server
		for _, g := range []string{"g", "h"} {
			if err := s.SetPoolOpen(ctx, g, true, t0); err != nil {
				t.Fatal(err)
			}
		}
		if open, err := s.PoolOpen(ctx, "h"); err != nil || !open {
			t.Fatalf("h's pool: open %v, %v", open, err)
		}
		if open, err := s.PoolOpen(ctx, "shut"); err != nil || open {
			t.Fatalf("a server never set: open %v, %v", open, err)
		}
		across, err := s.OpenPoolEntries(ctx, "g")
		if err != nil || len(across) != 1 || across[0].ID != h.ID {
			t.Fatalf("open waits seen from g (bob's rated one, the closed server's and g's own left out): %+v %v", across, err)
		}
		s.SetPoolOpen(ctx, "h", false, t0)
		if across, _ := s.OpenPoolEntries(ctx, "g"); len(across) != 0 {
			t.Fatalf("a server closed again still pairs across: %+v", across)
		}
		// A wait in the bot's DM (no server) is seen from an open server,
		// never from another DM.
		dave := record.Player{ID: "444", Name: "dave"}
		d := casual("", dave)
		if across, _ := s.OpenPoolEntries(ctx, "g"); len(across) != 1 || across[0].ID != d.ID {
			t.Fatalf("a DM's wait seen from g: %+v", across)
		}
		s.SetPoolOpen(ctx, "h", true, t0)
		if across, _ := s.OpenPoolEntries(ctx, ""); len(across) != 2 || across[0].GuildID == "" || across[1].GuildID == "" {
			t.Fatalf("seen from a DM (the open servers' waits, not the DM's own): %+v", across)
		}
	})
}
