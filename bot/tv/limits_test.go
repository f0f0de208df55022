package tv

import (
	"context"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"othello-bot/bot"
	"othello-bot/catalog"
	"othello-bot/engine"
	"othello-bot/game"
	"othello-bot/record"
	"othello-bot/storage"
	"othello-bot/timecontrol"
)

// A screen keeps within Discord's limits at the largest board and the
// longest names, in every language, through the real core's game message
// (and the 8x8 one with its evaluation bar).
func TestScreenWithinLimits(t *testing.T) {
	ctx := context.Background()
	st, err := storage.Open(ctx, filepath.Join(t.TempDir(), "bot.db"), storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	eng := engine.New(engine.Options{Searches: 1})
	core := bot.New(bot.StoresOf(st), eng, bot.SystemClock{}, nil, bot.Config{DefaultSize: 8, MaxEmojiSize: 10,
		PageURL: func(id string) string { return "https://othello.example/g/" + id }}, slog.New(slog.DiscardHandler))
	s := New(core, st, eng)
	long := func(id string) record.Player { return record.Player{ID: id, Name: strings.Repeat("*_|`<@", 6)[:32]} }
	control, _ := timecontrol.Parse("3+2")
	for _, size := range []int{8, 26} {
		start, _ := game.NewPosition(size)
		state := game.NewGame(start)
		for i := 0; i < 40 && !state.Over(); i++ {
			state.Play(state.Position().LegalMoves()[0])
		}
		now := time.Now()
		g := &record.Game{ID: 123456789, PublicID: "abcdefghijklmnop", GuildID: "g", ChannelID: "c", Black: record.Human(long("1")),
			White: record.Human(long("2")), Rated: true, State: state, Status: record.Active, Control: control,
			Left: [2]time.Duration{time.Minute, time.Minute}, CreatedAt: now, UpdatedAt: now, TurnStartedAt: now}
		for _, l := range catalog.Supported() {
			m := s.screen(ctx, catalog.For(l), g)
			if errs := m.LimitErrors(); len(errs) > 0 {
				t.Errorf("%dx%d, %s: %v", size, size, l, errs)
			}
			if m.Embed == nil || !strings.HasPrefix(m.Embed.Title, "📺") || len(m.Components) != 1 || m.Game != nil {
				t.Errorf("%dx%d, %s: the screen %+v", size, size, l, m)
			}
		}
	}
}
