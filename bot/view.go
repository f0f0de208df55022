package bot

// This file shows a game as a message: board, score, turn, move menu and
// result.

import (
	"fmt"
	"strconv"
	"strings"

	"othello-bot/game"
	"othello-bot/record"
	"othello-bot/render"
)

// sideName names a side for messages: the player's name, or the bot.
func sideName(s record.Side) string {
	if s.IsBot() {
		return fmt.Sprintf("Bot (level %d)", s.Level)
	}
	return name(s.Player)
}

// gamePlayers names both sides: "alice vs Bot (level 3)".
func gamePlayers(g *record.Game) string {
	return sideName(g.Black) + " vs " + sideName(g.White)
}

// sideLabel is a side's name with its disc.
func sideLabel(g *record.Game, c game.Color) string {
	return sideName(g.Side(c)) + " " + render.Disc(c)
}

// describePlies tells what a turn did: the move and any passes it forced.
func describePlies(g *record.Game, plies []game.Ply) []string {
	var out []string
	for _, p := range plies {
		if p.Square.IsPass() {
			out = append(out, fmt.Sprintf("%s has no legal move and passes.", sideLabel(g, p.Color)))
		} else {
			out = append(out, fmt.Sprintf("%s played **%s**.", sideLabel(g, p.Color), p.Square))
		}
	}
	return out
}

// resultLine says how a finished game ended.
func resultLine(g *record.Game) string {
	r := g.Result
	if r == nil {
		return ""
	}
	score := fmt.Sprintf("%d–%d", r.BlackDiscs, r.WhiteDiscs)
	switch r.Reason {
	case record.EndAbort:
		return fmt.Sprintf("Game #%d aborted before both sides had moved twice; it does not count.", g.ID)
	case record.EndAbandoned:
		return fmt.Sprintf("Game #%d ended as abandoned: no move for a long time. It does not count.", g.ID)
	case record.EndModerator:
		return fmt.Sprintf("Game #%d was ended by a moderator; it does not count.", g.ID)
	case record.EndResign:
		return fmt.Sprintf("**%s wins** by resignation (%s).", sideLabel(g, r.Winner), score)
	case record.EndTimeout:
		return fmt.Sprintf("**%s wins** on time (%s).", sideLabel(g, r.Winner), score)
	}
	if r.Winner == game.Empty {
		return fmt.Sprintf("**Draw**, %s.", score)
	}
	return fmt.Sprintf("**%s wins** %s.", sideLabel(g, r.Winner), score)
}

// transcriptFooter puts a finished game's moves in the footer, or, when
// they are too long for it (large boards), the start of them there and the
// whole transcript in an attached text file.
func transcriptFooter(g *record.Game, m *Message) {
	moves := g.State.Moves()
	if len(moves) == 0 {
		m.Embed.Footer = "No moves were played."
		return
	}
	t := game.FormatTranscript(moves, g.Size())
	if footer := "Transcript: " + t; length(footer) <= MaxFooter {
		m.Embed.Footer = footer
		return
	}
	name := fmt.Sprintf("game-%d-transcript.txt", g.ID)
	note := fmt.Sprintf(" (%d moves; the whole transcript is in %s)", len(moves), name)
	m.Embed.Footer = clip("Transcript: "+t, MaxFooter-length(note)) + note
	m.Files = append(m.Files, File{Name: name, Data: []byte(t + "\n")})
}

