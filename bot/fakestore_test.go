package bot

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"sync"
	"time"

	"othello-bot/game"
	"othello-bot/record"
)

// fakeStore keeps the service's records in memory, as storage does in
// SQLite: optimistic versions, one active game per channel, one pending
// challenge per challenger and channel. Every load returns a copy.
type fakeStore struct {
	mu         sync.Mutex
	games      map[int64]*record.Game
	analyses   map[int64][]byte
	challenges map[int64]*record.Challenge
	ratings    map[string]record.Rating // player + " " + scope
	styles     map[string]record.Style
	langs      map[string]string // "user " + id, "guild " + id, "locale " + id
	settings   map[string]string
	nextID     int64
	finished   []record.Result
	// messageVersions is the version each game's live message shows;
	// archiveClaims: a game's thread claimed for archiving until then
	// (zero: archived).
	messageVersions map[int64]int64
	messageWrites   int // SetGameMessage calls
	archiveClaims   map[int64]time.Time
	// failAppend, when set, is returned by the next AppendTurn.
	failAppend error
}

func newFakeStore() *fakeStore {
	return &fakeStore{games: map[int64]*record.Game{}, challenges: map[int64]*record.Challenge{},
		ratings: map[string]record.Rating{}, styles: map[string]record.Style{}, langs: map[string]string{},
		messageVersions: map[int64]int64{}, archiveClaims: map[int64]time.Time{}}
}

var (
	_ GameStore       = (*fakeStore)(nil)
	_ ChallengeStore  = (*fakeStore)(nil)
	_ PreferenceStore = (*fakeStore)(nil)
)

func copyGame(g *record.Game) *record.Game {
	c := *g
	state, err := game.ReplayPlies(g.State.Start(), g.Plies())
	if err != nil {
		panic(err)
	}
	c.State = state
	if g.Result != nil {
		r := *g.Result
		c.Result = &r
	}
	return &c
}

func (f *fakeStore) ReserveGameID(context.Context) (int64, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.nextID++
	return f.nextID, nil
}

func (f *fakeStore) CreateGame(_ context.Context, g *record.Game) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.createGame(g)
}

func (f *fakeStore) createGame(g *record.Game) error {
	for _, other := range f.games {
		if other.ChannelID == g.ChannelID && other.Status == record.Active {
			return record.ErrChannelBusy
		}
	}
	if g.ID == 0 {
		f.nextID++
		g.ID = f.nextID
	}
	g.Version, g.Status = 1, record.Active
	f.games[g.ID] = copyGame(g)
	return nil
}

func (f *fakeStore) Game(_ context.Context, id int64) (*record.Game, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	g, ok := f.games[id]
	if !ok {
		return nil, record.ErrNotFound
	}
	return copyGame(g), nil
}

func (f *fakeStore) ActiveGame(_ context.Context, channelID string) (*record.Game, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, g := range f.games {
		if g.ChannelID == channelID && g.Status == record.Active {
			return copyGame(g), nil
		}
	}
	return nil, record.ErrNotFound
}

func (f *fakeStore) ActiveGames(_ context.Context) ([]*record.Game, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []*record.Game
	for _, g := range f.games {
		if g.Status == record.Active {
			out = append(out, copyGame(g))
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, nil
}

func (f *fakeStore) StalledGames(ctx context.Context, before time.Time) ([]*record.Game, error) {
	all, _ := f.ActiveGames(ctx)
	var out []*record.Game
	for _, g := range all {
		if g.UpdatedAt.Before(before) && (g.ToMove().IsBot() || g.State.Over()) {
			out = append(out, g)
		}
	}
	return out, nil
}

func (f *fakeStore) check(g *record.Game) (*record.Game, error) {
	stored, ok := f.games[g.ID]
	switch {
	case !ok:
		return nil, record.ErrNotFound
	case stored.Status != record.Active:
		return nil, record.ErrNotActive
	case stored.Version != g.Version:
		return nil, record.ErrStale
	}
	return stored, nil
}

func (f *fakeStore) AppendTurn(_ context.Context, g *record.Game, t record.Turn) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.failAppend; err != nil {
		f.failAppend = nil
		return err
	}
	if _, err := f.check(g); err != nil {
		return err
	}
	end := t.End
	t.End = nil
	g.Turned(t)
	if t.Shows != "" && t.Shows == f.games[g.ID].MessageID {
		f.messageVersions[g.ID] = g.Version
	}
	if end != nil { // the last turn and the end, together
		f.finishLocked(g, *end, t.Rate)
	}
	f.games[g.ID] = copyGame(g)
	f.games[g.ID].ShownIn = "" // not stored
	return nil
}

func (f *fakeStore) RestartTurn(_ context.Context, g *record.Game, t record.Turn) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if _, err := f.check(g); err != nil {
		return err
	}
	g.Restarted(t)
	f.games[g.ID] = copyGame(g)
	return nil
}

