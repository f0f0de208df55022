package main

import (
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// local with webAddress and publicURL links each game message to its page,
// and the page is served while the terminal runs.
func TestLocalServesGamePages(t *testing.T) {
	dir := t.TempDir()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	cfg := filepath.Join(dir, "config.json")
	os.WriteFile(cfg, []byte(`{"webAddress": "`+addr+`", "publicURL": "http://`+addr+`/"}`), 0o600)
	pr, pw := io.Pipe()
	out := &syncBuffer{}
	done := make(chan int)
	go func() {
		done <- run([]string{"local", "--config", cfg, "--db", filepath.Join(dir, "bot.db"), "--results", filepath.Join(dir, "r.log")},
			pr, out, io.Discard)
	}()
	pw.Write([]byte("/start level:1 color:black\n"))
	var url string
	deadline := time.Now().Add(10 * time.Second)
	for url == "" && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
		s := out.String()
		if i := strings.Index(s, "Watch: "); i >= 0 {
			url, _, _ = strings.Cut(s[i+len("Watch: "):], "\n")
		}
	}
	if !strings.HasPrefix(url, "http://"+addr+"/g/") {
		t.Fatalf("no page link in:\n%s", out.String())
	}
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(body), "Game #1 · you vs Bot (level 1)") {
		t.Fatalf("page %d:\n%.300s", resp.StatusCode, body)
	}
	pw.Close()
	if code := <-done; code != 0 {
		t.Fatalf("local exited %d", code)
	}
}
