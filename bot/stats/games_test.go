package stats

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"othello-bot/bot"
	"othello-bot/game"
	"othello-bot/opening"
	"othello-bot/place"
	"othello-bot/record"
)

// runningOnly is a stats store with running games and nothing else.
type runningOnly struct{ games []*record.Game }

func (r runningOnly) RunningGames(_ context.Context, guildID, playerID string, limit int) ([]*record.Game, error) {
	var out []*record.Game
	for _, g := range r.games {
		if g.GuildID == guildID && (playerID == "" || g.Black.Player.ID == playerID || g.White.Player.ID == playerID) {
			out = append(out, g)
		}
	}
	return out[:min(len(out), limit)], nil
}
func (runningOnly) Leaderboard(context.Context, string, record.DeviationGrowth, int) ([]record.Standing, error) {
	return nil, nil
}
func (runningOnly) Standing(context.Context, string, string, record.DeviationGrowth) (record.Standing, error) {
	return record.Standing{}, record.ErrNotFound
}
func (runningOnly) History(context.Context, string, int) ([]record.HistoryEntry, error) {
	return nil, nil
}
func (runningOnly) RecordAgainstBot(context.Context, string) ([]record.LevelRecord, error) {
	return nil, nil
}
func (runningOnly) FinishedGames(context.Context, string, int, int) ([]opening.Played, error) {
	return nil, nil
}

type clock struct{}

func (clock) Now() time.Time { return time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC) }

// GamePage: pages at /g/ID.
func (clock) GamePage(g *record.Game) string {
	return "https://othello.example/g/" + strconv.FormatInt(g.ID, 10)
}

// Every DM shares the empty server id: outside a server /games lists the
// asker's own games only, whoever they name.
func TestGamesInDMsStayTheirPlayers(t *testing.T) {
	ann, ben := record.Player{ID: "1", Name: "ann"}, record.Player{ID: "2", Name: "ben"}
	start, _ := game.NewPosition(6)
	annsGame := &record.Game{ID: 1, ChannelID: "dm-ann", Black: record.Human(ann), White: record.Bot(1), State: game.NewGame(start),
		Status: record.Active}
	s := New(clock{}, runningOnly{games: []*record.Game{annsGame}})
	ask := func(who record.Player, channel string, opts map[string]string) string {
		r, err := s.listGames(context.Background(), bot.Request{Kind: bot.Command, Command: "games", User: who, ChannelID: channel,
			Place: place.BotDM, Options: opts})
		if err != nil || r.Message == nil || r.Message.Embed == nil {
			t.Fatalf("/games: %+v %v", r.Message, err)
		}
		for _, row := range r.Message.Components {
			for _, b := range row.Buttons {
				if !strings.Contains(r.Message.Embed.Description, strings.TrimPrefix(b.Label, "Watch ")) {
					t.Errorf("a Watch button for a game not listed: %+v", b)
				}
			}
		}
		return r.Message.Embed.Description
	}
	if !strings.Contains(ask(ann, "dm-ann", nil), "#1") {
		t.Error("ann's /games in her DM does not list her game")
	}
	for _, opts := range []map[string]string{nil, {"user": ann.ID}} {
		if strings.Contains(ask(ben, "dm-ben", opts), "#1") {
			t.Errorf("ben's /games %v in his DM lists ann's game", opts)
		}
	}
}
