package discord

import (
	"encoding/json"

	"github.com/bwmarrin/discordgo"
)

// encodeResponse is json.Marshal(r) in one pass. discordgo's components
// encode themselves by marshalling a copy with their type and handing the
// bytes up, which the encoder reads through again, at every level of a
// message's rows: most of the cost of an answer's JSON. The components
// the bot sends (rows, buttons, menus) are written here as plain values
// with the same fields; any other keeps its own MarshalJSON.
func encodeResponse(r *discordgo.InteractionResponse) ([]byte, error) {
	if r.Data == nil || len(r.Data.Components) == 0 {
		return json.Marshal(r)
	}
	return json.Marshal(struct {
		Type discordgo.InteractionResponseType `json:"type,omitempty"`
		Data wireData                          `json:"data"`
	}{r.Type, wireData{plainData(*r.Data), wireComponents(r.Data.Components)}})
}

type (
	plainData   discordgo.InteractionResponseData
	plainButton discordgo.Button
	plainMenu   discordgo.SelectMenu
)

// wireData is the answer's data with its components as plain values (the
// field at the top wins over the embedded one of the same name).
type wireData struct {
	plainData
	Components []any `json:"components"`
}

type wireRow struct {
	Components []any                   `json:"components"`
	ID         int                     `json:"id,omitempty"`
	Type       discordgo.ComponentType `json:"type"`
}

type wireButton struct {
	plainButton
	Type discordgo.ComponentType `json:"type"`
}

type wireMenu struct {
	plainMenu
	Type discordgo.ComponentType `json:"type"`
}

func wireComponents(cs []discordgo.MessageComponent) []any {
	if cs == nil {
		return nil
	}
	out := make([]any, len(cs))
	for k, c := range cs {
		switch c := c.(type) {
		case discordgo.ActionsRow:
			out[k] = wireRow{wireComponents(c.Components), c.ID, c.Type()}
		case discordgo.Button:
			if c.Style == 0 {
				c.Style = discordgo.PrimaryButton // as Button.MarshalJSON does
			}
			out[k] = wireButton{plainButton(c), c.Type()}
		case discordgo.SelectMenu:
			out[k] = wireMenu{plainMenu(c), c.Type()}
		default:
			out[k] = c
		}
	}
	return out
}
