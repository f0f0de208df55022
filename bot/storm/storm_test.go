package storm

import (
	"context"
	"errors"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"othello-bot/bot"
	"othello-bot/catalog"
	"othello-bot/puzzle"
	"othello-bot/record"
	"othello-bot/storm"
)

// fakeStore keeps runs in memory, moving one only from where it stood, as
// the store's contract says; its puzzles are the built-in set.
type fakeStore struct {
	mu      sync.Mutex
	puzzles map[int64]puzzle.Record
	runs    map[int64]storm.Run
	claims  int // race edits asked for (ClaimRaceEdit)
}

func newFakeStore(t *testing.T) *fakeStore {
	set, err := puzzle.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	keys := make([]string, 0, len(set))
	for k := range set {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	f := &fakeStore{puzzles: map[int64]puzzle.Record{}, runs: map[int64]storm.Run{}}
	for i, k := range keys {
		r := puzzle.Rated(set[k])
		r.ID = int64(i + 1)
		f.puzzles[r.ID] = r
	}
	return f
}

func (f *fakeStore) StormPool(ctx context.Context, guildID string) ([]storm.Candidate, error) {
	var out []storm.Candidate
	for id, r := range f.puzzles {
		out = append(out, storm.Candidate{ID: id, Rating: r.Rating.Rating})
	}
	return out, nil
}

func (f *fakeStore) Puzzle(ctx context.Context, id int64) (puzzle.Record, error) {
	if r, ok := f.puzzles[id]; ok {
		return r, nil
	}
	return puzzle.Record{}, record.ErrNotFound
}

func (f *fakeStore) StartRun(ctx context.Context, r storm.Run) (int64, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	r.ID = int64(len(f.runs) + 1)
	f.runs[r.ID] = r
	return r.ID, nil
}

func (f *fakeStore) Run(ctx context.Context, id int64) (storm.Run, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if r, ok := f.runs[id]; ok {
		return r, nil
	}
	return storm.Run{}, record.ErrNotFound
}

func (f *fakeStore) SaveRun(ctx context.Context, r storm.Run, index, step int) (bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	was := f.runs[r.ID]
	if was.Index != index || was.Step != step || was.Over {
		return false, nil
	}
	f.runs[r.ID] = r
	return true, nil
}

func (f *fakeStore) RunBests(ctx context.Context, playerID string, mode storm.Mode, since time.Time) (int, int, error) {
	return 9999, 9999, nil
}

func (f *fakeStore) BestRun(ctx context.Context, guildID string, mode storm.Mode, from, to time.Time) (storm.Run, error) {
	return storm.Run{Player: record.Player{ID: "1", Name: longName}, Solved: 9999}, nil
}

type fakeCore struct{ now time.Time }

func (c fakeCore) Now() time.Time                          { return c.now }
func (c fakeCore) Logger(ctx context.Context) *slog.Logger { return slog.New(slog.DiscardHandler) }
func (c fakeCore) Send(ctx context.Context, channelID string, m bot.Message) (string, error) {
	return "m1", nil
}
func (c fakeCore) Edit(ctx context.Context, channelID, messageID string, m bot.Message) error {
	return nil
}
func (c fakeCore) PublicPrinter(ctx context.Context, guildID string) *catalog.Printer {
	return catalog.For(catalog.English)
}
func (c fakeCore) MissingPermission(req bot.Request, size int, style record.Style) string { return "" }

// The fake's races: what these tests need of them (the real store's are
// tested in package storage).
func (f *fakeStore) CreateRace(ctx context.Context, race storm.Race) (int64, int64, error) {
	return 0, 0, errors.New("no races here")
}
func (f *fakeStore) SetRaceMessage(ctx context.Context, id int64, messageID string) error { return nil }
func (f *fakeStore) Race(ctx context.Context, id int64) (storm.Race, error) {
	return storm.Race{}, record.ErrNotFound
}
func (f *fakeStore) JoinRace(ctx context.Context, run storm.Run) (int64, error) {
	return 0, storm.ErrRaceClosed
}
func (f *fakeStore) StartRace(ctx context.Context, id int64, starts, ends time.Time) (bool, error) {
	return false, nil
}
func (f *fakeStore) RaceRuns(ctx context.Context, raceID int64) ([]storm.Run, error) { return nil, nil }
func (f *fakeStore) DueRaces(ctx context.Context, now time.Time) ([]storm.Race, error) {
	return nil, nil
}
func (f *fakeStore) EndRace(ctx context.Context, id int64, from, to storm.RaceStatus) (bool, error) {
	return false, nil
}
func (f *fakeStore) ClaimRaceEdit(ctx context.Context, id int64, now time.Time, every time.Duration) (bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.claims++
	return false, nil
}

// longName is a 32-character name (Discord's longest) made of the
// characters escaping doubles.
var longName = strings.Repeat("*_|", 11)[:32]

var t0 = time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)

