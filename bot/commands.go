package bot

// This file is the one table of slash commands: what each is called and
// takes, how the service answers it, and what adapters need to know to
// register and acknowledge it.

import (
	"context"
	"othello-bot/drill"
	"strconv"

	"othello-bot/engine"
	"othello-bot/opening"
	"othello-bot/place"
	"othello-bot/timecontrol"
	"othello-bot/tournament"
)

func choice(key string, value any, args ...any) OptionChoice {
	return OptionChoice{key: key, Value: value, args: args}
}

// ChoiceFor is a choice of an option a capability owns: value, shown as
// the catalog's key (in every language).
func ChoiceFor(key string, value any) OptionChoice { return choice(key, value) }

var (
	colorChoices = []OptionChoice{choice("choice.color.black", "black"), choice("choice.color.white", "white"), choice("choice.color.random", "random")}
	styleOption  = OptionSpec{Name: "style", Kind: StringOption,
		Choices: []OptionChoice{choice("choice.style.emoji", "emoji"), choice("choice.style.image", "image"), choice("choice.style.auto", "auto")}}
)

// timeOption is a game's time control, typed with suggestions.
var timeOption = OptionSpec{Name: "time", Kind: StringOption, Autocomplete: true, MaxLength: 16}

// gameNumber names a game by its number (/replay, /analyze, /export).
var gameNumber = OptionSpec{Name: "game", Kind: IntegerOption, Required: true, Min: 1, Max: 1 << 30}

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
	{Name: "board"}, // bot/pageplay
	{Name: "leaderboard",
		Options: []OptionSpec{{Name: "scope", Kind: StringOption,
			Choices: []OptionChoice{choice("choice.scope.server", "server"), choice("choice.scope.global", "global")}},
			speedOption()}, Owner: "stats"},
	{Name: "stats",
		Options: []OptionSpec{{Name: "user", Kind: UserOption}, speedOption()}, Owner: "stats"},
	{Name: "history",
		Options: []OptionSpec{{Name: "user", Kind: UserOption}}, Owner: "stats"},
	{Name: "puzzle", Private: true,
		Options: []OptionSpec{{Name: "show", Kind: StringOption,
			Choices: []OptionChoice{choice("choice.puzzle.leaderboard", "leaderboard"), choice("choice.puzzle.me", "me")}},
			{Name: "mode", Kind: StringOption, Choices: []OptionChoice{choice("choice.puzzle_mode.mine", "mine"),
				choice("choice.puzzle_mode.storm", "storm"), choice("choice.puzzle_mode.streak", "streak"),
				choice("choice.puzzle_mode.race", "race")}}},
		Owner: "puzzles"},
	{Name: "train", Owner: "train", Subcommands: []CommandSpec{
		{Name: "opening", Private: true, Options: []OptionSpec{
			{Name: "name", Kind: StringOption, Required: true, Autocomplete: true, MaxLength: 100},
			{Name: "color", Kind: StringOption, Choices: colorChoices}}},
		{Name: "endgame", Private: true, Options: []OptionSpec{
			{Name: "empties", Kind: IntegerOption, Min: drill.MinEmpties, Max: drill.MaxEmpties}}},
	}},
	{Name: "openings",
		Options: []OptionSpec{{Name: "moves", Kind: StringOption, MaxLength: 4 * opening.MaxLine}}, Owner: "stats"},
	{Name: "hint", Private: true, Owner: "hints"},
	{Name: "resign", Private: true, Owner: "resigns"},
	{Name: "games",
		Options: []OptionSpec{{Name: "user", Kind: UserOption}}, Owner: "stats"},
	{Name: "replay", Options: []OptionSpec{gameNumber}, Owner: "review"},
	{Name: "analyze", Options: []OptionSpec{{Name: "game", Kind: IntegerOption, Min: 1, Max: 1 << 30},
		{Name: "record", Kind: StringOption, MaxLength: 6000}, // Discord's longest text option
		{Name: "file", Kind: AttachmentOption}}, Owner:        "review"},
	{Name: "export", Private: true, Options: []OptionSpec{gameNumber}, Owner: "review"},
	{Name: "undo"},
	{Name: "follow", Private: true, Options: []OptionSpec{{Name: "user", Kind: UserOption}}, Owner: "follows"},
	{Name: "play", Need: place.BotPosts, Owner: "pairing", Options: []OptionSpec{timeOption, sizeOption(), {Name: "rated", Kind: BooleanOption},
		{Name: "range", Kind: IntegerOption, Min: 50, Max: 1000}}},
	{Name: "abort", Options: []OptionSpec{{Name: "reason", Kind: StringOption, MaxLength: MaxAbortReason}}, Owner: "aborts"},
	{Name: "settings", Private: true,
		Options: []OptionSpec{
			{Name: "language", Kind: StringOption,
				Choices: []OptionChoice{choice("choice.language.en", "en"), choice("choice.language.ja", "ja"), choice("choice.language.discord", "discord")}},
			{Name: "scope", Kind: StringOption,
				Choices: []OptionChoice{choice("choice.settings.me", "me"), choice("choice.settings.server", "server")}},
			// The capabilities add theirs as they mount (SettingsSection).
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
	return OptionSpec{Name: "reason", Kind: StringOption, MaxLength: MaxAbortReason}
}

// tournamentCommand is answered by a mounted capability (bot/tournaments).
var tournamentCommand = CommandSpec{Name: "tournament", Need: place.BotMember, Owner: "tournaments", Subcommands: []CommandSpec{
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
		{Name: "teams", Kind: IntegerOption, Min: 1, Max: tournament.MaxTeamTop},
		{Name: "team", Kind: StringOption, MaxLength: tournament.MaxTeamNameLen},
	}},
	{Name: "invite", Private: true, Options: []OptionSpec{
		{Name: "server", Kind: StringOption, Required: true, MaxLength: 20}, tournamentID()}},
	{Name: "accept", Options: []OptionSpec{
		{Name: "id", Kind: IntegerOption, Required: true, Min: 1, Max: 1 << 30},
		{Name: "name", Kind: StringOption, Required: true, MaxLength: tournament.MaxTeamNameLen}}},
	{Name: "join", Private: true, Options: []OptionSpec{tournamentID()}},
	{Name: "leave", Private: true, Options: []OptionSpec{tournamentID()}},
	{Name: "show", Private: true, Options: []OptionSpec{tournamentID()}},
	{Name: "list", Private: true},
	{Name: "start", Private: true, Options: []OptionSpec{tournamentID()}},
	{Name: "pause", Private: true, Options: []OptionSpec{tournamentID(), reasonOption()}},
	{Name: "cancel", Private: true, Options: []OptionSpec{tournamentID(), reasonOption()}},
	{Name: "kick", Private: true, Options: []OptionSpec{
		{Name: "user", Kind: UserOption, Required: true}, tournamentID(), reasonOption()}},
}}
