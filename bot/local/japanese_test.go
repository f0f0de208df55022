package local_test

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"othello-bot/bot/local"
	"othello-bot/catalog"
	"othello-bot/opening"
)

// englishWord finds a run of Latin letters that reads as a word. What a
// Japanese reader may see in Latin letters: names, squares and
// transcripts (letters and digits), file names, and a few codes.
var englishWord = regexp.MustCompile(`[A-Za-z]{2,}`)

var latinAllowed = map[string]bool{"alice": true, "bob": true, "carol": true, "AI": true, "UTC": true,
	"png": true, "gif": true, "txt": true, "board": true, "game": true, "final": true, "replay": true, "analysis": true,
	"transcript": true, "thread": true, "terminal": true, "select": true, "Discord": true,
	// The XOT option's name in Japanese too: Othello players say XOT.
	"xot": true,
	// A record's format and the programs that read it are proper names.
	"GGF": true, "ggf": true, "Egaroucid": true, "Edax": true, "othello": true}

// openingNames are the words of the openings' names as the Japanese
// catalog writes them: in Japanese where Japanese has a name (虎, 兎 …),
// else as their sources name them (people and places: "Aubrey, Tanaka",
// "Brightwell") — the catalog's stated choice, so not English left over.
var openingNames = func() map[string]bool {
	words := map[string]bool{}
	ja := catalog.For(catalog.Japanese)
	for _, o := range opening.Standard().All() {
		for _, w := range englishWord.FindAllString(o.Name(ja), -1) {
			words[w] = true
		}
	}
	return words
}()

// noEnglish fails on any English word in what a Japanese reader saw,
// file paths aside (they are the terminal's, not the bot's).
func noEnglish(t *testing.T, what, out string) {
	t.Helper()
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "添付ファイル：") {
			continue
		}
		for _, w := range englishWord.FindAllString(line, -1) {
			if !latinAllowed[w] && !openingNames[w] {
				t.Errorf("%s: English %q left in a Japanese reader's line:\n%s", what, w, line)
				break
			}
		}
	}
}

// playOut plays a channel's game to its end from its menus, each move
// by the player to move (a bot moves by itself).
func playOut(t *testing.T, e *env) string {
	t.Helper()
	var out strings.Builder
	for i := 0; i < 400; i++ {
		g, err := e.store.ActiveGame(context.Background(), local.ChannelID)
		if err != nil {
			return out.String()
		}
		side := g.ToMove()
		if side.IsBot() {
			t.Fatalf("the bot is to move and did not: %+v", g)
		}
		moves := g.Position().LegalMoves()
		out.WriteString(e.say(side.Player.Name + ": select " + moves[len(moves)/2].String()))
	}
	t.Fatal("the game did not end")
	return ""
}

