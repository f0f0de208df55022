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
	"othello-bot/game"
	"othello-bot/ggf"
	"othello-bot/record"
)

func (s *Service) exportCommand(ctx context.Context, req bot.Request) (bot.Response, error) {
	id, err := strconv.ParseInt(strings.TrimPrefix(strings.TrimSpace(req.Options["game"]), "#"), 10, 64)
	if err != nil || id < 1 {
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
	me := req.Me()
	name := fmt.Sprintf("othello-game-%d.ggf", g.ID)
	return bot.Response{Message: &bot.Message{Ephemeral: true,
		Content: me.T("export.done", "ID", g.ID, "Players", bot.GamePlayers(me, g), "Moves", g.Transcript(), "File", name),
		Files:   []bot.File{{Name: name, Data: []byte(rec + "\n")}}}}, nil
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
	return s.Player.Name
}