func (f *fakeStore) RunningGames(_ context.Context, guildID, playerID string, limit int) ([]*record.Game, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []*record.Game
	for _, g := range f.games {
		if g.Status == record.Active && g.GuildID == guildID &&
			(playerID == "" || g.Black.Player.ID == playerID || g.White.Player.ID == playerID) {
			out = append(out, copyGame(g))
		}
	}
	slices.SortFunc(out, func(a, b *record.Game) int { return int(a.ID - b.ID) })
	return out[:min(limit, len(out))], nil
}

func (f *fakeStore) LatestHome(_ context.Context, channelID string) (record.GameHome, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	var best *record.Game
	for _, g := range f.games {
		if g.ChannelID == channelID && (best == nil || g.ID > best.ID) {
			best = g
		}
	}
	if best == nil {
		return record.GameHome{}, record.ErrNotFound
	}
	return record.GameHome{GameID: best.ID, ParentID: best.ParentID, Status: best.Status}, nil
}

func (f *fakeStore) ActiveGameCount(_ context.Context, playerID string) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := 0
	for _, g := range f.games {
		if g.Status == record.Active && (g.Black.Player.ID == playerID || g.White.Player.ID == playerID) {
			n++
		}
	}
	return n, nil
}

func (f *fakeStore) DueArchives(_ context.Context, now time.Time) ([]record.ThreadToArchive, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []record.ThreadToArchive
	for id, g := range f.games {
		if due := f.archiveDue(id); !due.IsZero() && !due.After(now) {
			out = append(out, record.ThreadToArchive{GameID: id, ThreadID: g.ChannelID})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].GameID < out[j].GameID })
	return out, nil
}

// archiveDue is when a game's thread is due to be archived: its result's
// time, or its claim's end; zero once archived. f.mu is held.
func (f *fakeStore) archiveDue(id int64) time.Time {
	if at, ok := f.archiveClaims[id]; ok {
		return at
	}
	if g := f.games[id]; g != nil && g.Result != nil {
		return g.Result.ArchiveAt
	}
	return time.Time{}
}

func (f *fakeStore) ClaimArchive(_ context.Context, gameID int64, now, until time.Time) (bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if due := f.archiveDue(gameID); due.IsZero() || due.After(now) {
		return false, nil
	}
	f.archiveClaims[gameID] = until
	return true, nil
}

func (f *fakeStore) ArchiveDone(_ context.Context, gameID int64) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.archiveClaims[gameID] = time.Time{}
	return nil
}

func (f *fakeStore) Analysis(_ context.Context, gameID int64) ([]byte, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if r, ok := f.analyses[gameID]; ok {
		return r, nil
	}
	return nil, record.ErrNotFound
}

func (f *fakeStore) SaveAnalysis(_ context.Context, gameID int64, report []byte, _ time.Time) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.analyses == nil {
		f.analyses = map[int64][]byte{}
	}
	f.analyses[gameID] = report
	return nil
}

func (f *fakeStore) TakeBack(_ context.Context, g *record.Game, keep int, t record.Turn) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if _, err := f.check(g); err != nil {
		return err
	}
	state, err := g.TakeBackState(keep)
	if err != nil {
		return err
	}
	g.TookBack(state, t)
	f.games[g.ID] = copyGame(g)
	return nil
}

func (f *fakeStore) FinishGame(_ context.Context, g *record.Game, r record.Result, rate *record.RatingUpdate) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if _, err := f.check(g); err != nil {
		return err
	}
	f.finishLocked(g, r, rate)
	f.games[g.ID] = copyGame(g)
	return nil
}

