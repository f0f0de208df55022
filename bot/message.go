// Package bot is the core of othello-bot's command logic, with no chat
// transport inside: a Request comes in (a slash command, a button, a select
// menu, an autocomplete), a Response goes out. The Discord and terminal
// adapters translate to and from these types, so both drive the very same
// logic. It holds the game flow every capability shares (start, move,
// challenge, views, limits, language) and the one table naming every entry
// point; tournaments, puzzles, review and stats are capabilities mounted on
// it (see capability.go, and package app for the wiring).
package bot

import (
	"context"
	"othello-bot/place"
	"time"

	"othello-bot/record"
)

// Kind is what the user did.
type Kind int

const (
	Command      Kind = iota // a slash command
	Autocomplete             // typing in an option that suggests values
	Button                   // pressing a button
	Select                   // picking from a select menu
)

// Request is one user action in a channel.
type Request struct {
	Kind      Kind
	User      record.Player
	GuildID   string // "" outside a server
	ChannelID string
	// InThread says ChannelID is a thread (one the bot opened for a game, or
	// one a member opened), whose channel is ParentID: no thread can be
	// opened from it, and posting there takes Send Messages in Threads.
	InThread bool
	ParentID string
	// Place is what kind of channel this is as far as the bot's own powers
	// go: where the bot is no member, everything it shows goes through the
	// request's replies (see package place).
	Place place.Place
	// Command and Options for Command and Autocomplete: option values as
	// typed. Users given as options hold the user id; UserNames maps those
	// ids to names when the transport knows them.
	Command string
	// Subcommand is the subcommand chosen (/tournament create: "create").
	Subcommand string
	Options    map[string]string
	UserNames  map[string]string
	// BotUsers are the users given as options that are bots.
	BotUsers map[string]bool
	// UnmentionableRoles are the roles given as options that only members
	// with Mention Everyone may ping.
	UnmentionableRoles map[string]bool
	Focused            string // the option being typed, for Autocomplete
	// CustomID identifies the button or select menu; Values are the
	// selected options.
	CustomID string
	Values   []string
	// MessageID is the message a component was on.
	MessageID string
	// ID identifies the request in the log.
	ID string
	// Token lets the bot finish its reply after a restart: Discord's
	// interaction token, valid for 15 minutes. Empty where there is none.
	Token string
	// AppPermissions are the bot's permissions in the channel, when the
	// transport knows them (PermissionsKnown).
	AppPermissions   int64
	PermissionsKnown bool
	// Roles are the user's roles in the server, by id (none outside one).
	Roles []string
	// MemberPermissions are the user's own permissions in the channel (0
	// outside a server).
	MemberPermissions int64
	// Locale is the user's Discord language ("ja", "en-US"); GuildLocale
	// the server's ("" outside a server). Empty: English.
	Locale, GuildLocale string
	// At is when Discord received the interaction (its id's time), which
	// a move is charged up to; zero: when the bot handles it.
	At time.Time

	tr readers // the languages chosen for this request (Handle sets them)
	// repliedIn is the channel the reply shows in, when the request acts
	// on another (a rematch from a game's thread starts in its channel).
	repliedIn string
}

// Message is something the bot says.
type Message struct {
	Content    string
	Embed      *Embed
	Components []Row
	Files      []File
	// Ephemeral replies are shown only to the user who asked.
	Ephemeral bool
	// Mentions are the users this message may ping (written <@id> in its
	// text). Nobody else is ever pinged, whatever the text holds.
	Mentions []string
	// RoleMentions are the roles this message may ping (written <@&id>).
	RoleMentions []string
	// Game is set on a game message that is the game's live one (its menu
	// and buttons act on the game): the adapter reports where it put it
	// with Service.Posted, and the older game message loses its menu.
	Game *GameRef
	// posted is called with the message's id once an adapter has shown it
	// (see Service.Posted): work that must not start before.
	posted func(ctx context.Context, id string)
}

// GameRef names a game and the version of it a message shows.
type GameRef struct {
	ID      int64
	Version int64
	// Recorded is the message the turns' own writes already recorded as
	// showing this version (the live message whose menu made the move,
	// edited in place): Posted need not record it again.
	Recorded string
}

// Embed is a titled box with a description and fields.
type Embed struct {
	Title       string
	Description string
	Fields      []Field
	Footer      string
	Color       int
	// Image shows an attached file in the embed: "attachment://NAME".
	Image string
	// URL links the title to a web page.
	URL string
}

// Field is a name and value in an embed.
type Field struct {
	Name, Value string
	Inline      bool
}

// Row is a line of components: buttons, or one select menu.
type Row struct {
	Buttons []ButtonSpec
	Menu    *Menu
}

// ButtonStyle is how a button looks.
type ButtonStyle int

const (
	Primary ButtonStyle = iota + 1
	Secondary
	Success
	Danger
)

// ButtonSpec is a button with its label and custom id, or a link button:
// one with a URL (Discord's link style) opens the address and sends the
// bot nothing, so it has no custom id and no style of its own.
type ButtonSpec struct {
	Label    string
	CustomID string
	Style    ButtonStyle
	Disabled bool
	URL      string
}

// Menu is a select menu of options.
type Menu struct {
	CustomID    string
	Placeholder string
	Options     []MenuOption
}

// MenuOption is one choice in a select menu.
type MenuOption struct {
	Label, Value string
}

// File is an attachment.
type File struct {
	Name string
	Data []byte
}

// Choice is an autocomplete suggestion.
type Choice struct {
	Name, Value string
}

// Response is the bot's answer to a Request.
type Response struct {
	// Message is the reply. For Button and Select requests with Update set,
	// it replaces the message the component is on.
	Message *Message
	Update  bool
	// Followups are further public messages sent through the interaction
	// (they reach the channel even where the bot may not post).
	Followups []Message
	// Choices answer an Autocomplete request.
	Choices []Choice
	// LaunchActivity answers a button by opening the app's Discord
	// Activity for the user where they pressed it (see OpensActivity).
	LaunchActivity bool
	// delivered runs once the response is shown (see Delivered).
	delivered func()
}

// Delivered is told by an adapter once it has shown the response, or
// given up on it: what must come after the answer (the step a tournament
// takes after the move that ended its last game) runs then.
func (r Response) Delivered() {
	if r.delivered != nil {
		r.delivered()
	}
}

// Reply answers in the channel.
func Reply(text string) Response {
	return Response{Message: &Message{Content: text}}
}

// Refuse answers only the user and changes nothing.
func Refuse(text string) Response {
	return Response{Message: &Message{Content: text, Ephemeral: true}}
}

// Refusal is Refuse by pointer, for the helpers that answer "or this".
func Refusal(text string) *Response { r := Refuse(text); return &r }

// Deref is a response given by pointer, or none.
func Deref(r *Response) Response {
	if r == nil {
		return Response{}
	}
	return *r
}