// A Japanese reader plays the bot, takes a challenge, and reads the
// analysis, their stats, history and help: every word is Japanese, and
// the commands are typed by their Japanese names.
func TestJapaneseReaderSeesNoEnglish(t *testing.T) {
	e := open(t, t.TempDir())
	e.adapter.Locale = "ja"
	out := e.say("/対局 レベル:1 手番:黒（先手） 盤サイズ:6")
	if !strings.Contains(out, "alice さんが AI（レベル1） との対局を始めました。") || !strings.Contains(out, "手番: alice ⚫") {
		t.Fatalf("start in Japanese:\n%s", out)
	}
	out += e.say("/ヒント", "/打つ z9", "bob: /打つ c4", "/待った")
	out += playOut(t, e)
	if !strings.Contains(out, "結果: ") || !strings.Contains(out, "棋譜：") {
		t.Fatalf("the finished game is not in Japanese:\n%s", out)
	}
	if !strings.Contains(out, "z9 は6×6の盤の外です") || !strings.Contains(out, "あなたはこの対局の対局者ではありません") {
		t.Errorf("refusals are not in Japanese:\n%s", out)
	}
	// A challenge, accepted and played to its end.
	out += e.say("/挑戦 相手:@bob 手番:black 盤サイズ:4 レート戦:true", "bob: click 受ける")
	if !strings.Contains(out, "bob さんが alice さんの挑戦を受けました。") {
		t.Fatalf("challenge accepted:\n%s", out)
	}
	out += playOut(t, e)
	out += e.say("/解析 対局番号:1")
	e.adapter.Service().WaitAnalyses()
	tail := e.out.String()[len(e.out.String())-min(len(e.out.String()), 4000):]
	_, tail, _ = strings.Cut(tail, "\n") // from a whole line: a cut word reads as English
	out += tail
	out += e.say("/成績", "/履歴", "/ランキング", "/ヘルプ", "/対局一覧", "/設定", "/再生 対局番号:2",
		"/定石", "/定石 手順:f5d6c3d3c4", "/定石 手順:f5a1", "/パズル", "/パズル 表示:自分の成績", "/パズル 表示:ランキング")
	for _, want := range []string{"対局 #1 の解析", "成績 · alice", "最近の対局 · alice", "オセロボット：遊び方", "あなたの言語",
		"名前のある定石を通った", "このサーバーでは、まだこの手順の対局がありません", "2手目の a1 は", "今あるパズルはすべて挑戦済みです",
		"まだパズルに挑戦していません", "まだ誰もパズルを解いていません", "毎日のパズル：オフ"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in:\n%s", want, out)
		}
	}
	noEnglish(t, "a Japanese reader's session", out)
	// Timers post in the server's language.
	e.say("wait 1m", "/挑戦 相手:@carol")
	out = e.say("wait 11m")
	if !strings.Contains(out, "返事がないまま期限が切れました") {
		t.Errorf("the expiry is not in Japanese:\n%s", out)
	}
	noEnglish(t, "a timer's post", out)
}

// In one channel, an English and a Japanese reader each read their own
// only-you replies in their language; the server's messages are in the
// server's language, which only a member with Manage Server may change.
func TestTwoReadersTwoLanguages(t *testing.T) {
	e := open(t, t.TempDir())
	e.adapter.Locale = "ja" // the server and alice
	e.say("locale bob en-US")
	out := e.say("/challenge opponent:@bob color:black size:4 rated:false", "bob: click 受ける")
	if !strings.Contains(out, "bob さんが alice さんの挑戦を受けました。") {
		t.Fatalf("public messages are not in the server's language:\n%s", out)
	}
	mine := e.say("/hint")
	if !strings.Contains(mine, "おすすめの手") || !strings.Contains(mine, "alice にだけ表示") {
		t.Errorf("alice's hint:\n%s", mine)
	}
	theirs := e.say("bob: /hint")
	if !strings.Contains(theirs, "It's not your turn; ask again when it is.") {
		t.Errorf("bob's refusal is not in English:\n%s", theirs)
	}
	// bob chooses Japanese for himself; the server's language needs
	// Manage Server.
	if out := e.say("bob: /settings language:ja"); !strings.Contains(out, "これから日本語でお答えします。") {
		t.Errorf("bob's own language:\n%s", out)
	}
	if out := e.say("bob: /hint"); !strings.Contains(out, "今はあなたの手番ではありません") {
		t.Errorf("bob's chosen language is not used:\n%s", out)
	}
	out = e.say("carol: /settings language:en scope:server")
	if !strings.Contains(out, "サーバー管理") || !strings.Contains(out, "carol にだけ表示") {
		t.Errorf("a member without Manage Server set the server's language:\n%s", out)
	}
	e.say("admin carol")
	if out := e.say("carol: /settings language:en scope:server"); !strings.Contains(out, "This server's public messages are now in English.") {
		t.Errorf("the server's language:\n%s", out)
	}
	g := e.game()
	side := g.ToMove()
	out = e.say(side.Player.Name + ": select " + g.Position().LegalMoves()[0].String())
	if !strings.Contains(out, "played") || strings.Contains(out, "打ちました") {
		t.Errorf("after the server chose English, the game is not in English:\n%s", out)
	}
	// An unknown locale reads as English.
	e.say("locale dave fr")
	if out := e.say("dave: /board"); !strings.Contains(out, "Turn: ") {
		t.Errorf("an unknown locale:\n%s", out)
	}
}
