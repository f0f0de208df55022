package bot

// This file is what a command of the table is: its options, their
// choices, and the texts people see.

import (
	"context"

	"othello-bot/place"
)

// OptionKind is the type of a command option.
type OptionKind int

const (
	StringOption OptionKind = iota + 1
	IntegerOption
	BooleanOption
	UserOption
	RoleOption
	AttachmentOption // a file, read by the adapter into the option it stands for
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
	// Owner names the capability that answers the command (bot/OWNER),
	// mounted on the service; empty for the core's own, whose handle is
	// set here.
	Owner string

	handle func(s *Service, ctx context.Context, req Request) (Response, error)
}
