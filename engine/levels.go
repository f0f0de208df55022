package engine

import (
	_ "embed"
	"fmt"
	"strconv"

	"othello-bot/internal/datafile"
)

// levels.txt is each level's approximate rating on our own Elo scale,
// fitted from arena matches by cmd/ratings (its header says how).
//
//go:embed levels.txt
var levelsData string

var levelRatings = func() [MaxLevel + 1]int {
	r, err := parseLevels(levelsData)
	if err != nil {
		panic(err) // the embedded file; TestLevelRatings reads it
	}
	return r
}()

func parseLevels(text string) ([MaxLevel + 1]int, error) {
	var r [MaxLevel + 1]int
	for _, l := range datafile.Lines(text) {
		if len(l.Fields) != 2 {
			return r, fmt.Errorf("levels line %d: want a level and a rating", l.N)
		}
		level, err1 := strconv.Atoi(l.Fields[0])
		rating, err2 := strconv.Atoi(l.Fields[1])
		if err1 != nil || err2 != nil || level < MinLevel || level > MaxLevel || rating <= 0 {
			return r, fmt.Errorf("levels line %d: %q is not a level and a rating", l.N, l.Fields)
		}
		r[level] = rating
	}
	return r, nil
}

// LevelRating is a level's approximate rating (on the scale of
// levels.txt: level 1 = 500), and false when it was not measured.
func LevelRating(level int) (int, bool) {
	if level < MinLevel || level > MaxLevel || levelRatings[level] == 0 {
		return 0, false
	}
	return levelRatings[level], true
}
