package discord

import (
	"encoding/json"
	"reflect"
	"strconv"
	"testing"

	"github.com/bwmarrin/discordgo"

	"othello-bot/bot"
)

// sameJSON checks that encodeResponse writes what json.Marshal writes, as
// JSON values (the fields of the data may come in another order).
func sameJSON(t *testing.T, r *discordgo.InteractionResponse) {
	t.Helper()
	want, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	got, err := encodeResponse(r)
	if err != nil {
		t.Fatal(err)
	}
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatalf("%s: %v", got, err)
	}
	json.Unmarshal(want, &w)
	if !reflect.DeepEqual(g, w) {
		t.Fatalf("encoded\n%s\nwant\n%s", got, want)
	}
}

// boardMessage is a message with every kind of row the bot sends: a menu
// of n moves, buttons of each style, a link, disabled ones.
func boardMessage(content, label string, n int, disabled bool) bot.Message {
	m := bot.Message{Content: content}
	menu := &bot.Menu{CustomID: "move:1:" + strconv.Itoa(n), Placeholder: label}
	for k := range n {
		menu.Options = append(menu.Options, bot.MenuOption{Label: label + strconv.Itoa(k), Value: "v" + strconv.Itoa(k)})
	}
	m.Components = append(m.Components, bot.Row{Menu: menu})
	var buttons []bot.ButtonSpec
	for _, s := range []bot.ButtonStyle{bot.Primary, bot.Secondary, bot.Success, bot.Danger} {
		buttons = append(buttons, bot.ButtonSpec{Label: label, CustomID: "b:" + strconv.Itoa(int(s)), Style: s, Disabled: disabled})
	}
	buttons = append(buttons, bot.ButtonSpec{Label: label, URL: "https://example.com/g?a=" + label, Disabled: disabled})
	m.Components = append(m.Components, bot.Row{Buttons: buttons}, bot.Row{})
	return m
}

func TestEncodeResponseWritesWhatMarshalWrites(t *testing.T) {
	for _, typ := range []discordgo.InteractionResponseType{discordgo.InteractionResponseUpdateMessage, discordgo.InteractionResponseChannelMessageWithSource} {
		for _, n := range []int{0, 1, 25} {
			m := boardMessage("⚫⚪🟩 <b>\"&'\u2028", "d3 <x> & \"y\"", n, n == 1)
			sameJSON(t, &discordgo.InteractionResponse{Type: typ, Data: &discordgo.InteractionResponseData{
				Content: m.Content, Components: components(m), Flags: discordgo.MessageFlagsEphemeral,
				Embeds:          []*discordgo.MessageEmbed{{Title: "t", Fields: []*discordgo.MessageEmbedField{{Name: "a", Value: "b", Inline: true}}}},
				AllowedMentions: &discordgo.MessageAllowedMentions{Parse: []discordgo.AllowedMentionType{}}}})
		}
	}
	// What discordgo's own encoders add or choose: a button's default
	// style, a menu's own type, and a component left to its MarshalJSON.
	min := 0
	sameJSON(t, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseUpdateMessage, Data: &discordgo.InteractionResponseData{
		Components: []discordgo.MessageComponent{
			discordgo.ActionsRow{ID: 7, Components: []discordgo.MessageComponent{
				discordgo.Button{Label: "no style", CustomID: "x", Emoji: &discordgo.ComponentEmoji{Name: "💡"}},
				discordgo.SelectMenu{MenuType: discordgo.UserSelectMenu, CustomID: "u", MinValues: &min, MaxValues: 3},
			}},
			discordgo.ActionsRow{Components: []discordgo.MessageComponent{discordgo.TextInput{CustomID: "t", Label: "l", Style: discordgo.TextInputShort}}},
			&discordgo.ActionsRow{Components: []discordgo.MessageComponent{discordgo.Button{Label: "behind a pointer"}}},
			discordgo.ActionsRow{},
		}}})
	sameJSON(t, &discordgo.InteractionResponse{Type: discordgo.InteractionResponsePong})
	sameJSON(t, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredMessageUpdate, Data: &discordgo.InteractionResponseData{}})
}

// Whatever the words in a message, the answer's JSON is json.Marshal's.
func FuzzEncodeResponse(f *testing.F) {
	f.Add("⚫⚪", "d3", 25, false)
	f.Add("", "\x00\xff<>&", 1, true)
	f.Fuzz(func(t *testing.T, content, label string, n int, disabled bool) {
		m := boardMessage(content, label, min(max(n, 0), 25), disabled)
		sameJSON(t, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseUpdateMessage,
			Data: &discordgo.InteractionResponseData{Content: m.Content, Components: components(m)}})
	})
}

// An answer with a board's rows: one pass against discordgo's encoders.
func BenchmarkEncodeResponse(b *testing.B) {
	m := boardMessage("⚫⚪🟩", "d3", 25, false)
	r := &discordgo.InteractionResponse{Type: discordgo.InteractionResponseUpdateMessage,
		Data: &discordgo.InteractionResponseData{Content: m.Content, Components: components(m)}}
	b.Run("json.Marshal", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			json.Marshal(r)
		}
	})
	b.Run("encodeResponse", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			encodeResponse(r)
		}
	})
}
