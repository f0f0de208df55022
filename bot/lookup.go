package bot

// This file finds commands and options by name, in any language, and fills
// in the names people see.

import (
	"fmt"
	"strings"

	"othello-bot/catalog"
)

// localize fills in the names and descriptions people see, in English and
// in every other language the catalog has.
func localize(cmds []CommandSpec) []CommandSpec {
	en := catalog.For(catalog.English)
	texts := func(key string, args ...any) (string, map[string]string) {
		other := map[string]string{}
		for _, l := range catalog.Supported()[1:] {
			other[string(l)] = catalog.For(l).T(key, args...)
		}
		return en.T(key, args...), other
	}
	var fill func(c *CommandSpec, base string)
	fill = func(c *CommandSpec, base string) {
		_, c.NameLocalizations = texts(base + ".name")
		c.Description, c.DescriptionLocalizations = texts(base + ".desc")
		opts := make([]OptionSpec, len(c.Options))
		for j, o := range c.Options {
			key := base + ".opt." + o.Name
			_, o.NameLocalizations = texts(key + ".name")
			o.Description, o.DescriptionLocalizations = texts(key + ".desc")
			choices := make([]OptionChoice, len(o.Choices))
			for k, ch := range o.Choices {
				ch.Name, ch.NameLocalizations = texts(ch.key, ch.args...)
				choices[k] = ch
			}
			o.Choices = choices
			opts[j] = o
		}
		c.Options = opts
		subs := make([]CommandSpec, len(c.Subcommands))
		for j, sub := range c.Subcommands {
			fill(&sub, base+".sub."+sub.Name)
			subs[j] = sub
		}
		c.Subcommands = subs
	}
	for i := range cmds {
		fill(&cmds[i], "cmd."+cmds[i].Name)
	}
	return cmds
}

// Commands returns the slash commands with the options the mounted
// capabilities own, for adapters to register.
func (s *Service) Commands() []CommandSpec { return append([]CommandSpec(nil), s.cmds...) }

// withSettings is cmds with opts added to /settings, named in every
// language (a copy: the core's table is shared).
func withSettings(cmds []CommandSpec, opts []OptionSpec) []CommandSpec {
	out := append([]CommandSpec(nil), cmds...)
	for i := range out {
		if out[i].Name == "settings" {
			named := localize([]CommandSpec{{Name: "settings", Options: opts}})[0].Options
			out[i].Options = append(append([]OptionSpec(nil), out[i].Options...), named...)
		}
	}
	return out
}

// LookupCommand returns the core's command with that name; "NAME SUB"
// names a subcommand.
func LookupCommand(name string) (CommandSpec, bool) { return lookupIn(commands, name) }

// LookupCommand returns the command with that name, with the options the
// mounted capabilities own.
func (s *Service) LookupCommand(name string) (CommandSpec, bool) { return lookupIn(s.cmds, name) }

func lookupIn(cmds []CommandSpec, name string) (CommandSpec, bool) {
	name, sub, nested := strings.Cut(name, " ")
	for _, c := range cmds {
		if c.Name != name {
			continue
		}
		if !nested {
			return c, true
		}
		return c.Sub(sub)
	}
	return CommandSpec{}, false
}

// Sub finds a subcommand by its name or a localized name.
func (c CommandSpec) Sub(name string) (CommandSpec, bool) {
	return named(c.Subcommands, name, func(s CommandSpec) (string, map[string]string) { return s.Name, s.NameLocalizations })
}

// named finds the item called name, or failing that one whose localized
// name it is (in any case).
func named[T any](items []T, name string, names func(T) (string, map[string]string)) (T, bool) {
	for _, it := range items {
		if n, _ := names(it); n == name {
			return it, true
		}
	}
	for _, it := range items {
		_, local := names(it)
		for _, n := range local {
			if strings.EqualFold(n, name) {
				return it, true
			}
		}
	}
	var none T
	return none, false
}

// Path is the command's name with its subcommand's, as LookupCommand
// takes them.
func (r Request) Path() string {
	if r.Subcommand == "" {
		return r.Command
	}
	return r.Command + " " + r.Subcommand
}

// PrivateCommand reports whether every answer to a command is for the
// user alone.
func PrivateCommand(name string) bool {
	c, ok := LookupCommand(name)
	return ok && c.Private
}

// LookupLocalized returns the command a name in another language stands
// for ("打つ" is move), for transports where people type names (the
// terminal); Discord itself always sends the default name.
func LookupLocalized(typed string) (string, bool) {
	if _, ok := LookupCommand(typed); ok {
		return "", false
	}
	for _, c := range commands {
		for _, n := range c.NameLocalizations {
			if strings.EqualFold(n, typed) {
				return c.Name, true
			}
		}
	}
	return "", false
}

// CanonicalOptions renames options typed by their names in another
// language to their own names, and turns a choice typed by its shown name
// (in any language: "黒（先手）", "white") into its value.
func (s *Service) CanonicalOptions(command string, opts map[string]string) map[string]string {
	c, ok := s.LookupCommand(command)
	if !ok {
		return opts
	}
	out := make(map[string]string, len(opts))
	for k, v := range opts {
		spec, found := c.option(k)
		if found {
			k = spec.Name
			for _, ch := range spec.Choices {
				if ch.shownAs(v) {
					v = fmt.Sprint(ch.Value)
				}
			}
		}
		out[k] = v
	}
	return out
}

// shownAs reports whether a choice is shown as text in some language.
func (ch OptionChoice) shownAs(text string) bool {
	if strings.EqualFold(ch.Name, text) {
		return true
	}
	for _, n := range ch.NameLocalizations {
		if strings.EqualFold(n, text) {
			return true
		}
	}
	return false
}

// option finds an option by its name or a localized name.
func (c CommandSpec) option(name string) (OptionSpec, bool) {
	return named(c.Options, name, func(o OptionSpec) (string, map[string]string) { return o.Name, o.NameLocalizations })
}
