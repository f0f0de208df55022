package tournaments

// This file is what a step shows and opens: games in threads, rounds,
// standings, the podium.

import (
	"context"
	"errors"
	"fmt"

	"othello-bot/bot"
	"othello-bot/catalog"
	"othello-bot/game"
	"othello-bot/gametext"
	"othello-bot/play"
	"othello-bot/record"
	"othello-bot/tournament"
)

// openGames opens a game, in a thread of its own, for each pairing that
// has none yet and forfeits those of players who withdrew; it reports
// whether it changed any.
func (s *Service) openGames(ctx context.Context, t *tournament.Tournament, entrants []tournament.Entrant, pairings []tournament.Pairing) (bool, error) {
	players := map[string]tournament.Entrant{}
	for _, e := range entrants {
		players[e.ID] = e
	}
	pub := s.PublicPrinter(ctx, t.GuildID)
	changed := false
	for _, p := range pairings {
		if p.Bye() || p.GameID != 0 || p.ForfeitBy != "" {
			continue
		}
		black, white := players[p.Black], players[p.White]
		if black.Withdrawn || white.Withdrawn {
			by := p.Black
			if white.Withdrawn {
				by = p.White
			}
			if _, err := s.store.ForfeitPairing(ctx, t.ID, p.Round, p.Board, by); err != nil {
				return changed, err
			}
			changed = true
			continue
		}
		opened, err := s.openGame(ctx, pub, t, p, black, white)
		if errors.Is(err, tournament.ErrNotRunning) {
			return changed, nil // paused, canceled or finished by another process meanwhile
		}
		if err != nil {
			return changed, err
		}
		changed = changed || opened
	}
	return changed, nil
}

// openGame starts a pairing's game in a new thread off the tournament's
// channel and pings both players into it.
func (s *Service) openGame(ctx context.Context, pub *catalog.Printer, t *tournament.Tournament, p tournament.Pairing, black, white tournament.Entrant) (bool, error) {
	g, _, err := s.Flow().NewGame(play.Opening{GuildID: t.GuildID, ChannelID: t.ChannelID,
		Sides: [2]record.Side{record.Human(record.Player{ID: black.ID, Name: black.Name}), record.Human(record.Player{ID: white.ID, Name: white.Name})},
		Color: record.Choose(game.Black), Size: t.Size, Control: t.Control, Rated: t.Rated, TournamentID: t.ID})
	if err != nil {
		return false, fmt.Errorf("tournament %d: %w", t.ID, err)
	}
	note := pub.T("tournament.game_note", "ID", t.ID, "Name", bot.Escape(t.Name), "Round", p.Round)
	if t.Format == tournament.Arena {
		note = pub.T("tournament.game_note_arena", "ID", t.ID, "Name", bot.Escape(t.Name))
	}
	err = s.OpenInThread(ctx, pub, t.ChannelID, g, note, func(ctx context.Context) error {
		return s.store.OpenPairingGame(ctx, t.ID, p.Round, p.Board, g)
	})
	switch {
	case errors.Is(err, tournament.ErrAlreadyPaired):
		return false, nil
	case err != nil:
		return false, fmt.Errorf("tournament %d round %d: %w", t.ID, p.Round, err)
	}
	s.Logger(ctx).Info("tournament game", "tournament", t.ID, "round", p.Round, "game", g.ID, "thread", g.ChannelID)
	if err := s.pingGuests(ctx, t, g, black, white); err != nil {
		// The game is open; its players may still find it from /games.
		s.Logger(ctx).Warn("telling a team battle's guests of their game", "tournament", t.ID, "err", err)
	}
	return true, nil
}

// announceRound posts a round's pairings in the tournament's channel.
func (s *Service) announceRound(ctx context.Context, t *tournament.Tournament, round int) {
	msgs, err := s.roundMessages(ctx, s.PublicPrinter(ctx, t.GuildID), t, round)
	for _, m := range msgs {
		if err == nil {
			_, err = s.Send(ctx, t.ChannelID, m)
		}
	}
	if err != nil {
		s.Logger(ctx).Warn("announcing a round", "tournament", t.ID, "err", err)
	}
}

