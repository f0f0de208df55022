// Command othello-bot is the Othello bot: the Discord bot, the same bot in a
// terminal, a terminal game, the engine over GTP, and tools around them.
// This file only dispatches to the subcommands.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
)

type command struct {
	name    string
	summary string
	run     func(args []string, stdin io.Reader, stdout io.Writer) error
}

var commands = []command{
	{"run", "the Discord bot (DISCORD_TOKEN from the environment)", runBot},
	{"local", "the bot in this terminal, no Discord account needed", runLocal},
	{"play", "a terminal game against the computer", runPlay},
	{"perft", "count move-tree leaves: -size N -depth D", runPerft},
	{"solve", "exact endgame solve: -board BOARD64 -side X|O", runSolve},
	{"gtp", "the engine over GTP on stdin/stdout", runGTP},
	{"migrate", "apply the database migrations and print the schema version; --from FILE --to URL copies SQLite into PostgreSQL", runMigrate},
	{"web", "serve the game pages from the database: --addr :8080", runWeb},
	{"results", "print the results log rebuilt from the database: [--since DATE]", runResults},
	{"health", "exit 0 if the bot here is alive: its heartbeat (--heartbeat FILE, $OTHELLO_HEARTBEAT) or --url URL", runHealth},
	{"version", "print the bot's version, its revision and the Go release that built it", runVersion},
}

// summaries are the commands' one-line descriptions, by name, for -h.
var summaries = map[string]string{}

func init() {
	for _, c := range commands {
		summaries[c.name] = c.summary
	}
}

// usageError marks bad input: exit status 2 instead of 1.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return usageError{fmt.Sprintf(format, args...)} }

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		usage(stderr)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	for _, c := range commands {
		if c.name != args[0] {
			continue
		}
		err := c.run(args[1:], stdin, stdout)
		switch {
		case err == nil:
			return 0
		case errors.Is(err, flag.ErrHelp):
			return 0
		}
		fmt.Fprintf(stderr, "othello-bot %s: %v\n", c.name, err)
		var ue usageError
		if errors.As(err, &ue) {
			return 2
		}
		return 1
	}
	fmt.Fprintf(stderr, "othello-bot: unknown command %q (run othello-bot help)\n", args[0])
	return 2
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: othello-bot COMMAND [flags]")
	fmt.Fprintln(w)
	for _, c := range commands {
		fmt.Fprintf(w, "  %-8s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "othello-bot COMMAND -h shows a command's flags.")
}

// newFlags makes a flag set whose errors come back as usage errors rather
// than exiting the process.
func newFlags(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs
}

// parseFlags parses args and refuses stray arguments.
func parseFlags(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fs.SetOutput(os.Stderr)
			fmt.Fprintf(os.Stderr, "usage: othello-bot %s [flags]\n%s\n\nflags:\n", fs.Name(), summaries[fs.Name()])
			fs.PrintDefaults()
			return err
		}
		return usageError{err.Error()}
	}
	if fs.NArg() > 0 {
		return usagef("unexpected argument %q", fs.Arg(0))
	}
	return nil
}
