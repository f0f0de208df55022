package stats

// This file is /openings: the named openings a server plays and how each
// side scores with them, or, given a line, the moves played next here
// (package opening does the counting).

import (
	"context"
	"errors"
	"strings"

	"othello-bot/bot"
	"othello-bot/catalog"
	"othello-bot/game"
	"othello-bot/opening"
	"othello-bot/record"
)

// openingGames is how many of a server's latest 8x8 games /openings reads.
const openingGames = 5000

// maxOpeningLines is how many openings or continuations a reply lists.
const maxOpeningLines = 15

func (s *Service) openings(ctx context.Context, req bot.Request) (bot.Response, error) {
	me, t := req.Me(), req.Pub()
	var line []game.Square
	if text := strings.TrimSpace(req.Options["moves"]); text != "" {
		l, err := opening.ParseLine(text)
		var illegal *opening.IllegalMoveError
		switch {
		case errors.As(err, &illegal):
			return bot.Refuse(me.T("openings.illegal", "N", illegal.N, "Move", illegal.Move.String())), nil
		case errors.Is(err, opening.ErrLineTooLong):
			return bot.Refuse(me.T("openings.too_long", "Max", opening.MaxLine)), nil
		case err != nil:
			return bot.Refuse(me.T("openings.bad_moves")), nil
		}
		line = l
	}
	games, err := s.store.FinishedGames(ctx, req.GuildID, 8, openingGames)
	if err != nil {
		return bot.Response{}, err
	}
	book := opening.Standard()
	if line == nil {
		tally := book.Tally(games)
		if len(tally) == 0 {
			return bot.Refuse(me.T("openings.none")), nil
		}
		var lines []string
		for _, o := range tally[:min(len(tally), maxOpeningLines)] {
			lines = append(lines, t.T("openings.line", "Name", o.Opening.Name(t), "Moves", o.Opening.Transcript(),
				"Games", t.T("openings.games", "Count", o.Games), "Black", o.BlackPercent(), "White", 100-o.BlackPercent()))
		}
		return bot.Response{Message: &bot.Message{Embed: &bot.Embed{Title: t.T("openings.title"), Description: bot.JoinLines(lines, bot.MaxDescription),
			Footer: t.T("openings.footer", "Count", len(games)), Color: 0x2e7d32}}}, nil
	}
	moves := game.FormatTranscript(line, 8)
	next, through := opening.Continuations(games, line)
	title := t.T("openings.after", "Moves", moves)
	if o, ok := book.Name(line); ok {
		title = t.T("openings.after_named", "Moves", moves, "Name", o.Name(t))
	}
	if through.Games == 0 {
		// Nobody here has gone this way: what theory names there and
		// after it, as the bot names it in play.
		_, named := book.Name(line)
		beyond := book.Beyond(line)
		if !named && len(beyond) == 0 {
			return bot.Refuse(me.T("openings.nobody", "Moves", moves)), nil
		}
		lines := []string{t.T("openings.unplayed")}
		if len(beyond) > 0 {
			lines = append(lines, "", t.T("openings.in_the_book"))
		}
		for _, o := range beyond[:min(len(beyond), maxOpeningLines)] {
			lines = append(lines, t.T("openings.book_line", "Name", o.Name(t), "Moves", o.Transcript()))
		}
		return bot.Response{Message: &bot.Message{Embed: &bot.Embed{Title: bot.Clip(title, bot.MaxEmbedTitle), Description: bot.JoinLines(lines, bot.MaxDescription),
			Footer: t.T("openings.footer", "Count", len(games)), Color: 0x2e7d32}}}, nil
	}
	lines := []string{t.T("openings.through", "Games", t.T("openings.games", "Count", through.Games),
		"Black", through.BlackPercent(), "White", 100-through.BlackPercent())}
	for _, c := range next[:min(len(next), maxOpeningLines)] {
		args := []any{"Move", c.Move.String(), "Games", t.T("openings.games", "Count", c.Games),
			"Black", c.BlackPercent(), "White", 100 - c.BlackPercent()}
		key := "openings.next"
		// The move's name, when it reaches a named opening.
		if m := book.Recognise(append(append([]game.Square(nil), line...), c.Move)); m.Named && m.Ply == len(line)+1 {
			key, args = "openings.next_named", append(args, "Name", m.Opening.Name(t))
		}
		lines = append(lines, t.T(key, args...))
	}
	return bot.Response{Message: &bot.Message{Embed: &bot.Embed{Title: bot.Clip(title, bot.MaxEmbedTitle), Description: bot.JoinLines(lines, bot.MaxDescription),
		Footer: t.T("openings.footer", "Count", len(games)), Color: 0x2e7d32}}}, nil
}

// favouriteOpenings is a player's most played named openings in their
// recent 8x8 games, with their record in each ("Tiger ×5 (3-1-1)").
func favouriteOpenings(t *catalog.Printer, history []record.HistoryEntry, n int) string {
	var games []opening.Played
	for _, h := range history {
		if h.Size != 8 || h.Result == record.AbortedGame {
			continue
		}
		// Counted from the player's side: Black stands for them.
		p := opening.Played{Moves: movesIn(h.Transcript, 8), Winner: game.Empty}
		switch h.Result {
		case record.Won:
			p.Winner = game.Black
		case record.Lost:
			p.Winner = game.White
		}
		games = append(games, p)
	}
	var parts []string
	for _, o := range opening.Standard().Tally(games) {
		if len(parts) == n {
			break
		}
		parts = append(parts, t.T("stats.opening_record", "Name", o.Opening.Name(t), "Games", o.Games,
			"W", o.BlackWins, "L", o.WhiteWins, "D", o.Draws))
	}
	return strings.Join(parts, " · ")
}