// postStandings shows the standings in the tournament's channel: edited in
// place after the first.
func (s *Service) postStandings(ctx context.Context, t *tournament.Tournament) error {
	pub := s.PublicPrinter(ctx, t.GuildID)
	msg, err := s.standingsMessage(ctx, pub, t)
	if err != nil {
		return err
	}
	text := t.StandingsMessageID + "\x00" + msg.Embed.Title + "\x00" + msg.Embed.Description + "\x00" + msg.Embed.Footer
	if t.StandingsMessageID != "" && !s.tournaments.changedSince(t.ID, text) {
		return nil
	}
	if t.StandingsMessageID != "" {
		if err := s.Edit(ctx, t.ChannelID, t.StandingsMessageID, msg); err == nil {
			return nil
		}
	}
	id, err := s.Send(ctx, t.ChannelID, msg)
	if err != nil {
		s.Logger(ctx).Warn("posting a tournament's standings", "tournament", t.ID, "err", err)
		return nil
	}
	t.StandingsMessageID = id
	s.tournaments.changedSince(t.ID, id+"\x00"+msg.Embed.Title+"\x00"+msg.Embed.Description+"\x00"+msg.Embed.Footer)
	return s.store.UpdateTournament(ctx, t)
}

// finishTournament ends a tournament whose games are all played: the
// podium in its channel, the full standings attached.
func (s *Service) finishTournament(ctx context.Context, t *tournament.Tournament, entrants []tournament.Entrant, pairings []tournament.Pairing) error {
	t.Status, t.FinishedAt = tournament.Finished, s.Now()
	if err := s.store.UpdateTournament(ctx, t); err != nil {
		return err
	}
	s.Logger(ctx).Info("tournament finished", "tournament", t.ID, "rounds", t.Round)
	s.eventStatus(ctx, t, bot.EventCompleted)
	pub := s.PublicPrinter(ctx, t.GuildID)
	if err := s.postStandings(ctx, t); err != nil {
		s.Logger(ctx).Warn("final standings", "tournament", t.ID, "err", err)
	}
	rows := tournament.Standings(t.Format, entrants, tournament.Games(pairings))
	lines := []string{pub.T("tournament.podium_title", "ID", t.ID, "Name", bot.Escape(t.Name))}
	medals := []string{"🥇", "🥈", "🥉"}
	var ids []string
	placed, places := tournament.Podium(rows)
	for i, r := range placed {
		lines = append(lines, pub.T("tournament.podium_line", "Medal", medals[places[i]-1], "Player", bot.Mention(r.ID), "Points", gametext.Points(r.Points)))
		ids = append(ids, r.ID)
	}
	if url := s.tournamentURL(t); url != "" {
		lines = append(lines, pub.T("tournament.page", "URL", url))
	}
	table := pub.T("tournament.standings_title", "ID", t.ID, "Name", t.Name) + "\n\n" + standingsTable(pub, t.Format, rows) + "\n"
	msg := bot.Message{Content: bot.JoinLines(lines, bot.MaxContent), Mentions: ids,
		Files: []bot.File{{Name: fmt.Sprintf("tournament-%d.txt", t.ID), Data: []byte(table)}}}
	if _, err := s.Send(ctx, t.ChannelID, msg); err != nil {
		s.Logger(ctx).Warn("posting a tournament's podium", "tournament", t.ID, "err", err)
	}
	s.editSignup(ctx, t)
	if s.cfg.Crowned != nil {
		var first []string
		for i, r := range placed {
			if places[i] == 1 {
				first = append(first, r.ID)
			}
		}
		s.cfg.Crowned(ctx, t.GuildID, first)
	}
	return nil
}
