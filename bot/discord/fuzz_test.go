package discord

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/bwmarrin/discordgo"

	"othello-bot/place"
)

// Whatever arrives as an interaction, reading it never panics, and what
// it reads is whole: a request from a Discord user id in a Discord
// channel, in one of the four places.
func FuzzInteraction(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.json"))
	for _, name := range files {
		if b, err := os.ReadFile(name); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte(`{"type":2,"context":2,"authorizing_integration_owners":{"1":"7"},"user":{"id":"7"},"channel_id":"8","data":{"name":"start"}}`))
	f.Add([]byte(`{"type":3,"context":0,"guild_id":"9","authorizing_integration_owners":{"0":"9","x":"y"},"member":{"user":{"id":"7"}},"channel_id":"8","data":{"custom_id":"move:1:0","component_type":3}}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		var i discordgo.Interaction
		if json.Unmarshal(raw, &i) != nil {
			return
		}
		req, refusal := toRequest(&i)
		parts, read := readRaw(raw)
		req.Place = parts.placeOf(read, i.GuildID != "")
		parts.channelOf()
		if req.Place < place.Server || req.Place > place.PrivateChannel {
			t.Fatalf("place %d", req.Place)
		}
		if refusal == "" && (!isSnowflake(req.User.ID) || !isSnowflake(req.ChannelID) || req.GuildID != "" && !isSnowflake(req.GuildID)) {
			t.Fatalf("accepted %+v", req)
		}
	})
}
