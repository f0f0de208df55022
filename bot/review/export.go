package review

// This file is /export: a finished game's record, to study it elsewhere —
// the transcript, and a GGF file (the record Othello programs exchange:
// Egaroucid, Edax, GGS), from the standard start with an XOT opening's
// moves first, so any program replays it.

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"othello-bot/bot"
	"othello-bot/catalog"
	"othello-bot/game"
	"othello-bot/ggf"
	"othello-bot/record"
)

func (s *Service) exportCommand(ctx context.Context, req bot.Request) (bot.Response, error) {
	id, ok := gameOption(req)
	if !ok {
		return bot.Refuse(req.Me().T("export.which")), nil
	}
	g, refusal, err := s.FinishedGame(ctx, req, id)
	if refusal != nil || err != nil {
		return bot.Deref(refusal), err
	}
	rec, err := GGF(g)
	if err != nil {
		return bot.Response{}, fmt.Errorf("exporting game %d: %w", g.ID, err)
	}
	return bot.Response{Message: exportMessage(req.Me(), g, rec)}, nil
}

// maxShownMoves is the longest transcript the answer shows: a 26x26
// game's (about 2,000 characters) would pass Discord's 2,000 for the
// whole message, so past it the moves come as a file beside the record.
const maxShownMoves = 1500

// exportMessage is the answer: the moves, and the record as a file.
func exportMessage(me *catalog.Printer, g *record.Game, rec string) *bot.Message {
	name := fmt.Sprintf("othello-game-%d.ggf", g.ID)
	m := &bot.Message{Ephemeral: true, Files: []bot.File{{Name: name, Data: []byte(rec + "\n")}}}
	moves := g.Transcript()
	if len(moves) <= maxShownMoves {
		m.Content = me.T("export.done", "ID", g.ID, "Players", bot.GamePlayers(me, g), "Moves", moves, "File", name)
		return m
	}
	txt := fmt.Sprintf("othello-game-%d.txt", g.ID)
	m.Files = append(m.Files, bot.File{Name: txt, Data: []byte(moves + "\n")})
	m.Content = me.T("export.done_long", "ID", g.ID, "Players", bot.GamePlayers(me, g), "Count", len(g.Opening)+len(g.State.Moves()),
		"File", name, "Moves", txt)
	return m
}

// gameOption reads a command's game number ("12" or "#12").
func gameOption(req bot.Request) (int64, bool) {
	id, err := strconv.ParseInt(strings.TrimPrefix(strings.TrimSpace(req.Options["game"]), "#"), 10, 64)
	return id, err == nil && id >= 1
}

// GGF is a finished game's record in the Generic Game Format.
func GGF(g *record.Game) (string, error) {
	start, err := game.NewPosition(g.Size())
	if err != nil {
		return "", err
	}
	var plies []game.Ply
	if len(g.Opening) > 0 { // an XOT start: its moves, from the standard start
		opening, err := game.Replay(start, g.Opening)
		if err != nil {
			return "", fmt.Errorf("the XOT opening: %w", err)
		}
		plies = opening.Plies()
	} else {
		start = g.State.Start()
	}
	rec := &ggf.Game{Start: start, Plies: append(plies, g.Plies()...), Place: "othello-bot",
		Black: sideName(g.Black), White: sideName(g.White)}
	if r := g.Result; r != nil {
		rec.Date = r.FinishedAt.UTC().Format("2006.01.02_15:04:05.UTC")
		rec.Result = fmt.Sprintf("%+d.000", r.BlackDiscs-r.WhiteDiscs)
		switch r.Reason {
		case record.EndResign:
			rec.Result += ":r"
		case record.EndTimeout:
			rec.Result += ":t"
		}
	}
	return ggf.Format(rec), nil
}

// sideName is a side as a record names it: the player's name, or the bot
// and its level (data, in English, as results logs are).
func sideName(s record.Side) string {
	if s.IsBot() {
		return fmt.Sprintf("othello-bot-level-%d", s.Level)
	}
	return record.PlainName(s.Player.Name)
}
