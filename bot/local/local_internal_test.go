package local

import (
	"io"
	"testing"
	"time"

	"othello-bot/bot"
)

// Pictures are written out and then forgotten: a long session of large
// boards must not keep every PNG in memory.
func TestShownPicturesAreNotKept(t *testing.T) {
	a := New(io.Discard, NewClock(time.Now()), "alice")
	a.ImageDir = t.TempDir()
	pic := bot.File{Name: "board.png", Data: make([]byte, 50_000)}
	id, _ := a.Send(t.Context(), ChannelID, bot.Message{Content: "board", Files: []bot.File{pic}})
	if err := a.Edit(t.Context(), ChannelID, id, bot.Message{Content: "again", Files: []bot.File{pic}}); err != nil {
		t.Fatal(err)
	}
	a.show(bot.Message{Files: []bot.File{pic}}, "alice", ChannelID)
	for _, m := range a.messages {
		for _, f := range m.msg.Files {
			if len(f.Data) != 0 {
				t.Fatalf("message %d keeps %d bytes of %s", m.id, len(f.Data), f.Name)
			}
		}
	}
	if pic.Data == nil {
		t.Fatal("the caller's picture was cleared")
	}
}
