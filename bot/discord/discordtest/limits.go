package discordtest

// This file is Discord's limits on a message and who it may ping.

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
)

var (
	userMention = regexp.MustCompile(`<@!?(\d+)>`)
	roleMention = regexp.MustCompile(`<@&(\d+)>`)
)

// pings applies Discord's allowed_mentions rules to a new message: without
// the object every mention in the text notifies; with it, only the kinds
// in parse and the listed users and roles. A role's mention notifies only
// where mayPingRole says its author may ping it (the role is mentionable,
// or the author has Mention Everyone: "Mention @everyone, @here, and All
// Roles").
func pings(id, content string, allowed any, mayPingRole func(roleID string) bool) Ping {
	p := Ping{MessageID: id}
	users, roles := userMention.FindAllStringSubmatch(content, -1), roleMention.FindAllStringSubmatch(content, -1)
	everyone := strings.Contains(content, "@everyone") || strings.Contains(content, "@here")
	am, ok := allowed.(map[string]any)
	if !ok {
		for _, u := range users {
			p.Users = append(p.Users, u[1])
		}
		for _, r := range roles {
			if mayPingRole(r[1]) {
				p.Roles = append(p.Roles, r[1])
			}
		}
		p.Everyone = everyone
		return p
	}
	parse := map[string]bool{}
	if list, ok := am["parse"].([]any); ok {
		for _, v := range list {
			parse[str(v)] = true
		}
	}
	allowedUsers := strList(am["users"])
	allowedRoles := strList(am["roles"])
	for _, u := range users {
		if parse["users"] || slices.Contains(allowedUsers, u[1]) {
			p.Users = append(p.Users, u[1])
		}
	}
	for _, r := range roles {
		if (parse["roles"] || slices.Contains(allowedRoles, r[1])) && mayPingRole(r[1]) {
			p.Roles = append(p.Roles, r[1])
		}
	}
	p.Everyone = everyone && parse["everyone"]
	return p
}

// messageProblems checks a message body against Discord's documented
// limits. edit relaxes nothing but allows a body with only some fields.
func messageProblems(body map[string]any, files []upload, edit bool) []string {
	var out []string
	check := func(what string, n, limit int) {
		if n > limit {
			out = append(out, fmt.Sprintf("%s: %d over the limit of %d", what, n, limit))
		}
	}
	check("content", length(str(body["content"])), 2000)
	embeds, _ := body["embeds"].([]any)
	check("embeds", len(embeds), 10)
	total := 0
	for i, e := range embeds {
		em, _ := e.(map[string]any)
		what := fmt.Sprintf("embeds[%d]", i)
		check(what+".title", length(str(em["title"])), 256)
		check(what+".description", length(str(em["description"])), 4096)
		fields, _ := em["fields"].([]any)
		check(what+".fields", len(fields), 25)
		for j, f := range fields {
			fm := f.(map[string]any)
			n, v := str(fm["name"]), str(fm["value"])
			if n == "" || v == "" {
				out = append(out, fmt.Sprintf("%s.fields[%d]: name and value are required", what, j))
			}
			check(fmt.Sprintf("%s.fields[%d].name", what, j), length(n), 256)
			check(fmt.Sprintf("%s.fields[%d].value", what, j), length(v), 1024)
		}
		if f, ok := em["footer"].(map[string]any); ok {
			check(what+".footer.text", length(str(f["text"])), 2048)
		}
		total += embedTotal(em)
	}
	check("embeds total", total, 6000)
	rows, _ := body["components"].([]any)
	check("components", len(rows), 5)
	for i, r := range rows {
		row, _ := r.(map[string]any)
		items, _ := row["components"].([]any)
		if num(row["type"]) != 1 || len(items) == 0 {
			out = append(out, fmt.Sprintf("components[%d]: an action row with components", i))
		}
		check(fmt.Sprintf("components[%d]", i), len(items), 5)
		for _, it := range items {
			c := it.(map[string]any)
			check("custom_id", length(str(c["custom_id"])), 100)
			switch num(c["type"]) {
			case 2:
				check("button label", length(str(c["label"])), 80)
				// "Non-link buttons must have a custom_id, and cannot
				// have a url. Link buttons must have a url, and cannot
				// have a custom_id" (style 5 is Link); a url is at most
				// 512 characters.
				if num(c["style"]) == 5 {
					if str(c["url"]) == "" || str(c["custom_id"]) != "" {
						out = append(out, "a link button with no url, or with a custom_id")
					}
					check("button url", length(str(c["url"])), 512)
				} else if str(c["custom_id"]) == "" || str(c["url"]) != "" {
					out = append(out, "a button with no custom_id, or with a url")
				}
			case 3:
				if len(items) != 1 {
					out = append(out, "a select menu must be alone in its row")
				}
				opts, _ := c["options"].([]any)
				if len(opts) < 1 || len(opts) > 25 {
					out = append(out, fmt.Sprintf("select options: %d (1 to 25)", len(opts)))
				}
				check("placeholder", length(str(c["placeholder"])), 150)
				for _, o := range opts {
					om := o.(map[string]any)
					check("option label", length(str(om["label"])), 100)
					check("option value", length(str(om["value"])), 100)
				}
			}
		}
	}
	for i, f := range files {
		check("files["+strconv.Itoa(i)+"] bytes", f.size, 10<<20)
	}
	// API v10: a file uploaded with an edit must be listed in attachments
	// (by its place among the uploads), or it is not attached.
	if edit && len(files) > 0 {
		listed := map[string]bool{}
		list, _ := body["attachments"].([]any)
		for _, a := range list {
			listed[str(a.(map[string]any)["id"])] = true
		}
		for i, f := range files {
			if !listed[strconv.Itoa(i)] {
				out = append(out, fmt.Sprintf("file %s uploaded with an edit but not listed in attachments", f.name))
			}
		}
	}
	return out
}

func embedTotal(e map[string]any) int {
	n := length(str(e["title"])) + length(str(e["description"]))
	if f, ok := e["footer"].(map[string]any); ok {
		n += length(str(f["text"]))
	}
	if a, ok := e["author"].(map[string]any); ok {
		n += length(str(a["name"]))
	}
	fields, _ := e["fields"].([]any)
	for _, f := range fields {
		fm := f.(map[string]any)
		n += length(str(fm["name"])) + length(str(fm["value"]))
	}
	return n
}

func length(s string) int { return len(utf16.Encode([]rune(s))) }

func str(v any) string {
	s, _ := v.(string)
	return s
}

func num(v any) float64 {
	switch n := v.(type) {
	case float64:
		return n
	case int: // what the fake itself stores
		return float64(n)
	}
	return 0
}

func strList(v any) []string {
	list, _ := v.([]any)
	var out []string
	for _, x := range list {
		out = append(out, str(x))
	}
	return out
}
