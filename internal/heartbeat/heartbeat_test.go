package heartbeat

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestFreshStaleMissing(t *testing.T) {
	path := filepath.Join(t.TempDir(), "alive")
	now := time.Date(2026, 11, 24, 5, 0, 0, 0, time.UTC)
	if err := Check(path, time.Minute, now); err == nil || !strings.Contains(err.Error(), "no heartbeat") {
		t.Fatalf("before any beat: %v, want no heartbeat", err)
	}
	if err := Beat(path, now); err != nil {
		t.Fatal(err)
	}
	if err := Check(path, time.Minute, now.Add(59*time.Second)); err != nil {
		t.Fatalf("59 s after a beat: %v", err)
	}
	err := Check(path, time.Minute, now.Add(61*time.Second))
	if err == nil || !strings.Contains(err.Error(), "1m1s ago") {
		t.Fatalf("61 s after a beat: %v, want stale by 1m1s", err)
	}
	// A later beat replaces the earlier one; no temporary file is left.
	if err := Beat(path, now.Add(2*time.Minute)); err != nil {
		t.Fatal(err)
	}
	if err := Check(path, time.Minute, now.Add(2*time.Minute+time.Second)); err != nil {
		t.Fatalf("after a second beat: %v", err)
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Fatalf("files beside the heartbeat: %v", entries)
	}
}

func TestNotATime(t *testing.T) {
	path := filepath.Join(t.TempDir(), "alive")
	os.WriteFile(path, []byte("yesterday\n"), 0o644)
	if err := Check(path, time.Minute, time.Now()); err == nil || !strings.Contains(err.Error(), "not a time") {
		t.Fatalf("garbage: %v", err)
	}
}

func TestBeatIntoMissingFolder(t *testing.T) {
	path := filepath.Join(t.TempDir(), "no", "such", "alive")
	if err := Beat(path, time.Now()); err == nil {
		t.Fatal("a beat into a missing folder succeeded")
	}
}