func request(locale, custom string, values ...string) bot.Request {
	kind, cmd := bot.Select, ""
	if custom == "" {
		kind, cmd = bot.Command, "puzzle"
	}
	return bot.Request{Kind: kind, Command: cmd, CustomID: custom, Values: values, Locale: locale, GuildID: "g",
		User: record.Player{ID: "1", Name: longName}}
}

// Every message of a run at its largest — the longest name, a score and
// combo in the thousands, the last puzzle of a streak — keeps within
// Discord's limits in both languages.
func TestRunMessagesWithinLimits(t *testing.T) {
	ctx := context.Background()
	f := newFakeStore(t)
	s := New(fakeCore{t0}, f)
	for _, l := range catalog.Supported() {
		p := catalog.For(l)
		for _, mode := range []storm.Mode{storm.Storm, storm.Streak} {
			resp, err := s.start(ctx, request(string(l), ""), mode)
			if err != nil || resp.Message == nil {
				t.Fatal(err)
			}
			check(t, "a run's first puzzle", resp.Message)
			r := storm.New(mode, record.Player{ID: "1", Name: longName}, "g", []int64{1, 2}, t0)
			r.ID, r.Index, r.Solved, r.Combo, r.BestCombo, r.Misses = 1<<40, 1, 9999, 9999, 9999, 9999
			notes := []string{p.T("storm.right_bonus", "Move", "h8", "Combo", 9999, "Seconds", 10)}
			m, err := s.runMessage(ctx, p, r, notes)
			if err != nil {
				t.Fatal(err)
			}
			check(t, "a run's puzzle", m)
			end, err := s.endMessage(ctx, p, r, []string{p.T("storm.wrong_storm", "Move", "h8", "Right", "a1"), p.T("storm.times_up")}, t0)
			if err != nil {
				t.Fatal(err)
			}
			check(t, "a run's end", end.Message)
		}
		fields, err := s.StatsFields(ctx, p, "1")
		if err != nil || len(fields) != 2 {
			t.Fatalf("stats fields %v %v", fields, err)
		}
		check(t, "the stats fields", &bot.Message{Embed: &bot.Embed{Title: "x", Fields: fields}})
		lines, err := s.DailyLines(ctx, p, "g", "2026-11-27")
		if err != nil || len(lines) != 1 {
			t.Fatalf("daily lines %v %v", lines, err)
		}
		check(t, "the daily line", &bot.Message{Content: lines[0]})
	}
}

func check(t *testing.T, what string, m *bot.Message) {
	t.Helper()
	if errs := m.LimitErrors(); len(errs) > 0 {
		t.Errorf("%s breaks Discord's limits: %v", what, errs)
	}
}

// Presses that are not answers — forged or stale custom ids, no value, a
// square the menu does not offer — are refused privately and move
// nothing; nor does a second answer to the same step.
func TestPressesThatAreNotAnswers(t *testing.T) {
	ctx := context.Background()
	f := newFakeStore(t)
	s := New(fakeCore{t0}, f)
	if _, err := s.start(ctx, request("en", ""), storm.Storm); err != nil {
		t.Fatal(err)
	}
	before, _ := f.Run(ctx, 1)
	rec, _ := f.Puzzle(ctx, before.Puzzle())
	for _, req := range []bot.Request{
		request("en", "storm"), request("en", "storm:1"), request("en", "storm:1:0"), request("en", "storm:x:0:0", "a1"),
		request("en", "storm:1:0:0"), request("en", "storm:1:0:0", "zz"), request("en", "storm:1:0:0", "a1", "b1"),
		request("en", "storm:7:0:0", rec.Line[0].String()), request("en", "storm:1:5:0", rec.Line[0].String()),
	} {
		resp, err := s.answer(ctx, req)
		if err != nil || resp.Message == nil || !resp.Message.Ephemeral || resp.Update {
			t.Errorf("%q %v: %+v %v", req.CustomID, req.Values, resp.Message, err)
		}
	}
	if after, _ := f.Run(ctx, 1); after.Index != before.Index || after.Step != before.Step || after.Solved != 0 || after.Misses != 0 {
		t.Fatalf("a press that is no answer moved the run: %+v", after)
	}
	ok, err := s.answer(ctx, request("en", "storm:1:0:0", rec.Line[0].String()))
	if err != nil || !ok.Update {
		t.Fatalf("the right answer: %+v %v", ok.Message, err)
	}
	again, _ := s.answer(ctx, request("en", "storm:1:0:0", rec.Line[0].String()))
	if again.Update || !strings.Contains(again.Message.Content, "answered this already") {
		t.Fatalf("a second answer: %+v", again.Message)
	}
}

