package discordtest

import (
	"bufio"
	"fmt"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// A body cut off by the client stopping is not something the bot sent
// wrong; a complete body that is not JSON is.
func TestBodiesCutShortAreNotFlagged(t *testing.T) {
	s := New("tok")
	defer s.Close()
	addr := strings.TrimSuffix(strings.TrimPrefix(s.URL(), "http://"), "/")
	path := "/api/v10/applications/" + s.AppID + "/guilds/" + s.GuildID + "/commands"

	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(c, "PUT %s HTTP/1.1\r\nHost: x\r\nAuthorization: Bot tok\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n[{\"name\":", path)
	c.Close()

	c, err = net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	body := "[{\"name\":"
	fmt.Fprintf(c, "PUT %s HTTP/1.1\r\nHost: x\r\nAuthorization: Bot tok\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", path, len(body), body)
	c.SetDeadline(time.Now().Add(10 * time.Second))
	res, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusBadRequest {
		t.Fatalf("invalid JSON answered %d, want 400", res.StatusCode)
	}
	v := s.Violations()
	if len(v) != 1 || !strings.Contains(v[0], "invalid JSON") {
		t.Fatalf("violations %q: want only the complete invalid body", v)
	}
}
