package bot

// This file shows a game as a message: board, score, turn, move menu and
// result.

import (
	"fmt"
	"strconv"
	"strings"

	"othello-bot/catalog"
	"othello-bot/customid"
	"othello-bot/engine"
	"othello-bot/game"
	"othello-bot/gametext"
	"othello-bot/record"
	"othello-bot/render"
)

// SideName names a side for messages: the player's name, or the bot.
func SideName(t *catalog.Printer, s record.Side) string {
	if s.IsBot() {
		return t.T("side.bot", "Level", s.Level)
	}
	return name(s.Player)
}

// GamePlayers names both sides: "alice vs Bot (level 3)".
func GamePlayers(t *catalog.Printer, g *record.Game) string {
	return t.T("game.players", "Black", SideName(t, g.Black), "White", SideName(t, g.White))
}

// SideLabel is a side's name with its disc.
func SideLabel(t *catalog.Printer, g *record.Game, c game.Color) string {
	return SideName(t, g.Side(c)) + " " + render.Disc(c)
}

// describePlies tells what a turn did: the move and any passes it forced.
func describePlies(t *catalog.Printer, g *record.Game, plies []game.Ply) []string {
	var out []string
	for _, p := range plies {
		if p.Square.IsPass() {
			out = append(out, t.T("play.passes", "Side", SideLabel(t, g, p.Color)))
		} else {
			out = append(out, t.T("play.played", "Side", SideLabel(t, g, p.Color), "Square", p.Square.String()))
		}
	}
	return out
}

// score writes a finished game's disc counts in the reader's convention.
func score(t *catalog.Printer, black, white int) string {
	return t.T("game.score", "Black", black, "White", white)
}

// ResultLine says how a finished game ended.
func ResultLine(t *catalog.Printer, g *record.Game) string {
	r := g.Result
	if r == nil {
		return ""
	}
	sc := score(t, r.BlackDiscs, r.WhiteDiscs)
	switch r.Reason {
	case record.EndAbort:
		return t.T("result.aborted", "ID", g.ID)
	case record.EndAbandoned:
		return t.T("result.abandoned", "ID", g.ID)
	case record.EndModerator:
		return t.T("result.moderator", "ID", g.ID)
	case record.EndResign:
		if r.Withdrawal() {
			return t.T("result.withdrawal", "Winner", SideLabel(t, g, r.Winner), "Score", sc)
		}
		return t.T("result.resign", "Winner", SideLabel(t, g, r.Winner), "Score", sc)
	case record.EndTimeout:
		return t.T("result.timeout", "Winner", SideLabel(t, g, r.Winner), "Score", sc)
	}
	if r.Winner == game.Empty {
		return t.T("result.draw", "Score", sc)
	}
	// A win reads winner's discs first ("bob ⚪ wins 45–19", not 19–45).
	won, lost := r.BlackDiscs, r.WhiteDiscs
	if r.Winner == game.White {
		won, lost = lost, won
	}
	return t.T("result.win", "Winner", SideLabel(t, g, r.Winner), "Score", t.T("game.margin", "Winner", won, "Loser", lost))
}

// transcriptFooter puts a finished game's moves in the footer, or, when
// they are too long for it (large boards), the start of them there and the
// whole transcript in an attached text file.
func transcriptFooter(t *catalog.Printer, g *record.Game, m *Message) {
	moves := g.State.Moves()
	if len(moves) == 0 && len(g.Opening) == 0 { // an XOT start's opening is moves on the board too
		m.Embed.Footer = t.T("game.no_moves")
		return
	}
	tr := g.Transcript() // from the standard start: an XOT opening first
	if footer := t.T("game.transcript", "Moves", tr); Length(footer) <= MaxFooter {
		m.Embed.Footer = footer
		return
	}
	name := fmt.Sprintf("game-%d-transcript.txt", g.ID)
	note := t.T("game.transcript_file", "Count", len(moves), "File", name)
	m.Embed.Footer = Clip(t.T("game.transcript", "Moves", tr), MaxFooter-Length(note)) + note
	m.Files = append(m.Files, File{Name: name, Data: []byte(tr + "\n")})
}

// ping is a short message that notifies a player: mentions ping only when
// a message is created, never when one is edited.
func ping(userID, text string) Message {
	return Message{Content: Mention(userID) + " " + text, Mentions: []string{userID}}
}

// lastMove is the most recent square played, or Pass.
func lastMove(g *record.Game) game.Square {
	plies := g.Plies()
	for i := len(plies) - 1; i >= 0; i-- {
		if !plies[i].Square.IsPass() {
			return plies[i].Square
		}
	}
	return game.Pass
}

