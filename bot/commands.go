package bot

// This file is the one table of slash commands: what each is called and
// takes, how the service answers it, and what adapters need to know to
// register and acknowledge it.

import (
	"context"
	"fmt"
	"othello-bot/place"
	"strconv"
	"strings"

	"othello-bot/catalog"
	"othello-bot/engine"
	"othello-bot/opening"
	"othello-bot/timecontrol"
	"othello-bot/tournament"
)

// OptionKind is the type of a command option.
type OptionKind int

const (
	StringOption OptionKind = iota + 1
	IntegerOption
	BooleanOption
	UserOption
)

// OptionChoice is one value an option may take, with the name shown.
type OptionChoice struct {
	Name  string
	Value any // a string, or an int for integer options
	// NameLocalizations are Name in the other languages, by Discord locale.
	NameLocalizations map[string]string

	key  string // the catalog message of Name
	args []any  // its placeholders
}

// OptionSpec is one option of a command.
type OptionSpec struct {
	Name, Description string
	Kind              OptionKind
	Required          bool
	Autocomplete      bool
	Min, Max          int // integer options without choices, when Max > 0
	MaxLength         int // string options: the longest value accepted, when > 0
	Choices           []OptionChoice
	// NameLocalizations and DescriptionLocalizations are Name and
	// Description in the other languages, by Discord locale.
	NameLocalizations, DescriptionLocalizations map[string]string
}

// CommandSpec is one slash command. Its name is its identity (what Discord
// sends back whatever the reader's language); names and descriptions shown
// to people come from the catalog: cmd.NAME.name and .desc, and
// cmd.NAME.opt.OPTION.name and .desc for its options.
type CommandSpec struct {
	Name, Description string
	Options           []OptionSpec
	// NameLocalizations and DescriptionLocalizations are Name and
	// Description in the other languages, by Discord locale.
	NameLocalizations, DescriptionLocalizations map[string]string
	// Private: every answer is for the user alone, so an adapter may
	// acknowledge it privately. (Whether an answer may wait for the engine
	// needs no flag: adapters acknowledge every interaction first.)
	Private bool
	// Subcommands make a command of several (/tournament create,
	// /tournament join), each with its own options, names and handler; a
	// command with subcommands has no options of its own (Discord's rule).
	// Their texts are cmd.NAME.sub.SUB.name and .desc, and
	// cmd.NAME.sub.SUB.opt.OPTION.name and .desc.
	Subcommands []CommandSpec
	// Need is what the command needs of the place it is used in (a
	// tournament needs the bot itself in the server); adapters register it
	// only where it can work.
	Need place.Need

	handle func(s *Service, ctx context.Context, req Request) (Response, error)
}

func choice(key string, value any, args ...any) OptionChoice {
	return OptionChoice{key: key, Value: value, args: args}
}

var (
	colorChoices = []OptionChoice{choice("choice.color.black", "black"), choice("choice.color.white", "white"), choice("choice.color.random", "random")}
	styleOption  = OptionSpec{Name: "style", Kind: StringOption,
		Choices: []OptionChoice{choice("choice.style.emoji", "emoji"), choice("choice.style.image", "image"), choice("choice.style.auto", "auto")}}
)

// timeOption is a game's time control, typed with suggestions.
var timeOption = OptionSpec{Name: "time", Kind: StringOption, Autocomplete: true, MaxLength: 16}

// speedOption picks the ratings of one speed.
func speedOption() OptionSpec {
	o := OptionSpec{Name: "speed", Kind: StringOption}
	for _, c := range timecontrol.Categories() {
		o.Choices = append(o.Choices, choice("speed."+string(c), string(c)))
	}
	return o
}

// levelOption offers each level with its approximate rating (engine
// levels.txt), so a player knows what they pick.
func levelOption() OptionSpec {
	o := OptionSpec{Name: "level", Kind: IntegerOption}
	for l := engine.MinLevel; l <= engine.MaxLevel; l++ {
		r, _ := engine.LevelRating(l)
		o.Choices = append(o.Choices, choice("choice.level."+strconv.Itoa(l), l, "N", l, "Rating", r))
	}
	return o
}

func sizeOption() OptionSpec {
	o := OptionSpec{Name: "size", Kind: IntegerOption}
	for n := 4; n <= 26; n += 2 {
		o.Choices = append(o.Choices, choice("choice.size", n, "N", n))
	}
	return o
}

