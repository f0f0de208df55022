package tv

import (
	"context"
	"errors"
	"log/slog"
	"othello-bot/schedule"
	"testing"
	"time"

	"othello-bot/bot"
	"othello-bot/catalog"
	"othello-bot/engine"
	"othello-bot/game"
	"othello-bot/record"
)

type store struct {
	set     record.TVSetting
	games   map[int64]*record.Game
	running []*record.Game
}

func (s *store) SetTV(_ context.Context, guild, channel string, _ time.Time) error {
	s.set = record.TVSetting{GuildID: guild, ChannelID: channel}
	return nil
}
func (s *store) TVSettings(context.Context) ([]record.TVSetting, error) {
	if s.set.ChannelID == "" {
		return nil, nil
	}
	return []record.TVSetting{s.set}, nil
}
func (s *store) SaveTVShow(_ context.Context, guild, channel, msg string, game int64, _ time.Time) error {
	if s.set.GuildID == guild && s.set.ChannelID == channel {
		s.set.MessageID, s.set.GameID = msg, game
	}
	return nil
}
func (s *store) RunningGames(context.Context, string, string, int) ([]*record.Game, error) {
	return s.running, nil
}
func (s *store) Game(_ context.Context, id int64) (*record.Game, error) {
	if g, ok := s.games[id]; ok {
		return g, nil
	}
	return nil, record.ErrNotFound
}
func (s *store) Rating(context.Context, string, string) (record.Rating, error) {
	return record.Rating{}, record.ErrNotFound
}

type core struct {
	sent      []string // the channel of each post
	edits     int
	editError error
	sendError error
	now       time.Time
}

func (c *core) Now() time.Time                      { return c.now }
func (c *core) Logger(context.Context) *slog.Logger { return slog.New(slog.DiscardHandler) }
func (c *core) PublicPrinter(context.Context, string) *catalog.Printer {
	return catalog.For(catalog.English)
}
func (c *core) Send(_ context.Context, channel string, _ bot.Message) (string, error) {
	if c.sendError != nil {
		return "", c.sendError
	}
	c.sent = append(c.sent, channel)
	return "m" + string(rune('0'+len(c.sent))), nil
}
func (c *core) Edit(context.Context, string, string, bot.Message) error {
	c.edits++
	return c.editError
}
func (c *core) MissingPermission(bot.Request, int, record.Style) string { return "" }
func (c *core) GameMessage(t *catalog.Printer, g *record.Game, _ []string) *bot.Message {
	return &bot.Message{Embed: &bot.Embed{Title: "Game"}, Components: []bot.Row{{Buttons: []bot.ButtonSpec{{Label: "Resign", CustomID: "resign:1"}}}},
		Game: &bot.GameRef{ID: g.ID}}
}

type lease struct{ mine bool }

func (l lease) Hold(context.Context) (bool, error) { return l.mine, nil }

func liveGame(id int64, tournament int64) *record.Game {
	start, _ := game.NewPosition(8)
	return &record.Game{ID: id, GuildID: "g", Black: record.Human(record.Player{ID: "1"}), White: record.Bot(3),
		State: game.NewGame(start), Status: record.Active, Version: 1, TournamentID: tournament}
}

func setup() (*Service, *store, *core) {
	casual, cup := liveGame(1, 0), liveGame(2, 9)
	st := &store{set: record.TVSetting{GuildID: "g", ChannelID: "tv"}, games: map[int64]*record.Game{1: casual, 2: cup},
		running: []*record.Game{casual, cup}}
	c := &core{}
	return New(c, st, engine.New(engine.Options{Searches: 1})), st, c
}

// The screen shows the tournament's game, without the players' buttons
// and not as the game's live message; it is edited only when the game
// moves; a screen that refuses edits is replaced by a new one.
func TestTheScreen(t *testing.T) {
	s, st, c := setup()
	ctx := context.Background()
	s.Follow(ctx)
	if len(c.sent) != 1 || st.set.GameID != 2 || st.set.MessageID != "m1" {
		t.Fatalf("sent %v, showing %+v", c.sent, st.set)
	}
	m := s.screen(ctx, catalog.For(catalog.English), st.games[2])
	if m.Game != nil || len(m.Components) != 0 {
		t.Errorf("the screen acts on the game: %+v", m)
	}
	s.Follow(ctx)
	if c.edits != 0 {
		t.Errorf("%d edits of a screen whose game did not move", c.edits)
	}
	st.games[2].Version++
	c.editError = errors.New("404: Unknown Message")
	for i := 0; i < maxEditFailures; i++ {
		st.games[2].Version++
		s.Follow(ctx)
	}
	if len(c.sent) != 2 || st.set.MessageID != "m2" || st.set.GameID != 2 {
		t.Fatalf("a screen refusing edits was not replaced: sent %v, showing %+v", c.sent, st.set)
	}
	// The game ends: shown once more, then the next takes a new screen.
	c.editError = nil
	st.games[2].Status, st.games[2].Version = record.Finished, 99
	st.running = st.running[:1]
	s.Follow(ctx) // the end shown
	s.Follow(ctx) // the screen let go
	s.Follow(ctx) // the next game
	if len(c.sent) != 3 || st.set.GameID != 1 {
		t.Fatalf("after the end: sent %v, showing %+v", c.sent, st.set)
	}
}

// A screen that cannot be posted rests a minute, not retried every round;
// a deleted TV channel turns the TV off.
func TestAFailingScreenRests(t *testing.T) {
	s, st, c := setup()
	ctx := context.Background()
	c.sendError = errors.New("403: Missing Access")
	s.Follow(ctx)
	c.sendError = nil
	s.Follow(ctx)
	if len(c.sent) != 0 {
		t.Fatalf("retried at once: %v", c.sent)
	}
	c.now = c.now.Add(restAfterFailure)
	s.Follow(ctx)
	if len(c.sent) != 1 {
		t.Fatalf("not retried after the rest: %v", c.sent)
	}
	s.ChannelDeleted(ctx, "elsewhere")
	if st.set.ChannelID != "tv" {
		t.Fatal("another channel's deletion turned the TV off")
	}
	s.ChannelDeleted(ctx, "tv")
	if st.set.ChannelID != "" {
		t.Fatal("the TV's channel was deleted and the TV is still on")
	}
}

// The TV's round runs as a scheduler's job: a process without its lease
// follows nothing, the holder does.
func TestOnlyTheLeaseHolderFollows(t *testing.T) {
	for _, mine := range []bool{false, true} {
		s, _, c := setup()
		sch := schedule.New(time.Now, lease{mine: mine}, nil)
		sch.Register(s.Job())
		sch.Tick(context.Background())
		if posted := len(c.sent) != 0; posted != mine {
			t.Fatalf("holding the lease %v, posted %v", mine, c.sent)
		}
	}
}