// usesImage reports whether a game's board is shown as a picture.
func (s *Service) usesImage(g *record.Game) bool {
	return g.Style == record.StyleImage || g.Size() > s.cfg.MaxEmojiSize || g.Size() > render.MaxEmojiSize
}

// drawBoard puts the board into a message: emoji in the embed, or a PNG
// attached and shown in the embed.
func (s *Service) drawBoard(t *catalog.Printer, g *record.Game, m *Message) {
	p := g.Position()
	last := lastMove(g)
	running := g.Status == record.Active
	marks := []any{"Black", render.Black, "White", render.White, "Legal", render.Legal, "Last", render.LastBlack + render.LastWhite}
	if !s.usesImage(g) {
		legend := t.T("legend.running", marks...)
		if !running {
			legend = t.T("legend.final", marks...)
		}
		m.Embed.Description = render.Emoji(p, last, running) + "\n" + legend
		return
	}
	b, w := p.Count()
	caption := t.T("caption.running", "Black", b, "White", w, "Side", plainSide(t, g.ToMove()))
	name := fmt.Sprintf("board-%d-%d.png", g.ID, g.PlyCount())
	if !running {
		caption = t.T("caption.final", "Black", b, "White", w, "Result", ResultCaption(t, g))
		// Not the name of the last running picture of the same move: the
		// terminal saves pictures by name.
		name = fmt.Sprintf("board-%d-%d-final.png", g.ID, g.PlyCount())
	}
	data, err := render.PNG(p, last, caption, running)
	if err != nil {
		s.log.Error("drawing board", "game", g.ID, "err", err)
		m.Embed.Description = t.T("picture.failed")
		return
	}
	m.Files = []File{{Name: name, Data: data}}
	m.Embed.Image = "attachment://" + name
	m.Embed.Description = t.T("picture.legend_running")
	if !running {
		m.Embed.Description = t.T("picture.legend_final")
	}
}

// Plain writes a game's plain text (pictures, thread names, captions) in
// t's language, names shortened for Discord.
func Plain(t *catalog.Printer) gametext.Words { return gametext.Words{T: t, Name: plainName} }

// plainSide names a side in plain text, for pictures and thread names.
func plainSide(t *catalog.Printer, s record.Side) string { return Plain(t).Side(s) }

// ResultCaption says in plain text who won and how, for the picture of a
// finished game.
func ResultCaption(t *catalog.Printer, g *record.Game) string { return Plain(t).Result(g) }