// A race's messages at their largest — ten racers of the longest names,
// the largest numbers — keep within Discord's limits in both languages,
// taking racers, under way and over.
func TestRaceMessagesWithinLimits(t *testing.T) {
	race := storm.Race{ID: 1 << 40, Host: record.Player{ID: "h", Name: longName}, Puzzles: []int64{1}, Created: t0, End: t0.Add(storm.RaceDuration)}
	var runs []storm.Run
	for i := 0; i < storm.MaxRacers; i++ {
		r := race.Join(record.Player{ID: string(rune('a' + i)), Name: longName}, t0)
		r.ID, r.Solved, r.Misses = int64(i+1), 9999-i, 9999
		runs = append(runs, r)
	}
	for _, l := range catalog.Supported() {
		p := catalog.For(l)
		for _, st := range []storm.RaceStatus{storm.Lobby, storm.Racing, storm.Finished, storm.Closed} {
			race.Status = st
			lobby, track := lobbyMessage(p, race, runs, "https://othello.example/race/1-0123456789abcdef0123"), trackMessage(p, race, runs, "https://othello.example/race/1-0123456789abcdef0123")
			check(t, "a race's lobby", &lobby)
			check(t, "a race's track", &track)
		}
		for _, key := range []string{"race.opened", "race.full", "race.started", "race.joined", "race.not_in", "race.not_started", "race.over", "race.needs_server"} {
			check(t, key, &bot.Message{Content: p.T(key, "Max", storm.MaxRacers)})
		}
		check(t, "race.host_only", &bot.Message{Content: p.T("race.host_only", "Host", bot.Escape(longName))})
	}
}

// A racer's right move inside a puzzle of several moves leaves the
// track alone (it shows puzzles solved and missed, which did not change);
// the move that solves it asks for the track's edit. Asked for at every
// step, the step's edit took the second's one edit and the solve waited
// for the next tick (seen in TestPuzzleRacerThroughTheTerminal when the
// race dealt such a puzzle first).
func TestRaceTrackEditedWhenAPuzzleEnds(t *testing.T) {
	ctx := context.Background()
	f := newFakeStore(t)
	s := New(fakeCore{t0}, f)
	var rec puzzle.Record
	for id := int64(1); id <= int64(len(f.puzzles)); id++ {
		if r := f.puzzles[id]; len(r.Line) >= 3 {
			rec = r
			break
		}
	}
	if rec.ID == 0 {
		t.Fatal("no built-in puzzle of two moves or more")
	}
	race := storm.Race{ID: 7, GuildID: "g", Puzzles: []int64{rec.ID}, Created: t0, End: t0.Add(storm.RaceDuration)}
	racer := record.Player{ID: "1", Name: "alice"}
	id, _ := f.StartRun(ctx, race.Join(racer, t0))
	p := catalog.For(catalog.English)
	step := 0
	for {
		a, err := s.take(ctx, p, racer, id, 0, step, rec.Line[step].String())
		if err != nil || a.refused != "" {
			t.Fatalf("step %d: %+v %v", step, a, err)
		}
		if a.run.Index > 0 { // solved
			break
		}
		if f.claims != 0 {
			t.Fatalf("a right move at step %d of puzzle %d asked for the track's edit", step, rec.ID)
		}
		step = a.run.Step
	}
	if f.claims != 1 {
		t.Fatalf("the solving move asked for %d track edits, want 1", f.claims)
	}
}
