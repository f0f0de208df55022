package discordtest

// This file reads a message as a test needs it: its menu, its buttons, its
// text.

import "strings"

// Menu returns a message's select menu custom id and option values, if it
// has one.
func (m *Message) Menu() (customID string, values []string, ok bool) {
	for _, row := range m.Components {
		items, _ := row["components"].([]any)
		for _, it := range items {
			c := it.(map[string]any)
			if num(c["type"]) == 3 {
				for _, o := range c["options"].([]any) {
					values = append(values, str(o.(map[string]any)["value"]))
				}
				return str(c["custom_id"]), values, true
			}
		}
	}
	return "", nil, false
}

// Button returns the custom id of a message's button with that label.
func (m *Message) Button(label string) (string, bool) {
	for _, row := range m.Components {
		items, _ := row["components"].([]any)
		for _, it := range items {
			c := it.(map[string]any)
			if num(c["type"]) == 2 && strings.EqualFold(str(c["label"]), label) {
				return str(c["custom_id"]), true
			}
		}
	}
	return "", false
}

// Text is everything a reader sees of a message, in one string.
func (m *Message) Text() string {
	var b strings.Builder
	b.WriteString(m.Content + "\n")
	for _, e := range m.Embeds {
		b.WriteString(str(e["title"]) + "\n" + str(e["description"]) + "\n")
		fields, _ := e["fields"].([]any)
		for _, f := range fields {
			fm := f.(map[string]any)
			b.WriteString(str(fm["name"]) + ": " + str(fm["value"]) + "\n")
		}
		if f, ok := e["footer"].(map[string]any); ok {
			b.WriteString(str(f["text"]) + "\n")
		}
	}
	return b.String()
}