// finishLocked ends g with r and its ratings; the caller holds f.mu.
func (f *fakeStore) finishLocked(g *record.Game, r record.Result, rate *record.RatingUpdate) {
	g.Finished(r)
	f.finished = append(f.finished, *g.Result)
	if rate != nil {
		for _, scope := range rate.Scopes {
			kb, kw := g.Black.Player.ID+" "+scope, g.White.Player.ID+" "+scope
			b, w := rate.Apply(f.ratings[kb], f.ratings[kw])
			f.ratings[kb], f.ratings[kw] = b, w
		}
	}
}

func (f *fakeStore) DueGames(_ context.Context, now time.Time, remindBefore time.Duration) ([]*record.Game, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []*record.Game
	for _, g := range f.games {
		remindAt := g.RemindAt
		if remindAt.IsZero() {
			remindAt = g.Deadline.Add(-remindBefore)
		}
		if g.Status == record.Active && !g.Deadline.IsZero() &&
			(!now.Before(g.Deadline) || !g.Reminded && !now.Before(remindAt)) {
			out = append(out, copyGame(g))
		}
	}
	return out, nil
}

func (f *fakeStore) MarkReminded(_ context.Context, g *record.Game) (bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	stored, err := f.check(g)
	if err != nil || stored.Reminded {
		return false, nil
	}
	stored.Reminded, g.Reminded = true, true
	return true, nil
}

func (f *fakeStore) SetGameMessage(_ context.Context, gameID, version int64, messageID string) (string, bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.messageWrites++
	g, ok := f.games[gameID]
	if !ok {
		return "", false, record.ErrNotFound
	}
	previous, live, shows := record.LiveMessage(g.MessageID, f.messageVersions[gameID], messageID, version)
	if live {
		g.MessageID, f.messageVersions[gameID] = messageID, shows
	}
	return previous, live, nil
}

func (f *fakeStore) CreateChallenge(_ context.Context, c *record.Challenge) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, o := range f.challenges {
		if o.Status == record.ChallengePending && o.Challenger.ID == c.Challenger.ID && o.ChannelID == c.ChannelID {
			return record.ErrChallengePending
		}
	}
	f.nextID++
	c.ID, c.Status = f.nextID, record.ChallengePending
	cc := *c
	f.challenges[c.ID] = &cc
	return nil
}

func (f *fakeStore) Challenge(_ context.Context, id int64) (*record.Challenge, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	c, ok := f.challenges[id]
	if !ok {
		return nil, record.ErrNotFound
	}
	cc := *c
	return &cc, nil
}

func (f *fakeStore) SetChallengeMessage(_ context.Context, id int64, messageID string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.challenges[id].MessageID = messageID
	return nil
}

func (f *fakeStore) CloseChallenge(_ context.Context, id int64, status record.ChallengeStatus) (bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	c := f.challenges[id]
	if c == nil || c.Status != record.ChallengePending {
		return false, nil
	}
	c.Status = status
	return true, nil
}

func (f *fakeStore) AcceptChallenge(_ context.Context, challengeID int64, g *record.Game) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	c := f.challenges[challengeID]
	if c == nil || c.Status != record.ChallengePending {
		return record.ErrNotPending
	}
	if err := f.createGame(g); err != nil {
		return err
	}
	c.Status, c.GameID = record.ChallengeAccepted, g.ID
	return nil
}

func (f *fakeStore) PendingChallenges(_ context.Context) ([]*record.Challenge, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []*record.Challenge
	for _, c := range f.challenges {
		if c.Status == record.ChallengePending {
			cc := *c
			out = append(out, &cc)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ExpiresAt.Before(out[j].ExpiresAt) })
	return out, nil
}

func (f *fakeStore) RecentChallenges(_ context.Context, playerID string, n int) ([]*record.Challenge, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []*record.Challenge
	for _, c := range f.challenges {
		if c.Challenger.ID == playerID {
			cc := *c
			out = append(out, &cc)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID > out[j].ID })
	return out[:min(n, len(out))], nil
}

func (f *fakeStore) Leaderboard(context.Context, string, record.DeviationGrowth, int) ([]record.Standing, error) {
	return nil, nil
}

