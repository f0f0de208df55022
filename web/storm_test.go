package web

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"

	"othello-bot/catalog"
	"othello-bot/record"
)

// recordingStorms answers as the bot would and keeps what it was asked:
// this file tests the pages' doors (who, from where, what body), the
// rules being bot/storm's own (tested there and end to end).
type recordingStorms struct {
	mu     sync.Mutex
	starts []string // player|guild|mode
	asked  []int64  // races
}

func (r *recordingStorms) StartRun(ctx context.Context, t *catalog.Printer, p record.Player, guildID, mode string) (StormRun, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.starts = append(r.starts, p.ID+"|"+guildID+"|"+mode)
	return StormRun{ID: 7, Mode: mode}, nil
}

func (r *recordingStorms) ShowRun(ctx context.Context, t *catalog.Printer, p record.Player, id int64) (StormRun, error) {
	if p.ID != "1" {
		return StormRun{}, ErrNotYours
	}
	if id != 7 {
		return StormRun{}, record.ErrNotFound
	}
	return StormRun{ID: 7}, nil
}

func (r *recordingStorms) AnswerRun(ctx context.Context, t *catalog.Printer, p record.Player, id int64, index, step int, square string) (StormRun, error) {
	v, err := r.ShowRun(ctx, t, p, id)
	if square != "d3" {
		v.Refused = "no"
	}
	return v, err
}

func (r *recordingStorms) ShowRace(ctx context.Context, t *catalog.Printer, id int64) (StormRace, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.asked = append(r.asked, id)
	return StormRace{Status: "racing"}, nil
}

// The run pages' doors: a run's state and answers need its player's
// session (401 without, 403 for another's, 404 for no run); an answer
// comes from the page itself as JSON (403 from another site), with a
// body in bounds (400); a refused answer is a 409 with the run as it
// stands. A start is dealt in the server the session says its player is
// a member of, and only there; a player's second start within two seconds
// is refused (a script could otherwise store thousands of runs a minute).
func TestStormDoors(t *testing.T) {
	f := newFixture(t)
	sessions := testSessions(t, 0)
	storms := &recordingStorms{}
	f.web.EnablePlay(sessions, &recordingActor{})
	f.web.EnableStorms(storms)
	alice, bob, carol := record.Player{ID: "1", Name: "alice"}, record.Player{ID: "2", Name: "bob"}, record.Player{ID: "3", Name: "carol"}
	do := func(method, path, session, body string, headers map[string]string) int {
		t.Helper()
		req, err := http.NewRequest(method, f.srv.URL+path, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		if session != "" {
			req.Header.Set("Authorization", "Bearer "+session)
		}
		if method == http.MethodPost {
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Sec-Fetch-Site", "same-origin")
		}
		for k, v := range headers {
			req.Header.Set(k, v)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	a, b := sessions.SessionToken(alice), sessions.SessionToken(bob)
	answer := `{"index": 0, "step": 0, "square": "d3"}`
	for _, c := range []struct {
		what                string
		method, path, token string
		body                string
		headers             map[string]string
		want                int
	}{
		{"the start page", "GET", "/storm", "", "", nil, 200},
		{"a run's page", "GET", "/storm/7", "", "", nil, 200},
		{"a run's page, not a number", "GET", "/storm/x7", "", "", nil, 404},
		{"the Activity's run page", "GET", "/activity/storm/7", "", "", nil, 200},
		{"a run's state, no session", "GET", "/storm/7/state", "", "", nil, 401},
		{"a run's state", "GET", "/storm/7/state", a, "", nil, 200},
		{"another's run", "GET", "/storm/7/state", b, "", nil, 403},
		{"no such run", "GET", "/storm/8/state", a, "", nil, 404},
		{"a forged session", "GET", "/storm/7/state", a + "x", "", nil, 401},
		{"an answer", "POST", "/storm/7/answer", a, answer, nil, 200},
		{"an answer in the Activity", "POST", "/activity/storm/7/answer", a, answer, nil, 200},
		{"a refused answer", "POST", "/storm/7/answer", a, `{"index": 0, "step": 0, "square": "a1"}`, nil, 409},
		{"an answer to another's run", "POST", "/storm/7/answer", b, answer, nil, 403},
		{"an answer from another site", "POST", "/storm/7/answer", a, answer, map[string]string{"Sec-Fetch-Site": "cross-site"}, 403},
		{"an answer as a form", "POST", "/storm/7/answer", a, answer, map[string]string{"Content-Type": "text/plain"}, 403},
		{"an answer of no square", "POST", "/storm/7/answer", a, `{"index": 0, "step": 0, "square": "d3d3d3"}`, nil, 400},
		{"an answer at a negative step", "POST", "/storm/7/answer", a, `{"index": 0, "step": -1, "square": "d3"}`, nil, 400},
		{"an answer that is not JSON", "POST", "/storm/7/answer", a, `index=0`, nil, 400},
		{"a start of no mode", "POST", "/storm/start", a, `{"mode": "blitz"}`, nil, 400},
		{"a start, no session", "POST", "/storm/start", "", `{"mode": "storm"}`, nil, 401},
		{"a start", "POST", "/storm/start", a, `{"mode": "storm"}`, nil, 200},
		{"a second start at once", "POST", "/storm/start", a, `{"mode": "storm"}`, nil, 429},
		{"a start in the Activity", "POST", "/activity/storm/start", sessions.sessionIn(carol, "500"), `{"mode": "streak"}`, nil, 200},
		{"a forged race", "GET", "/race/1-0000", "", "", nil, 404},
		{"a race by its number", "GET", "/race/1/state", "", "", nil, 404},
		{"a race", "GET", sessions.RacePath(1) + "/state", "", "", nil, 200},
		{"a race's page", "GET", sessions.RacePath(1), "", "", nil, 200},
	} {
		if got := do(c.method, c.path, c.token, c.body, c.headers); got != c.want {
			t.Errorf("%s: %d, want %d", c.what, got, c.want)
		}
	}
	if got := strings.Join(storms.starts, " "); got != "1||storm 3|500|streak" {
		t.Errorf("the runs started: %q, want alice's storm outside a server (once) and carol's streak in server 500", got)
	}
	if len(storms.asked) != 1 || storms.asked[0] != 1 {
		t.Errorf("the races asked for: %v", storms.asked)
	}
	// Another server's key does not open this one's races.
	if id, ok := testSessions(t, 1).raceID(strings.TrimPrefix(sessions.RacePath(1), "/race/")); ok {
		t.Errorf("a race key signed elsewhere read as race %d", id)
	}
}

// No text read as a race's key panics, and none opens a race but the
// key this server gave for it.
func FuzzRaceKey(f *testing.F) {
	s, err := NewSessions([]byte(strings.Repeat("k", KeySize)))
	if err != nil {
		f.Fatal(err)
	}
	given := map[string]int64{}
	for _, id := range []int64{1, 42, 1<<63 - 1} {
		key := strings.TrimPrefix(s.RacePath(id), "/race/")
		given[key] = id
		f.Add(key)
	}
	f.Add("")
	f.Add("-")
	f.Add("1-")
	f.Add("01-" + strings.TrimPrefix(s.RacePath(1), "/race/1-"))
	f.Fuzz(func(t *testing.T, key string) {
		id, ok := s.raceID(key)
		if want, was := given[key]; ok != was || ok && id != want {
			t.Fatalf("key %q read as race %d (%v); given for %d (%v)", key, id, ok, want, was)
		}
	})
}
