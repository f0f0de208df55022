package storage

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"othello-bot/game"
	"othello-bot/internal/pgtest"
	"othello-bot/record"
)

// player keeps one game going: each step appends one turn, and a finished
// game is replaced by a new one in a fresh channel.
type benchPlayer struct {
	s   *Store
	g   *record.Game
	rng *rand.Rand
}

var benchChannels atomic.Int64

func (p *benchPlayer) step(b *testing.B) {
	ctx := context.Background()
	if p.g == nil || p.g.State.Over() {
		if p.g != nil {
			bl, wh := p.g.Position().Count()
			if err := p.s.FinishGame(ctx, p.g, record.Result{FinishedAt: time.Now(), BlackDiscs: bl, WhiteDiscs: wh,
				Winner: p.g.Position().Winner(), Reason: record.EndNormal}, nil); err != nil {
				b.Fatal(err)
			}
		}
		start, _ := game.NewPosition(8)
		now := time.Now()
		p.g = &record.Game{ChannelID: fmt.Sprintf("bench-%d", benchChannels.Add(1)), Black: record.Human(alice),
			White: record.Human(bob), State: game.NewGame(start), CreatedAt: now, UpdatedAt: now, TurnStartedAt: now}
		if err := p.s.CreateGame(ctx, p.g); err != nil {
			b.Fatal(err)
		}
	}
	moves := p.g.Position().LegalMoves()
	plies, _ := p.g.State.Play(moves[p.rng.IntN(len(moves))])
	now := time.Now()
	if err := p.s.AppendTurn(ctx, p.g, record.Turn{Plies: plies, At: now, Deadline: now.Add(time.Hour)}); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkAppendTurn measures committed turns per second (SQLite with
// synchronous=FULL; PostgreSQL with fsync and synchronous commits on, a
// server started for the benchmark): one game at a time, and 100 games
// moving at once.
func BenchmarkAppendTurn(b *testing.B) {
	open := map[string]func(b *testing.B) *Store{
		"sqlite": func(b *testing.B) *Store { s, _ := openTemp(b); return s },
		"postgres": func(b *testing.B) *Store {
			server, err := pgtest.Start(pgtest.Options{Durable: true})
			if err != nil {
				b.Skip(err)
			}
			b.Cleanup(func() { server.Stop() })
			url, err := server.NewDatabase()
			if err != nil {
				b.Fatal(err)
			}
			return openAt(b, url, "")
		},
	}
	for _, backend := range []string{"sqlite", "postgres"} {
		b.Run(backend+"/one-game", func(b *testing.B) {
			p := &benchPlayer{s: open[backend](b), rng: rand.New(rand.NewPCG(1, 1))}
			for b.Loop() {
				p.step(b)
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "turns/s")
		})
		b.Run(backend+"/100-games-parallel", func(b *testing.B) {
			s := open[backend](b)
			var seeds atomic.Uint64
			b.SetParallelism(max(1, 100/testingProcs()))
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				p := &benchPlayer{s: s, rng: rand.New(rand.NewPCG(seeds.Add(1), 7))}
				for pb.Next() {
					p.step(b)
				}
			})
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "turns/s")
		})
	}
}

func testingProcs() int { return runtime.GOMAXPROCS(0) }