func (f *fakeStore) Standing(_ context.Context, playerID, scope string, _ record.DeviationGrowth) (record.Standing, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	r, ok := f.ratings[playerID+" "+scope]
	if !ok {
		return record.Standing{}, record.ErrNotFound
	}
	return record.Standing{Rating: r, Rank: 1}, nil
}

func (f *fakeStore) History(context.Context, string, int) ([]record.HistoryEntry, error) {
	return nil, nil
}

func (f *fakeStore) RecordAgainstBot(context.Context, string) ([]record.LevelRecord, error) {
	return nil, nil
}

func (f *fakeStore) BoardStyle(_ context.Context, playerID string) (record.Style, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if s, ok := f.styles[playerID]; ok {
		return s, nil
	}
	return record.StyleAuto, nil
}

func (f *fakeStore) SetBoardStyle(_ context.Context, p record.Player, style record.Style, _ time.Time) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.styles[p.ID] = style
	return nil
}

func (f *fakeStore) Languages(_ context.Context, playerID, guildID string) (record.Languages, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return record.Languages{User: f.langs["user "+playerID], Guild: f.langs["guild "+guildID], GuildLocale: f.langs["locale "+guildID]}, nil
}

func (f *fakeStore) SetUserLanguage(_ context.Context, p record.Player, lang string, _ time.Time) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.langs["user "+p.ID] = lang
	return nil
}

// SetAvatar and Avatar keep avatars as the langs map keeps languages.
func (f *fakeStore) SetAvatar(_ context.Context, p record.Player, hash string, _ time.Time) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.langs["avatar "+p.ID] = hash
	return nil
}

func (f *fakeStore) Avatar(_ context.Context, playerID string) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.langs["avatar "+playerID], nil
}

func (f *fakeStore) SetGuildLanguage(_ context.Context, guildID, lang string, _ time.Time) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.langs["guild "+guildID] = lang
	return nil
}

func (f *fakeStore) SetGuildLocale(_ context.Context, guildID, locale string, _ time.Time) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.langs["locale "+guildID] = locale
	return nil
}

// fakeNotifier records what the service posts and edits.
type fakeNotifier struct {
	mu      sync.Mutex
	sent    []sentMessage
	edited  []sentMessage
	removed []string
	n       int
	// unreachable channels are where the bot is no member and no token
	// lives: nothing can be posted or edited there.
	unreachable map[string]bool
}

type sentMessage struct {
	channel, id string
	msg         Message
}

func (n *fakeNotifier) Send(_ context.Context, channelID string, m Message) (string, error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.unreachable[channelID] {
		return "", ErrUnreachable
	}
	n.n++
	id := fmt.Sprint("m", n.n)
	n.sent = append(n.sent, sentMessage{channelID, id, m})
	return id, nil
}

func (n *fakeNotifier) Edit(_ context.Context, channelID, messageID string, m Message) error {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.unreachable[channelID] {
		return ErrUnreachable
	}
	n.edited = append(n.edited, sentMessage{channelID, messageID, m})
	return nil
}

func (n *fakeNotifier) RemoveComponents(_ context.Context, _, messageID string) error {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.removed = append(n.removed, messageID)
	return nil
}

func (n *fakeNotifier) EditReply(context.Context, string, Message) (string, error) {
	return "", fmt.Errorf("no tokens here")
}

// fakeClock moves only when told.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// The fake notifier has no threads: games stay in their channels.
func (n *fakeNotifier) CreateThread(context.Context, string, string) (string, error) {
	return "", ErrThreadsNotAllowed
}
func (n *fakeNotifier) ArchiveThread(context.Context, string) error { return nil }

// ActiveTournamentGame: none (the fake holds no tournaments).
func (f *fakeStore) ActiveTournamentGame(context.Context, string) (int64, string, error) {
	return 0, "", record.ErrNotFound
}

// No server here has a daily puzzle.
func (f *fakeStore) DailyPuzzleSettings(context.Context) ([]record.DailySetting, error) {
	return nil, nil
}

func (f *fakeStore) Setting(_ context.Context, key string) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.settings[key], nil
}

func (f *fakeStore) SetSetting(_ context.Context, key, value string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.settings == nil {
		f.settings = map[string]string{}
	}
	f.settings[key] = value
	return nil
}
