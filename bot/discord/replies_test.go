package discord

import (
	"context"
	"sync"
	"testing"
	"time"

	"othello-bot/place"
)

// countingMemory is a settings store that counts its reads.
type countingMemory struct {
	mu    sync.Mutex
	kv    map[string]string
	reads int
}

func (m *countingMemory) Setting(_ context.Context, key string) (string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.reads++
	return m.kv[key], nil
}

func (m *countingMemory) SetSetting(_ context.Context, key, value string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if value == "" {
		delete(m.kv, key)
	} else {
		m.kv[key] = value
	}
	return nil
}

// A channel where the bot is a member has its stored reply tokens
// forgotten at its first interaction; it is then not looked up again on
// every interaction, but is as soon as this process keeps tokens there.
func TestMemberChannelForgetsTokensOnce(t *testing.T) {
	ctx := context.Background()
	mem := &countingMemory{kv: map[string]string{}}
	other := NewPoster(nil, "app", mem, quiet) // another process, while the bot was no member
	other.addReply(ctx, "c1", place.Reply{Token: "t", Issued: time.Now()})
	if mem.kv[replyKey("c1")] == "" {
		t.Fatal("the other process kept no tokens")
	}
	p := NewPoster(nil, "app", mem, quiet)
	p.memberChannel(ctx, "c1")
	if v := mem.kv[replyKey("c1")]; v != "" {
		t.Fatalf("tokens left where the bot is a member: %s", v)
	}
	reads := mem.reads
	for range 10 {
		p.memberChannel(ctx, "c1")
	}
	if mem.reads != reads {
		t.Fatalf("%d more reads for ten interactions in a channel just checked", mem.reads-reads)
	}
	// Tokens this process keeps there are seen at once.
	p.addReply(ctx, "c1", place.Reply{Token: "u", Issued: time.Now()})
	p.memberChannel(ctx, "c1")
	if _, known := p.repliesOf(ctx, "c1"); known {
		t.Fatal("tokens kept by this process outlived the bot's membership")
	}
	// After recheckReplies, the store is asked again.
	p.mu.Lock()
	p.noReplies["c1"] = time.Now().Add(-recheckReplies)
	p.mu.Unlock()
	reads = mem.reads
	p.memberChannel(ctx, "c1")
	if mem.reads == reads {
		t.Fatal("not looked up again after recheckReplies")
	}
}
