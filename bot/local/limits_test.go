package local_test

import (
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
	"unicode"

	"othello-bot/app"
	"othello-bot/bot"
	"othello-bot/bot/local"
	"othello-bot/catalog"
	"othello-bot/game"
	"othello-bot/rating/rated"
	"othello-bot/record"
)

// The longest /history (ten 26x26 games against long-named opponents), the
// longest /leaderboard and /stats stay within Discord's limits without
// the last guard having to cut anything.
func TestHistoryAndLeaderboardWithinLimits(t *testing.T) {
	e := open(t, t.TempDir())
	logs := &lockedBuffer{}
	svc := app.New(e.store, nil, e.clock, e.adapter, app.Config{Config: testConfig()}, slog.New(slog.NewTextHandler(logs, nil)))
	ctx := context.Background()
	long := func(i int) record.Player {
		return record.Player{ID: fmt.Sprintf("%019d", i), Name: fmt.Sprintf("%02d", i) + strings.Repeat("*_|`", 8)[:30]}
	}
	me := long(0)
	rng := rand.New(rand.NewPCG(1, 2))
	finishGame := func(a, b record.Player, size int, isRated bool) {
		start, _ := game.NewPosition(size)
		now := e.clock.Now()
		g := &record.Game{GuildID: local.GuildID, ChannelID: fmt.Sprint("h", a.ID, b.ID, rng.Uint64()), Black: record.Human(a),
			White: record.Human(b), Rated: isRated, State: game.NewGame(start), CreatedAt: now, UpdatedAt: now, TurnStartedAt: now}
		if err := e.store.CreateGame(ctx, g); err != nil {
			t.Fatal(err)
		}
		rules := g.State
		for !rules.Over() {
			moves := rules.Position().LegalMoves()
			plies, _ := rules.Play(moves[rng.IntN(len(moves))])
			if err := e.store.AppendTurn(ctx, g, record.Turn{Plies: plies, At: now}); err != nil {
				t.Fatal(err)
			}
		}
		bd, wd := g.Position().Count()
		result := record.Result{FinishedAt: now, BlackDiscs: bd, WhiteDiscs: wd, Winner: g.Position().Winner(), Reason: record.EndNormal}
		if err := e.store.FinishGame(ctx, g, result, rated.Update(g, result)); err != nil {
			t.Fatal(err)
		}
		e.clock.Advance(time.Minute)
	}
	for i := 1; i <= 10; i++ {
		finishGame(me, long(i), 26, true)
	}
	for i := 11; i <= 40; i++ {
		finishGame(long(i), long(i+1), 4, true)
	}
	for _, lang := range catalog.Supported() {
		for _, req := range []bot.Request{
			{Kind: bot.Command, Command: "history"},
			{Kind: bot.Command, Command: "stats"},
			{Kind: bot.Command, Command: "leaderboard", Options: map[string]string{"scope": "global"}},
			{Kind: bot.Command, Command: "leaderboard"},
		} {
			req.User, req.GuildID, req.ChannelID = me, local.GuildID, local.ChannelID
			req.Locale, req.GuildLocale = string(lang), string(lang)
			resp := svc.Handle(ctx, req)
			if resp.Message == nil || resp.Message.Embed == nil {
				t.Fatalf("%s %s: %+v", lang, req.Command, resp.Message)
			}
			if errs := resp.Message.LimitErrors(); len(errs) > 0 {
				t.Errorf("%s %s: %v", lang, req.Command, errs)
			}
			if lang != catalog.English && !strings.ContainsFunc(resp.Message.Embed.Title, isKanaOrKanji) {
				t.Errorf("%s %s: the title %q is not in the reader's language", lang, req.Command, resp.Message.Embed.Title)
			}
			if req.Command == "history" && strings.Count(resp.Message.Embed.Description, "**#") < 5 {
				t.Errorf("%s history shows too few games:\n%s", lang, resp.Message.Embed.Description)
			}
		}
	}
	if strings.Contains(logs.String(), "broke Discord's limits") {
		t.Fatalf("a builder went over a limit:\n%s", logs.String())
	}
}

func isKanaOrKanji(r rune) bool {
	return unicode.In(r, unicode.Hiragana, unicode.Katakana, unicode.Han)
}
