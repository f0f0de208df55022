package bot

// This file is the one table of slash commands: what each is called and
// takes, how the service answers it, and what adapters need to know to
// register and acknowledge it.

import "context"

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
}

// CommandSpec is one slash command.
type CommandSpec struct {
	Name, Description string
	Options           []OptionSpec
	// Private: every answer is for the user alone, so an adapter may
	// acknowledge it privately. (Whether an answer may wait for the engine
	// needs no flag: adapters acknowledge every interaction first.)
	Private bool

	handle func(s *Service, ctx context.Context, req Request) (Response, error)
}

var (
	colorChoices = []OptionChoice{{"black (moves first)", "black"}, {"white", "white"}, {"random", "random"}}
	styleOption  = OptionSpec{Name: "style", Description: "Board as emoji or as a picture (remembered for next time)", Kind: StringOption,
		Choices: []OptionChoice{{"emoji", "emoji"}, {"picture", "image"}, {"automatic (pictures for large boards)", "auto"}}}
)

func sizeOption() OptionSpec {
	o := OptionSpec{Name: "size", Description: "Board size (default 8x8)", Kind: IntegerOption}
	for n := 4; n <= 26; n += 2 {
		o.Choices = append(o.Choices, OptionChoice{Name: itoa(n) + "x" + itoa(n), Value: n})
	}
	return o
}

// commands is the table, in the order Discord lists them.
var commands = []CommandSpec{
	{Name: "start", Description: "Start a game of Othello against me in this channel",
		Options: []OptionSpec{
			{Name: "level", Description: "How strong I play: 1 (random) to 10 (my best)", Kind: IntegerOption, Min: 1, Max: 10},
			{Name: "color", Description: "Your colour", Kind: StringOption, Choices: colorChoices},
			sizeOption(),
			styleOption,
		},
		handle: (*Service).start},
	{Name: "move", Description: "Play a move, like d3",
		Options: []OptionSpec{{Name: "square", Description: "Column letter and row number, like d3", Kind: StringOption,
			Required: true, Autocomplete: true}},
		handle: (*Service).moveCommand},
	{Name: "challenge", Description: "Challenge a member (or anyone, if you name nobody) to a game", Private: true,
		Options: []OptionSpec{
			{Name: "opponent", Description: "Who you want to play; leave empty for anyone", Kind: UserOption},
			{Name: "color", Description: "Your colour", Kind: StringOption, Choices: colorChoices},
			sizeOption(),
			{Name: "rated", Description: "Does it count for the ratings? (default yes)", Kind: BooleanOption},
			styleOption,
		},
		handle: (*Service).challenge},
	{Name: "board", Description: "Show this channel's game", handle: (*Service).board},
	{Name: "leaderboard", Description: "The top 10 by rating, and your place",
		Options: []OptionSpec{{Name: "scope", Description: "This server or everywhere", Kind: StringOption,
			Choices: []OptionChoice{{"this server", "server"}, {"everywhere", "global"}}}},
		handle: (*Service).leaderboard},
	{Name: "stats", Description: "Ratings, record, streak and results against each bot level",
		Options: []OptionSpec{{Name: "user", Description: "Whose stats (default: yours)", Kind: UserOption}},
		handle:  (*Service).stats},
	{Name: "history", Description: "The last 10 finished games, with transcripts",
		Options: []OptionSpec{{Name: "user", Description: "Whose games (default: yours)", Kind: UserOption}},
		handle:  (*Service).history},
	{Name: "hint", Description: "My suggestion for your move (only you see it)", Private: true,
		handle: (*Service).hint},
	{Name: "resign", Description: "Resign this channel's game (asks first)", Private: true, handle: (*Service).resignAsk},
	{Name: "games", Description: "The games running in this server (or one member's)",
		Options: []OptionSpec{{Name: "user", Description: "Whose games (default: everyone's)", Kind: UserOption}},
		handle:  (*Service).listGames},
	{Name: "replay", Description: "A finished game as an animated picture",
		Options: []OptionSpec{{Name: "game", Description: "The game's number, like 12", Kind: IntegerOption, Required: true, Min: 1, Max: 1 << 30}},
		handle:  (*Service).replayCommand},
	{Name: "analyze", Description: "Every move of a finished game against my best, with a graph",
		Options: []OptionSpec{{Name: "game", Description: "The game's number, like 12", Kind: IntegerOption, Required: true, Min: 1, Max: 1 << 30}},
		handle:  (*Service).analyzeCommand},
	{Name: "undo", Description: "Take back your last move and my reply (casual games against me)", handle: (*Service).undo},
	{Name: "abort", Description: "End this channel's game without a result (players early on, or a moderator)",
		Options: []OptionSpec{{Name: "reason", Description: "Why (moderators: it goes into the results log)", Kind: StringOption,
			MaxLength: maxAbortReason}},
		handle: (*Service).abort},
	{Name: "help", Description: "How to play", Private: true,
		handle: func(*Service, context.Context, Request) (Response, error) { return help(), nil }},
}

// Commands returns the slash commands, for adapters to register.
func Commands() []CommandSpec { return append([]CommandSpec(nil), commands...) }

// LookupCommand returns the command with that name.
func LookupCommand(name string) (CommandSpec, bool) {
	for _, c := range commands {
		if c.Name == name {
			return c, true
		}
	}
	return CommandSpec{}, false
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
