package discord

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/bwmarrin/discordgo"
)

// sameAsDiscordgo checks that the endpoint's one-pass read of an
// interaction gives what discordgo's own reading and readRaw give, the
// message cut to its id; ok is false when discordgo cannot read it.
func sameAsDiscordgo(t *testing.T, raw []byte) (ok bool) {
	t.Helper()
	var want discordgo.Interaction
	if json.Unmarshal(raw, &want) != nil {
		return false
	}
	if want.Message != nil {
		want.Message = &discordgo.Message{ID: want.Message.ID}
	}
	wantParts, read := readRaw(raw)
	got, parts, gotRead, err := decodeInteraction(raw)
	if err != nil {
		t.Fatalf("discordgo reads %s; decodeInteraction: %v", raw, err)
	}
	if !reflect.DeepEqual(*got, want) {
		t.Fatalf("read %s\n got %+v\nwant %+v", raw, *got, want)
	}
	if gotRead != read || read && !reflect.DeepEqual(parts, wantParts) {
		t.Fatalf("parts of %s\n got %+v (%v)\nwant %+v (%v)", raw, parts, gotRead, wantParts, read)
	}
	return true
}

func TestDecodeInteractionReadsWhatDiscordgoReads(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "*.json"))
	if err != nil || len(files) < 5 {
		t.Fatalf("testdata: %v, %d files", err, len(files))
	}
	for _, name := range files {
		raw, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if !sameAsDiscordgo(t, raw) {
			t.Fatalf("%s: discordgo cannot read it", name)
		}
	}
	// The press on a board: what the one pass keeps of it.
	raw, _ := os.ReadFile(filepath.Join("testdata", "press_on_board.json"))
	i, parts, _, _ := decodeInteraction(raw)
	if i.Message == nil || i.Message.ID != "600000000000000002" || i.MessageComponentData().Values[0] != "d3" {
		t.Fatalf("press read as %+v", i)
	}
	if inThread, parent := parts.channelOf(); !inThread || parent != "800000000000000001" || parts.Context == nil || parts.Owners["0"] != "900000000000000001" {
		t.Fatalf("parts read as %+v", parts)
	}
	// What discordgo refuses, the endpoint refuses (a 400), the message's
	// contents apart, which it does not read.
	for _, bad := range []string{`{"type":3}`, `{"type":2,"data":[]}`, `{"type":3,"context":-1,"data":{}}`,
		`{"type":3,"authorizing_integration_owners":{"x":"1"},"data":{}}`, `[]`, `{"type":"3"}`} {
		if _, _, _, err := decodeInteraction([]byte(bad)); err == nil {
			t.Errorf("%s read", bad)
		}
	}
}

// Whatever discordgo reads, the one-pass read reads the same.
func FuzzDecodeInteraction(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.json"))
	for _, name := range files {
		if b, err := os.ReadFile(name); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte(`{"type":5,"context":null,"message":null,"data":{"custom_id":"m","components":[]}}`))
	f.Add([]byte(`{"type":4,"context":1,"data":{"name":"move","options":[{"name":"at","type":3,"value":"d3","focused":true}]}}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		sameAsDiscordgo(t, raw)
	})
}

// What the one pass saves on a press on a board as Discord sends it (the
// whole message), against discordgo's read and readRaw's second pass.
func BenchmarkDecodeInteraction(b *testing.B) {
	raw, err := os.ReadFile(filepath.Join("testdata", "press_on_board.json"))
	if err != nil {
		b.Fatal(err)
	}
	b.Run("discordgo+raw", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var i discordgo.Interaction
			if err := json.Unmarshal(raw, &i); err != nil {
				b.Fatal(err)
			}
			readRaw(raw)
		}
	})
	b.Run("one-pass", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, _, _, err := decodeInteraction(raw); err != nil {
				b.Fatal(err)
			}
		}
	})
}
