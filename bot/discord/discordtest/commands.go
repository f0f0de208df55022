package discordtest

// This file checks command registrations as Discord does: names,
// localizations, options.

import (
	"fmt"
	"regexp"
	"strings"
)

// commandName is Discord's rule for command and option names, localized
// ones included ("Application Command Naming"): letters and numbers of any
// script, Devanagari and Thai marks, '-', '_' and '\”; lower case where the
// script has case.
var commandName = regexp.MustCompile(`^[-_'\p{L}\p{N}\p{Devanagari}\p{Thai}]{1,32}$`)

// discordLocales are the locales Discord accepts as localization keys
// ("Locales" in Discord's reference).
var discordLocales = map[string]bool{"id": true, "da": true, "de": true, "en-GB": true, "en-US": true, "es-ES": true, "es-419": true,
	"fr": true, "hr": true, "it": true, "lt": true, "hu": true, "nl": true, "no": true, "pl": true, "pt-BR": true, "ro": true, "fi": true,
	"sv-SE": true, "vi": true, "tr": true, "cs": true, "el": true, "bg": true, "ru": true, "uk": true, "hi": true, "th": true,
	"zh-CN": true, "ja": true, "zh-TW": true, "ko": true}

func validName(n string) bool { return commandName.MatchString(n) && strings.ToLower(n) == n }

// localizationProblems checks a name_localizations or
// description_localizations map: known locales, and values as the default
// would be checked (names by the naming rule, descriptions and choice names
// 1-100 characters).
func localizationProblems(where, field string, v any, isName bool, maxLen int) []string {
	if v == nil {
		return nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		return []string{fmt.Sprintf("%s: %s is not an object", where, field)}
	}
	var out []string
	for loc, text := range m {
		t, _ := text.(string)
		switch {
		case !discordLocales[loc]:
			out = append(out, fmt.Sprintf("%s: %s has an unknown locale %q", where, field, loc))
		case isName && !validName(t):
			out = append(out, fmt.Sprintf("%s: %s[%s] %q is not a valid name", where, field, loc, t))
		case !isName && (length(t) < 1 || length(t) > maxLen):
			out = append(out, fmt.Sprintf("%s: %s[%s] has %d characters", where, field, loc, length(t)))
		}
	}
	return out
}

func commandProblems(cmd map[string]any, global bool) []string {
	var out []string
	name, _ := cmd["name"].(string)
	if !validName(name) {
		out = append(out, fmt.Sprintf("command name %q", name))
	}
	if d, _ := cmd["description"].(string); length(d) < 1 || length(d) > 100 {
		out = append(out, fmt.Sprintf("%s: description of %d", name, length(d)))
	}
	out = append(out, localizationProblems(name, "name_localizations", cmd["name_localizations"], true, 32)...)
	out = append(out, localizationProblems(name, "description_localizations", cmd["description_localizations"], false, 100)...)
	// contexts and integration_types are "only for globally-scoped
	// commands": a server's commands are its members', whatever they say.
	if _, ok := cmd["contexts"]; !ok && global {
		out = append(out, name+": no contexts (this bot's contract: set them explicitly)")
	}
	if _, ok := cmd["integration_types"]; !ok && global {
		out = append(out, name+": no integration_types (this bot's contract: set them explicitly)")
	}
	opts, _ := cmd["options"].([]any)
	return append(out, optionProblems(name, opts, true)...)
}

// optionProblems checks one level of options ("Application Command Object"
// in Discord's reference): at most 25; subcommands (type 1) not mixed
// with other options and holding only plain options themselves; required
// options before optional ones; names, descriptions and choices as for
// commands.
func optionProblems(name string, opts []any, top bool) []string {
	var out []string
	if len(opts) > 25 {
		out = append(out, name+": over 25 options")
	}
	subs, optional := 0, false
	for _, o := range opts {
		opt := o.(map[string]any)
		on, _ := opt["name"].(string)
		switch typ := int(num(opt["type"])); {
		case typ == 1 && !top:
			out = append(out, fmt.Sprintf("%s %s: a subcommand inside a subcommand", name, on))
		case typ == 1:
			subs++
			inner, _ := opt["options"].([]any)
			out = append(out, optionProblems(name+" "+on, inner, false)...)
		case typ == 2:
			out = append(out, fmt.Sprintf("%s %s: subcommand groups are not used by this bot", name, on))
		default:
			if req, _ := opt["required"].(bool); req && optional {
				out = append(out, fmt.Sprintf("%s %s: a required option after an optional one", name, on))
			} else if !req {
				optional = true
			}
		}
	}
	if subs > 0 && subs != len(opts) {
		out = append(out, name+": subcommands mixed with other options")
	}
	// A localized option name must differ from every default option name
	// of the command and from the other option names in its locale.
	defaults := map[string]bool{}
	for _, o := range opts {
		on, _ := o.(map[string]any)["name"].(string)
		if defaults[on] {
			out = append(out, fmt.Sprintf("%s: option name %q twice", name, on))
		}
		defaults[on] = true
	}
	perLocale := map[string]map[string]bool{}
	for _, o := range opts {
		opt := o.(map[string]any)
		on, _ := opt["name"].(string)
		where := name + " " + on
		if !validName(on) {
			out = append(out, fmt.Sprintf("%s: option name %q", name, on))
		}
		if d, _ := opt["description"].(string); length(d) < 1 || length(d) > 100 {
			out = append(out, fmt.Sprintf("%s %s: description of %d", name, on, length(d)))
		}
		out = append(out, localizationProblems(where, "name_localizations", opt["name_localizations"], true, 32)...)
		out = append(out, localizationProblems(where, "description_localizations", opt["description_localizations"], false, 100)...)
		if m, ok := opt["name_localizations"].(map[string]any); ok {
			for loc, v := range m {
				ln, _ := v.(string)
				if perLocale[loc] == nil {
					perLocale[loc] = map[string]bool{}
				}
				if (defaults[ln] && ln != on) || perLocale[loc][ln] {
					out = append(out, fmt.Sprintf("%s: localized option name %q (%s) is not distinct", where, ln, loc))
				}
				perLocale[loc][ln] = true
			}
		}
		// "For option type STRING, the maximum allowed length (minimum of
		// 1, maximum of 6000)"; the minimum from 0 to 6000.
		if v, ok := opt["max_length"]; ok && (num(v) < 1 || num(v) > 6000) {
			out = append(out, fmt.Sprintf("%s: max_length %v", where, v))
		}
		if v, ok := opt["min_length"]; ok && (num(v) < 0 || num(v) > 6000) {
			out = append(out, fmt.Sprintf("%s: min_length %v", where, v))
		}
		ch, _ := opt["choices"].([]any)
		if len(ch) > 25 {
			out = append(out, fmt.Sprintf("%s %s: %d choices", name, on, len(ch)))
		}
		for _, c := range ch {
			choice, _ := c.(map[string]any)
			cn, _ := choice["name"].(string)
			if length(cn) < 1 || length(cn) > 100 {
				out = append(out, fmt.Sprintf("%s: choice name of %d characters", where, length(cn)))
			}
			out = append(out, localizationProblems(where+" "+cn, "name_localizations", choice["name_localizations"], false, 100)...)
		}
	}
	return out
}
