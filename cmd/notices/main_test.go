package main

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// The committed notices must be what the modules compiled in today say:
// a new or upgraded dependency changes them.
func TestNoticesAreCurrent(t *testing.T) {
	t.Chdir("../..")
	var b bytes.Buffer
	if err := write(&b, "./cmd/othello-bot"); err != nil {
		t.Fatal(err)
	}
	committed, err := os.ReadFile("THIRD_PARTY_NOTICES")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(b.Bytes(), committed) {
		t.Fatal("THIRD_PARTY_NOTICES is out of date: run `go run ./cmd/notices > THIRD_PARTY_NOTICES`")
	}
	for _, want := range []string{"github.com/bwmarrin/discordgo", "github.com/mattn/go-sqlite3", "github.com/jackc/pgx/v5", "Baekmuk", "SIL OPEN FONT LICENSE", "@discord/embedded-app-sdk 2.5.0",
		"Source Code Form: https://proxy.golang.org/github.com/hashicorp/golang-lru/v2/@v/v2.0.7.zip"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the notices do not name %s", want)
		}
	}
}

func TestLicenceSections(t *testing.T) {
	readme := "# x\n## API\nuse it\n## Sources\n* a font (OFL-1.1)\n## License\nMIT\n## Foo License\ntext\n"
	got := licenceSections(readme)
	if len(got) != 2 || !strings.HasPrefix(got[0], "## Sources") || !strings.HasPrefix(got[1], "## Foo License") {
		t.Fatalf("sections: %q", got)
	}
}

func TestProxyEscape(t *testing.T) {
	if got := proxyEscape("github.com/BurntSushi/toml"); got != "github.com/!burnt!sushi/toml" {
		t.Fatalf("got %s", got)
	}
}