// BenchmarkQueries100k times the queries behind /history, /stats and
// /leaderboard on a database of 100,000 finished games among 1,000 players.
func BenchmarkQueries100k(b *testing.B) {
	s, _ := openTemp(b)
	ctx := context.Background()
	const games, players = 100_000, 1000
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	start, _ := game.NewPosition(8)
	pos := encodePosition(start)
	err := s.inTx(ctx, func(tx *dbTx) error {
		for i := 0; i < players; i++ {
			if _, err := tx.ExecContext(ctx, `INSERT INTO players (id, name, created_at, updated_at) VALUES (?, ?, 0, 0)`, fmt.Sprint(i), fmt.Sprintf("p%d", i)); err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO ratings (player_id, scope, rating, deviation, volatility, games, wins, losses, draws, updated_at)
				VALUES (?, 'g', ?, ?, 0.06, 100, 50, 50, 0, ?)`, fmt.Sprint(i), 1200+float64(i%700), 50+float64(i%200), millis(now.Add(-time.Duration(i)*time.Hour))); err != nil {
				return err
			}
		}
		gameStmt, err := tx.Tx.Prepare(`INSERT INTO games (id, guild_id, channel_id, size, black_id, black_level, white_id, white_level,
			rated, status, start_position, start_to_move, position, to_move, created_at, updated_at, turn_started_at)
			VALUES (?, 'g', ?, 8, ?, ?, ?, NULL, 1, 'finished', ?, 'X', ?, 'X', 0, 0, 0)`)
		if err != nil {
			return err
		}
		resStmt, err := tx.Tx.Prepare(`INSERT INTO results (game_id, guild_id, finished_at, black_id, black_level, white_id, white_level,
			size, black_discs, white_discs, winner, reason, rated, transcript, logged_at)
			VALUES (?, 'g', ?, ?, ?, ?, NULL, 8, 40, 24, 'X', 'normal', 1, 'f5d6c3d3c4', 1)`)
		if err != nil {
			return err
		}
		moveStmt, err := tx.Tx.Prepare(`INSERT INTO moves (game_id, ply, color, square, played_at) VALUES (?, ?, ?, ?, 0)`)
		if err != nil {
			return err
		}
		for i := 1; i <= games; i++ {
			white := fmt.Sprint(i % players)
			var black sql.NullString
			var level sql.NullInt64
			if i%5 == 0 { // every fifth game against the bot
				level = sql.NullInt64{Int64: int64(i%10 + 1), Valid: true}
			} else {
				black = sql.NullString{String: fmt.Sprint((i * 7) % players), Valid: true}
			}
			if _, err := gameStmt.Exec(i, fmt.Sprintf("c%d", i), black, level, white, pos, pos); err != nil {
				return err
			}
			if _, err := resStmt.Exec(i, millis(now.Add(-time.Duration(i)*time.Minute)), black, level, white); err != nil {
				return err
			}
			for ply := 1; ply <= 60; ply++ { // a full game's moves, for a realistic file size
				if _, err := moveStmt.Exec(i, ply, []string{"X", "O"}[ply%2], fmt.Sprintf("%c%d", 'a'+ply%8, 1+ply/8%8)); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	s.wdb.ExecContext(ctx, `ANALYZE`)
	b.ResetTimer()
	b.Run("history", func(b *testing.B) {
		for b.Loop() {
			if h, err := s.History(ctx, "120", 10); err != nil || len(h) != 10 {
				b.Fatal(len(h), err)
			}
		}
	})
	b.Run("record-against-bot", func(b *testing.B) {
		for b.Loop() {
			if r, err := s.RecordAgainstBot(ctx, "120"); err != nil || len(r) == 0 {
				b.Fatal(r, err)
			}
		}
	})
	b.Run("streak-history-200", func(b *testing.B) {
		for b.Loop() {
			if _, err := s.History(ctx, "120", 200); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("leaderboard", func(b *testing.B) {
		for b.Loop() {
			if top, err := s.Leaderboard(ctx, "g", growthAt(now), 10); err != nil || len(top) != 10 {
				b.Fatal(err)
			}
		}
	})
	// The integrity check every start runs (Open's quickCheck).
	b.Run("quick-check", func(b *testing.B) {
		for b.Loop() {
			if err := s.quickCheck(ctx); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("standing", func(b *testing.B) {
		for b.Loop() {
			if _, err := s.Standing(ctx, "120", "g", growthAt(now)); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkActiveGame times a move's read of its game by channel, its state
// kept (a move's usual case on SQLite).
func BenchmarkActiveGame(b *testing.B) {
	s, _ := openTemp(b)
	ctx := context.Background()
	g := newGame(b, s, "chan1", record.Human(alice), record.Bot(1), 8)
	playRandom(b, s, g, 10, rand.New(rand.NewPCG(1, 2)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.ActiveGame(ctx, "chan1"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkActiveGameAfterAWrite times the same read with a turn written
// just before each (not timed), as a move finds it: on SQLite the readers'
// page caches are then stale, as every commit of the writer makes them.
func BenchmarkActiveGameAfterAWrite(b *testing.B) {
	s, _ := openTemp(b)
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(1, 2))
	// Other games, so that the tables and indexes span pages.
	for i := range 300 {
		playRandom(b, s, newGame(b, s, fmt.Sprint("other", i), record.Human(alice), record.Bot(1), 8), 20, rng)
	}
	n := 0
	g := newGame(b, s, "chan0", record.Human(alice), record.Bot(1), 8)
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		if g.State.Over() {
			finish(b, s, g, record.EndNormal)
			n++
			g = newGame(b, s, fmt.Sprint("chan", n), record.Human(alice), record.Bot(1), 8)
		}
		playRandom(b, s, g, 1, rng)
		b.StartTimer()
		if _, err := s.ActiveGame(ctx, g.ChannelID); err != nil {
			b.Fatal(err)
		}
	}
}
