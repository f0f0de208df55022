package storage

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"othello-bot/game"
	"othello-bot/record"
)

// player keeps one game going: each step appends one turn, and a finished
// game is replaced by a new one in a fresh channel.
type benchPlayer struct {
	s     *Store
	g     *record.Game
	rules *game.Game
	rng   *rand.Rand
	id    int
	games int
}

var benchChannels atomic.Int64

func (p *benchPlayer) step(b *testing.B) {
	ctx := context.Background()
	if p.g == nil || p.rules.Over() {
		if p.g != nil {
			bl, wh := p.rules.Position().Count()
			if err := p.s.FinishGame(ctx, p.g, record.Result{FinishedAt: time.Now(), BlackDiscs: bl, WhiteDiscs: wh,
				Winner: p.rules.Position().Winner(), Reason: record.EndNormal}); err != nil {
				b.Fatal(err)
			}
		}
		start, _ := game.NewPosition(8)
		now := time.Now()
		p.g = &record.Game{ChannelID: fmt.Sprintf("bench-%d", benchChannels.Add(1)), Black: record.Human(alice),
			White: record.Human(bob), Start: start, Position: start, CreatedAt: now, UpdatedAt: now, TurnStartedAt: now}
		if err := p.s.CreateGame(ctx, p.g); err != nil {
			b.Fatal(err)
		}
		p.rules = game.NewGame(start)
	}
	moves := p.rules.Position().LegalMoves()
	plies, _ := p.rules.Play(moves[p.rng.IntN(len(moves))])
	now := time.Now()
	if err := p.s.AppendTurn(ctx, p.g, Turn{Plies: plies, Position: p.rules.Position(), At: now, Deadline: now.Add(time.Hour)}); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkAppendTurn measures committed turns per second (synchronous=FULL,
// so each is on disk when it returns): one game at a time, and 100 games
// moving at once.
func BenchmarkAppendTurn(b *testing.B) {
	b.Run("one-game", func(b *testing.B) {
		s, _ := openTemp(b)
		p := &benchPlayer{s: s, rng: rand.New(rand.NewPCG(1, 1))}
		for b.Loop() {
			p.step(b)
		}
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "turns/s")
	})
	b.Run("100-games-parallel", func(b *testing.B) {
		s, _ := openTemp(b)
		var seeds atomic.Uint64
		b.SetParallelism(max(1, 100/testingProcs()))
		b.RunParallel(func(pb *testing.PB) {
			p := &benchPlayer{s: s, rng: rand.New(rand.NewPCG(seeds.Add(1), 7))}
			for pb.Next() {
				p.step(b)
			}
		})
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "turns/s")
	})
}

func testingProcs() int { return runtime.GOMAXPROCS(0) }