// GameMessage shows a game to everyone in its channel (t writes in the
// server's language): what just happened, the board, the score and whose
// turn it is, and while a person is to move, a menu of their legal moves
// and a Resign button.
func (s *Service) GameMessage(t *catalog.Printer, g *record.Game, notes []string) *Message {
	p := g.Position()
	b, w := p.Count()
	e := &Embed{
		Title:  t.T("game.title", "ID", g.ID, "Black", SideLabel(t, g, game.Black), "White", SideLabel(t, g, game.White)),
		Fields: []Field{{Name: t.T("field.score"), Value: t.T("game.count", "BlackDisc", render.Black, "Black", b, "WhiteDisc", render.White, "White", w), Inline: true}},
		Color:  0x2e7d32,
	}
	for _, side := range []record.Side{g.Black, g.White} {
		if side.IsBot() {
			// The level in words with its rating, as the level menu offers it.
			r, _ := engine.LevelRating(side.Level)
			e.Fields = append(e.Fields, Field{Name: t.T("field.bot_level"), Value: t.T("choice.level."+strconv.Itoa(side.Level), "Rating", r), Inline: true})
			break
		}
	}
	e.URL = s.GamePage(g)
	m := &Message{Content: strings.Join(notes, " "), Embed: e, Game: &GameRef{ID: g.ID, Version: g.Version, Recorded: g.ShownIn}}
	s.drawBoard(t, g, m)
	if live(g) {
		clocks, due := clockLines(t, g, s.clock.Now())
		if due != "" {
			clocks += "\n" + due
		}
		e.Fields = append(e.Fields, Field{Name: t.T("field.clocks"), Value: clocks, Inline: true})
	}
	if !g.Control.IsZero() {
		e.Fields = append(e.Fields, Field{Name: t.T("field.time_control"), Value: ControlName(t, g.Control), Inline: true})
	}
	if name := Plain(t).Opening(g.State.Start(), g.State.Moves()); name != "" {
		e.Fields = append(e.Fields, Field{Name: t.T("field.opening"), Value: name, Inline: true})
	}
	if g.Status != record.Active {
		e.Fields = append(e.Fields, Field{Name: t.T("field.result"), Value: ResultLine(t, g), Inline: true})
		if g.Takebacks > 0 {
			e.Fields = append(e.Fields, Field{Name: t.T("field.takebacks"), Value: strconv.Itoa(g.Takebacks), Inline: true})
		}
		transcriptFooter(t, g, m)
		buttons := []ButtonSpec{{Label: t.T("button.rematch"), CustomID: customid.Make("rematch", g.ID), Style: Primary},
			{Label: t.T("button.replay"), CustomID: customid.Make("replay", g.ID), Style: Secondary}}
		if g.Size() == 8 && g.Status == record.Finished && (!g.Black.IsBot() || !g.White.IsBot()) {
			// Each player's own mistakes as puzzles (the puzzles capability).
			buttons = append(buttons, ButtonSpec{Label: t.T("button.lessons"), CustomID: customid.Make("lessons", g.ID), Style: Secondary})
		}
		m.Components = []Row{{Buttons: append(buttons, s.watch(t, g)...)}}
		return m
	}
	switch {
	case g.Deadline.IsZero() || live(g):
	case g.Black.IsBot() || g.White.IsBot():
		e.Fields = append(e.Fields, Field{Name: t.T("field.left_alone"), Value: t.T("game.left_alone", "When", Stamp(g.Deadline, StampRelative)), Inline: true})
	default:
		e.Fields = append(e.Fields, Field{Name: t.T("field.time"), Value: t.T("game.deadline", "Side", SideName(t, g.ToMove()),
			"Until", Stamp(g.Deadline, StampFull), "When", Stamp(g.Deadline, StampRelative)), Inline: true})
	}
	if g.Takebacks > 0 {
		e.Fields = append(e.Fields, Field{Name: t.T("field.takebacks"), Value: strconv.Itoa(g.Takebacks), Inline: true})
	}
	turn := g.ToMove()
	e.Fields = append(e.Fields, Field{Name: t.T("field.turn"), Value: SideLabel(t, g, p.ToMove()), Inline: true})
	if turn.IsBot() {
		if w := s.watch(t, g); w != nil {
			m.Components = []Row{{Buttons: w}}
		}
		return m
	}
	moves := p.LegalMoves()
	menu := &Menu{CustomID: customid.Make("move", g.ID, g.PlyCount()), Placeholder: Clip(t.T("menu.pick", "Name", plainName(turn.Player)), MaxPlaceholder)}
	for i, sq := range moves {
		if i == MaxMenuOptions {
			menu.Placeholder = Clip(t.T("menu.pick_some", "Name", plainName(turn.Player), "Shown", MaxMenuOptions, "Count", len(moves)), MaxPlaceholder)
			break
		}
		menu.Options = append(menu.Options, MenuOption{Label: sq.String(), Value: sq.String()})
	}
	m.Components = []Row{
		{Menu: menu},
		{Buttons: append([]ButtonSpec{{Label: t.T("button.resign"), CustomID: customid.Make("resign", g.ID, g.PlyCount()), Style: Danger}}, s.watch(t, g)...)},
	}
	return m
}

// GamePage is the address of a game's web page, or "" where none is
// served.
func (s *Service) GamePage(g *record.Game) string {
	if s.cfg.PageURL == nil || g.PublicID == "" {
		return ""
	}
	return s.cfg.PageURL(g.PublicID)
}

// ServesPages says whether games have web pages here.
func (s *Service) ServesPages() bool { return s.cfg.PageURL != nil }

// watchHere is the action of "Watch in Discord", which the Discord
// Activity answers (see OpensActivity).
const watchHere = "watchhere"

// Watches says whether a game message's button is one of its Watch
// buttons, which anyone may press (the TV keeps them).
func Watches(b ButtonSpec) bool { return b.URL != "" || customid.Parse(b.CustomID).Action == watchHere }

// watch is the Watch buttons of a game message: a link to the game's
// page, where the board is clickable and the clocks tick, and in a server
// whose app has the Activity, one that opens the same board inside
// Discord; none where no page is served.
func (s *Service) watch(t *catalog.Printer, g *record.Game) []ButtonSpec {
	page := s.GamePage(g)
	if page == "" {
		return nil
	}
	out := []ButtonSpec{{Label: t.T("button.watch"), URL: page}}
	if s.cfg.Activity && g.GuildID != "" {
		out = append(out, ButtonSpec{Label: t.T("button.watch_here"), CustomID: customid.Make(watchHere, g.ID), Style: Secondary})
	}
	return out
}
