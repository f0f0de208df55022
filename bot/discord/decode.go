package discord

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/bwmarrin/discordgo"
)

// plainInteraction is discordgo's Interaction without its UnmarshalJSON,
// so its fields can be read beside ours in one pass.
type plainInteraction discordgo.Interaction

// postedInteraction is what the endpoint reads of an interaction, in one
// pass over its JSON: discordgo's fields; the data, read by the type as
// discordgo reads it; the message a press came from by its id alone; and
// the rawParts discordgo drops. Discord sends the whole message a pressed
// component is on ("Receiving and Responding", Interaction Object), board,
// embeds and components, and the bot reads only its id: reading the rest
// into discordgo's types was most of an interaction's JSON work.
type postedInteraction struct {
	plainInteraction
	Data    json.RawMessage `json:"data"`
	Message *struct {
		ID string `json:"id"`
	} `json:"message"`
	// The rawParts, at the top so that they win over discordgo's fields of
	// the same names (a context discordgo reads as 0 when it is absent).
	Channel json.RawMessage                   `json:"channel"` // read apart: discordgo has no channel to refuse
	Context *discordgo.InteractionContextType `json:"context"`
}

// decodeInteraction reads an interaction posted to the endpoint: the same
// Interaction discordgo reads, but for its message, which holds only the
// id; and its rawParts, as readRaw reads them (read is false where readRaw
// could not read them).
func decodeInteraction(body []byte) (_ *discordgo.Interaction, _ rawParts, read bool, _ error) {
	var p postedInteraction
	if err := json.Unmarshal(body, &p); err != nil {
		return nil, rawParts{}, false, fmt.Errorf("reading an interaction: %w", err)
	}
	i := discordgo.Interaction(p.plainInteraction)
	var parts rawParts
	read = len(p.Channel) == 0 || json.Unmarshal(p.Channel, &parts.Channel) == nil
	if p.Context != nil {
		i.Context = *p.Context
		c := int(*p.Context)
		parts.Context = &c
	}
	if p.Message != nil {
		i.Message = &discordgo.Message{ID: p.Message.ID}
	}
	if i.AuthorizingIntegrationOwners != nil {
		parts.Owners = make(map[string]string, len(i.AuthorizingIntegrationOwners))
		for k, v := range i.AuthorizingIntegrationOwners {
			parts.Owners[strconv.FormatUint(uint64(k), 10)] = v
		}
	}
	var err error
	switch i.Type {
	case discordgo.InteractionApplicationCommand, discordgo.InteractionApplicationCommandAutocomplete:
		i.Data, err = decodeData[discordgo.ApplicationCommandInteractionData](p.Data)
	case discordgo.InteractionMessageComponent:
		i.Data, err = decodeData[discordgo.MessageComponentInteractionData](p.Data)
	case discordgo.InteractionModalSubmit:
		i.Data, err = decodeData[discordgo.ModalSubmitInteractionData](p.Data)
	}
	if err != nil {
		return nil, rawParts{}, false, fmt.Errorf("reading an interaction's data: %w", err)
	}
	return &i, parts, read, nil
}

// decodeData reads an interaction's data as discordgo does (absent data is
// an error, as there).
func decodeData[T any](raw json.RawMessage) (T, error) {
	var v T
	err := json.Unmarshal(raw, &v)
	return v, err
}