// ping is a short message that notifies a player: mentions ping only when
// a message is created, never when one is edited.
func ping(userID, text string) Message {
	return Message{Content: mention(userID) + " " + text, Mentions: []string{userID}}
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
func (s *Service) drawBoard(g *record.Game, m *Message) {
	p := g.Position()
	last := lastMove(g)
	running := g.Status == record.Active
	if !s.usesImage(g) {
		legend := render.Legend
		if !running {
			legend = render.FinalLegend
		}
		m.Embed.Description = render.Emoji(p, last, running) + "\n" + legend
		return
	}
	b, w := p.Count()
	caption := fmt.Sprintf("Black %d · White %d · %s to move", b, w, plainSide(g.ToMove()))
	name := fmt.Sprintf("board-%d-%d.png", g.ID, len(g.Plies()))
	if !running {
		caption = fmt.Sprintf("Black %d · White %d · %s", b, w, resultCaption(g))
		// Not the name of the last running picture of the same move: the
		// terminal saves pictures by name.
		name = fmt.Sprintf("board-%d-%d-final.png", g.ID, len(g.Plies()))
	}
	data, err := render.PNG(p, last, caption, running)
	if err != nil {
		s.log.Error("drawing board", "game", g.ID, "err", err)
		m.Embed.Description = "(The picture of the board could not be drawn; /board tries again.)"
		return
	}
	m.Files = []File{{Name: name, Data: data}}
	m.Embed.Image = "attachment://" + name
	m.Embed.Description = "Red dot: the last move · small dots: the legal moves"
	if !running {
		m.Embed.Description = "Red dot: the last move"
	}
}

// plainSide names a side in plain text, for pictures and thread names.
func plainSide(s record.Side) string {
	if s.IsBot() {
		return fmt.Sprintf("Bot (level %d)", s.Level)
	}
	return plainName(s.Player)
}

// resultCaption says in plain text who won and how, for the picture of a
// finished game.
func resultCaption(g *record.Game) string {
	r := g.Result
	if r == nil {
		return "game over"
	}
	switch r.Reason {
	case record.EndAbort:
		return "aborted, no result"
	case record.EndAbandoned:
		return "abandoned, no result"
	case record.EndModerator:
		return "ended by a moderator, no result"
	}
	if r.Winner == game.Empty {
		return "draw"
	}
	how := map[record.EndReason]string{record.EndResign: " by resignation", record.EndTimeout: " on time"}[r.Reason]
	return fmt.Sprintf("%s wins%s", plainSide(g.Side(r.Winner)), how)
}

// gameMessage shows a game: what just happened, the board, the score and
// whose turn it is, and while a person is to move, a menu of their legal
// moves and a Resign button.
func (s *Service) gameMessage(g *record.Game, notes []string) *Message {
	p := g.Position()
	b, w := p.Count()
	e := &Embed{
		Title:  fmt.Sprintf("Game #%d · %s vs %s", g.ID, sideLabel(g, game.Black), sideLabel(g, game.White)),
		Fields: []Field{{Name: "Score", Value: fmt.Sprintf("%s %d · %s %d", render.Black, b, render.White, w), Inline: true}},
		Color:  0x2e7d32,
	}
	if s.cfg.PageURL != nil && g.PublicID != "" {
		e.URL = s.cfg.PageURL(g.PublicID)
	}
	m := &Message{Content: strings.Join(notes, " "), Embed: e, Game: &GameRef{ID: g.ID, Version: g.Version}}
	s.drawBoard(g, m)
	if g.Status != record.Active {
		e.Fields = append(e.Fields, Field{Name: "Result", Value: resultLine(g), Inline: true})
		if g.Takebacks > 0 {
			e.Fields = append(e.Fields, Field{Name: "Takebacks", Value: strconv.Itoa(g.Takebacks), Inline: true})
		}
		transcriptFooter(g, m)
		id := strconv.FormatInt(g.ID, 10)
		m.Components = []Row{{Buttons: []ButtonSpec{{Label: "Rematch", CustomID: "rematch:" + id, Style: Primary},
			{Label: "Replay", CustomID: "replay:" + id, Style: Secondary}}}}
		return m
	}
	switch {
	case g.Deadline.IsZero():
	case g.Black.IsBot() || g.White.IsBot():
		e.Fields = append(e.Fields, Field{Name: "Left alone", Value: "ends " + stamp(g.Deadline, stampRelative), Inline: true})
	default:
		e.Fields = append(e.Fields, Field{Name: "Time", Value: fmt.Sprintf("%s to move, until %s (%s)", sideName(g.ToMove()),
			stamp(g.Deadline, stampFull), stamp(g.Deadline, stampRelative)), Inline: true})
	}
	if g.Takebacks > 0 {
		e.Fields = append(e.Fields, Field{Name: "Takebacks", Value: strconv.Itoa(g.Takebacks), Inline: true})
	}
	turn := g.ToMove()
	e.Fields = append(e.Fields, Field{Name: "Turn", Value: sideLabel(g, p.ToMove()), Inline: true})
	if turn.IsBot() {
		return m
	}
	moves := p.LegalMoves()
	id := strconv.FormatInt(g.ID, 10)
	ply := strconv.Itoa(len(g.Plies()))
	menu := &Menu{CustomID: "move:" + id + ":" + ply, Placeholder: fmt.Sprintf("%s, pick your move", plainName(turn.Player))}
	for i, sq := range moves {
		if i == MaxMenuOptions {
			menu.Placeholder = fmt.Sprintf("%s, pick a move (%d of %d here; /move plays any)", plainName(turn.Player), MaxMenuOptions, len(moves))
			break
		}
		menu.Options = append(menu.Options, MenuOption{Label: sq.String(), Value: sq.String()})
	}
	m.Components = []Row{
		{Menu: menu},
		{Buttons: []ButtonSpec{{Label: "Resign", CustomID: "resign:" + id + ":" + ply, Style: Danger}}},
	}
	return m
}