// commands is the table, in the order Discord lists them.
var commands = localize([]CommandSpec{
	{Name: "start",
		Options: []OptionSpec{
			levelOption(),
			{Name: "color", Kind: StringOption, Choices: colorChoices},
			sizeOption(),
			styleOption,
			timeOption,
			{Name: "xot", Kind: BooleanOption},
		},
		handle: (*Service).start},
	{Name: "move",
		Options: []OptionSpec{{Name: "square", Kind: StringOption, Required: true, Autocomplete: true}},
		handle:  (*Service).moveCommand},
	{Name: "challenge", Private: true,
		Options: []OptionSpec{
			{Name: "opponent", Kind: UserOption},
			{Name: "color", Kind: StringOption, Choices: colorChoices},
			sizeOption(),
			{Name: "rated", Kind: BooleanOption},
			styleOption,
			timeOption,
			{Name: "xot", Kind: BooleanOption},
		},
		handle: (*Service).challenge},
	{Name: "board", handle: (*Service).board},
	{Name: "leaderboard",
		Options: []OptionSpec{{Name: "scope", Kind: StringOption,
			Choices: []OptionChoice{choice("choice.scope.server", "server"), choice("choice.scope.global", "global")}},
			speedOption()},
		handle: (*Service).leaderboard},
	{Name: "stats",
		Options: []OptionSpec{{Name: "user", Kind: UserOption}, speedOption()},
		handle:  (*Service).stats},
	{Name: "history",
		Options: []OptionSpec{{Name: "user", Kind: UserOption}},
		handle:  (*Service).history},
	{Name: "puzzle", Private: true,
		Options: []OptionSpec{{Name: "show", Kind: StringOption,
			Choices: []OptionChoice{choice("choice.puzzle.leaderboard", "leaderboard"), choice("choice.puzzle.me", "me")}}}},
	// answered by bot/puzzles
	{Name: "openings",
		Options: []OptionSpec{{Name: "moves", Kind: StringOption, MaxLength: 4 * opening.MaxLine}},
		handle:  (*Service).openings},
	{Name: "hint", Private: true, handle: (*Service).hint},
	{Name: "resign", Private: true, handle: (*Service).resignAsk},
	{Name: "games",
		Options: []OptionSpec{{Name: "user", Kind: UserOption}},
		handle:  (*Service).listGames},
	{Name: "replay",
		Options: []OptionSpec{{Name: "game", Kind: IntegerOption, Required: true, Min: 1, Max: 1 << 30}},
		handle:  (*Service).replayCommand},
	{Name: "analyze",
		Options: []OptionSpec{{Name: "game", Kind: IntegerOption, Required: true, Min: 1, Max: 1 << 30}}},
	// analyze: answered by bot/analyses
	{Name: "undo", handle: (*Service).undo},
	{Name: "abort",
		Options: []OptionSpec{{Name: "reason", Kind: StringOption, MaxLength: maxAbortReason}},
		handle:  (*Service).abort},
	{Name: "settings", Private: true,
		Options: []OptionSpec{
			{Name: "language", Kind: StringOption,
				Choices: []OptionChoice{choice("choice.language.en", "en"), choice("choice.language.ja", "ja"), choice("choice.language.discord", "discord")}},
			{Name: "scope", Kind: StringOption,
				Choices: []OptionChoice{choice("choice.settings.me", "me"), choice("choice.settings.server", "server")}},
			{Name: "puzzle-channel", Kind: StringOption,
				Choices: []OptionChoice{choice("choice.daily.here", "here"), choice("choice.daily.off", "off")}},
			{Name: "puzzle-hour", Kind: IntegerOption, Min: 0, Max: 23},
		},
		handle: (*Service).settings},
	tournamentCommand,
	{Name: "help", Private: true,
		handle: func(_ *Service, _ context.Context, req Request) (Response, error) { return help(req.Me()), nil }},
})

func tournamentID() OptionSpec {
	return OptionSpec{Name: "id", Kind: IntegerOption, Min: 1, Max: 1 << 30}
}

func reasonOption() OptionSpec {
	return OptionSpec{Name: "reason", Kind: StringOption, MaxLength: maxAbortReason}
}

// tournamentCommand is answered by a mounted capability (bot/tournaments).
var tournamentCommand = CommandSpec{Name: "tournament", Need: place.BotMember, Subcommands: []CommandSpec{
	{Name: "create", Private: true, Options: []OptionSpec{
		{Name: "format", Kind: StringOption, Required: true, Choices: []OptionChoice{
			choice("choice.format.swiss", "swiss"), choice("choice.format.roundrobin", "roundrobin"), choice("choice.format.arena", "arena")}},
		{Name: "name", Kind: StringOption, MaxLength: tournament.MaxNameLength},
		{Name: "start", Kind: StringOption, MaxLength: 32},
		timeOption,
		sizeOption(),
		{Name: "rated", Kind: BooleanOption},
		{Name: "rounds", Kind: IntegerOption, Min: 1, Max: tournament.MaxRounds},
		{Name: "double", Kind: BooleanOption},
		{Name: "minutes", Kind: IntegerOption, Min: tournament.MinArenaMinutes, Max: tournament.MaxArenaMinutes},
	}},
	{Name: "join", Private: true, Options: []OptionSpec{tournamentID()}},
	{Name: "leave", Private: true, Options: []OptionSpec{tournamentID()}},
	{Name: "show", Private: true, Options: []OptionSpec{tournamentID()}},
	{Name: "start", Private: true, Options: []OptionSpec{tournamentID()}},
	{Name: "pause", Private: true, Options: []OptionSpec{tournamentID(), reasonOption()}},
	{Name: "cancel", Private: true, Options: []OptionSpec{tournamentID(), reasonOption()}},
	{Name: "kick", Private: true, Options: []OptionSpec{
		{Name: "user", Kind: UserOption, Required: true}, tournamentID(), reasonOption()}},
}}

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

// Commands returns the slash commands, for adapters to register.
func Commands() []CommandSpec { return append([]CommandSpec(nil), commands...) }

// LookupCommand returns the command with that name; "NAME SUB" names a
// subcommand.
func LookupCommand(name string) (CommandSpec, bool) {
	name, sub, nested := strings.Cut(name, " ")
	for _, c := range commands {
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
	for _, s := range c.Subcommands {
		if s.Name == name {
			return s, true
		}
	}
	for _, s := range c.Subcommands {
		for _, n := range s.NameLocalizations {
			if strings.EqualFold(n, name) {
				return s, true
			}
		}
	}
	return CommandSpec{}, false
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

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
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
func CanonicalOptions(command string, opts map[string]string) map[string]string {
	c, ok := LookupCommand(command)
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
	for _, o := range c.Options {
		if o.Name == name {
			return o, true
		}
	}
	for _, o := range c.Options {
		for _, n := range o.NameLocalizations {
			if strings.EqualFold(n, name) {
				return o, true
			}
		}
	}
	return OptionSpec{}, false
}
