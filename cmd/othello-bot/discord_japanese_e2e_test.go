package main

import (
	"regexp"
	"strings"
	"testing"

	"othello-bot/bot/discord/discordtest"
	"othello-bot/catalog"
)

// japaneseText finds kana or kanji: a line a Japanese reader can read.
var japaneseText = regexp.MustCompile(`[\p{Hiragana}\p{Katakana}\p{Han}]`)

// A user whose Discord is in Japanese, in a server whose Discord is in
// English, gets their only-you replies in Japanese while what the channel
// sees stays in English; once the server's Discord is Japanese, the
// channel's messages are too. The language comes from the interaction's
// own locale and guild_locale fields, through the real run wiring.
func TestDiscordJapaneseReader(t *testing.T) {
	srv := newFake(t)
	dir := t.TempDir()
	r := startBot(t, srv, testBotConfig(srv, dir))
	hanako := discordtest.User{ID: "7000000000000000009", Name: "hanako", Locale: "ja"}
	ja, en := catalog.For(catalog.Japanese), catalog.For(catalog.English)

	// Only-you: /help, in her language.
	help := srv.Reply(r.do(srv.Command(hanako, lobby, "help", nil)))
	if help == nil || !help.Ephemeral || !strings.Contains(help.Text(), "/打つ") {
		t.Fatalf("a Japanese reader's /help:\n%+v", help)
	}
	// Public, in an English server: /stats in English, whoever asked.
	stats := srv.Reply(r.do(srv.Command(hanako, lobby, "stats", nil)))
	if stats == nil || stats.Ephemeral || !strings.Contains(stats.Text(), en.T("stats.none_yours")) {
		t.Fatalf("/stats in an English server:\n%+v", stats)
	}
	// Public, in an English server: English, whoever typed it.
	start := srv.Reply(r.do(srv.Command(hanako, lobby, "start", map[string]any{"level": 1, "size": 6, "color": "black"})))
	want := en.T("start.started", "Name", "hanako", "Bot", en.T("side.bot", "Level", 1))
	if start == nil || start.Ephemeral || !strings.Contains(start.Text(), want) {
		t.Fatalf("a public reply in an English server:\n%+v\nwant %q", start, want)
	}
	// A refusal only hanako sees is in her language.
	busy := srv.Reply(r.do(srv.Command(hanako, lobby, "start", map[string]any{"level": 1})))
	if busy == nil || !busy.Ephemeral || !japaneseText.MatchString(busy.Text()) {
		t.Fatalf("an only-you refusal for a Japanese reader:\n%+v", busy)
	}
	// The server's Discord turns Japanese: the channel's messages follow.
	srv.SetGuildLocale(srv.GuildID, "ja")
	board := srv.Reply(r.do(srv.Command(alice, hall, "start", map[string]any{"level": 1, "size": 6, "color": "black"})))
	want = ja.T("start.started", "Name", "alice", "Bot", ja.T("side.bot", "Level", 1))
	if board == nil || !strings.Contains(board.Text(), want) {
		t.Fatalf("a public reply in a Japanese server:\n%+v\nwant %q", board, want)
	}
	checkClean(t, srv, r)
}
