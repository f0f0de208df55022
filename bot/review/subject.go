package review

// This file is what an analysis is of — a game played here, a record
// pasted from elsewhere, or a position alone — and how its messages name
// it.

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"

	"othello-bot/bot"
	"othello-bot/catalog"
	"othello-bot/game"
	"othello-bot/notation"
	"othello-bot/record"
)

type subjectKind int

const (
	ofGame     subjectKind = iota // a game played here: its number
	ofRecord                      // moves from elsewhere
	ofPosition                    // a position and a side to move
)

// subject is what an analysis looks at.
type subject struct {
	kind  subjectKind
	key   string // the queue's name for it: one analysis of it at a time
	g     *record.Game
	rec   *notation.Record
	start game.Position
	plies []game.Ply
	file  string // its graph's file name, before "-analysis.png"
}

func gameSubject(g *record.Game) *subject {
	return &subject{kind: ofGame, key: fmt.Sprintf("game %d", g.ID), g: g, start: g.State.Start(), plies: g.Plies(),
		file: fmt.Sprintf("game-%d", g.ID)}
}

// recordSubject is a record read from text; a record without moves is
// its position.
func recordSubject(r *notation.Record) *subject {
	kind, file := ofRecord, "record"
	if len(r.Plies) == 0 {
		kind, file = ofPosition, "position"
	}
	sum := sha256.New()
	fmt.Fprintf(sum, "%d %s %s %d", r.Start.Size(), r.Start.Board64(), r.Start.ToMove(), kind)
	for _, p := range r.Plies {
		fmt.Fprintf(sum, " %s", p.Square)
	}
	return &subject{kind: kind, key: "record " + hex.EncodeToString(sum.Sum(nil))[:16], rec: r, start: r.Start, plies: r.Plies, file: file}
}

// moves are the squares played, passes included.
func (s *subject) moves() []game.Square {
	out := make([]game.Square, len(s.plies))
	for i, p := range s.plies {
		out[i] = p.Square
	}
	return out
}

// maxRecordName is the longest player's name shown from a record: as long
// as a Discord name, so every message's limits hold as they do for games.
const maxRecordName = 32

// side names the side playing c: the player (or the bot) in a game, the
// name a record gives, else the colour.
func (s *subject) side(t *catalog.Printer, c game.Color) string {
	if s.g != nil {
		return bot.SideName(t, s.g.Side(c))
	}
	name := s.rec.Black
	if c == game.White {
		name = s.rec.White
	}
	if name == "" {
		return t.T("analysis.side." + c.String())
	}
	return bot.Escape(bot.Clip(name, maxRecordName))
}

func (s *subject) players(t *catalog.Printer) string {
	if s.g != nil {
		return bot.GamePlayers(t, s.g)
	}
	return t.T("game.players", "Black", s.side(t, game.Black), "White", s.side(t, game.White))
}

// say words one of an analysis's messages for this subject: a game's are
// analysis.SUFFIX (with its number), a record's analysis.record.SUFFIX and
// a position's analysis.position.SUFFIX.
func (s *subject) say(t *catalog.Printer, suffix string, pairs ...any) string {
	switch s.kind {
	case ofRecord:
		return t.T("analysis.record."+suffix, append(pairs, "Players", s.players(t))...)
	case ofPosition:
		return t.T("analysis.position."+suffix, append(pairs, "Side", t.T("analysis.side."+s.start.ToMove().String()))...)
	}
	return t.T("analysis."+suffix, append(pairs, "ID", s.g.ID, "Players", s.players(t))...)
}
