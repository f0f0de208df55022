package rated

import (
	"slices"
	"testing"
	"time"

	"othello-bot/game"
	"othello-bot/record"
)

var (
	ann = record.Player{ID: "ann", Name: "ann"}
	ben = record.Player{ID: "ben", Name: "ben"}
)

// The rating rules: only rated games between members that were not
// aborted count, in the server and globally.
func TestRatingRules(t *testing.T) {
	start, _ := game.NewPosition(8)
	pvp := &record.Game{GuildID: "g", Rated: true, Black: record.Human(ann), White: record.Human(ben), State: game.NewGame(start)}
	win := record.Result{Winner: game.Black, Reason: record.EndNormal, FinishedAt: time.Now()}
	u := Update(pvp, win)
	if u == nil || !slices.Equal(u.Scopes, []string{record.GlobalScope, "g"}) {
		t.Fatalf("update %+v", u)
	}
	b, w := u.Apply(record.Rating{}, record.Rating{})
	if b.Rating <= 1500 || w.Rating >= 1500 || b.Wins != 1 || w.Losses != 1 || b.Games != 1 {
		t.Errorf("after a win: black %+v, white %+v", b, w)
	}
	for name, g := range map[string]*record.Game{
		"unrated": {Rated: false, Black: record.Human(ann), White: record.Human(ben)},
		"vs bot":  {Rated: true, Black: record.Human(ann), White: record.Bot(5)},
	} {
		if Update(g, win) != nil {
			t.Errorf("%s game rated", name)
		}
	}
	if Update(pvp, record.Result{Reason: record.EndAbort}) != nil {
		t.Error("aborted game rated")
	}
}
