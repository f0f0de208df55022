package storage

// This file is players and what they choose: names, board styles.

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"othello-bot/record"
)

// BoardStyle returns the board style a player last chose (StyleAuto if
// none or unknown player).
func (s *Store) BoardStyle(ctx context.Context, playerID string) (record.Style, error) {
	var style string
	err := s.db.QueryRowContext(ctx, `SELECT board_style FROM players WHERE id = ?`, playerID).Scan(&style)
	if errors.Is(err, sql.ErrNoRows) {
		return record.StyleAuto, nil
	}
	if err != nil {
		return "", fmt.Errorf("reading board style: %w", err)
	}
	return record.Style(style), nil
}

// SetBoardStyle remembers a player's board style.
func (s *Store) SetBoardStyle(ctx context.Context, p record.Player, style record.Style, now time.Time) error {
	return s.inTx(ctx, func(tx *dbTx) error {
		if err := upsertPlayer(ctx, tx, p, now); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `UPDATE players SET board_style = ? WHERE id = ?`, string(styleOr(style)), p.ID)
		return err
	})
}

// upsertPlayer records a player, keeping the newest name. On SQLite a
// new name of a player already known is said apart (tx.renamed), for the
// game rows kept (rowcache.go): a new player is in none of them, and with
// a new player for most games made, one statement for both would end
// every row kept at each.
func upsertPlayer(ctx context.Context, tx *dbTx, p record.Player, now time.Time) error {
	if p.ID == "" {
		return nil
	}
	if tx.d != sqliteDB {
		if _, err := tx.ExecContext(ctx, `INSERT INTO players (id, name, created_at, updated_at) VALUES (?, ?, ?, ?)
			ON CONFLICT (id) DO UPDATE SET name = excluded.name, updated_at = excluded.updated_at
			WHERE players.name <> excluded.name`, p.ID, p.Name, millis(now), millis(now)); err != nil {
			return fmt.Errorf("saving player %s: %w", p.ID, err)
		}
		return nil
	}
	n, err := changed(tx.ExecContext(ctx, `INSERT INTO players (id, name, created_at, updated_at) VALUES (?, ?, ?, ?)
		ON CONFLICT (id) DO NOTHING`, p.ID, p.Name, millis(now), millis(now)))
	if err == nil && n == 0 {
		n, err = changed(tx.ExecContext(ctx, `UPDATE players SET name = ?, updated_at = ? WHERE id = ? AND name <> ?`,
			p.Name, millis(now), p.ID, p.Name))
		tx.renamed = tx.renamed || n > 0
	}
	if err != nil {
		return fmt.Errorf("saving player %s: %w", p.ID, err)
	}
	return nil
}

// changed is the count of rows a statement changed.
func changed(res sql.Result, err error) (int64, error) {
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// Languages returns a player's and a server's language choices; either id
// may be empty, and nothing stored reads as "".
func (s *Store) Languages(ctx context.Context, playerID, guildID string) (record.Languages, error) {
	if u, g, ok := s.langs.get(playerID, guildID); ok {
		return record.Languages{User: u, Guild: g.language, GuildLocale: g.locale}, nil
	}
	since := s.langs.since()
	// One statement, one round trip: every interaction reads it.
	var user, guild, locale sql.NullString
	err := s.db.QueryRowContext(ctx, `SELECT (SELECT language FROM players WHERE id = ?),
		(SELECT language FROM guilds WHERE id = ?), (SELECT discord_locale FROM guilds WHERE id = ?)`,
		playerID, guildID, guildID).Scan(&user, &guild, &locale)
	if err != nil {
		return record.Languages{}, fmt.Errorf("reading the languages of a player and a server: %w", err)
	}
	if s.langs != nil && s.langs.afterRead != nil {
		s.langs.afterRead()
	}
	s.langs.put(since, playerID, user.String, guildID, guildLangs{guild.String, locale.String})
	return record.Languages{User: user.String, Guild: guild.String, GuildLocale: locale.String}, nil
}

// SetUserLanguage stores a player's language ("" follows Discord's).
func (s *Store) SetUserLanguage(ctx context.Context, p record.Player, lang string, now time.Time) error {
	defer s.langs.changed(p.ID, "")
	return s.inTx(ctx, func(tx *dbTx) error {
		if err := upsertPlayer(ctx, tx, p, now); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE players SET language = ? WHERE id = ?`, lang, p.ID); err != nil {
			return fmt.Errorf("saving a player's language: %w", err)
		}
		return s.notifyLanguages(ctx, tx, playerChoice, p.ID)
	})
}

// SetGuildLanguage stores a server's language ("" follows Discord's).
func (s *Store) SetGuildLanguage(ctx context.Context, guildID, lang string, now time.Time) error {
	defer s.langs.changed("", guildID)
	return s.setGuildChoice(ctx, guildID, "language", lang, now)
}

// SetGuildLocale remembers a server's Discord language.
func (s *Store) SetGuildLocale(ctx context.Context, guildID, locale string, now time.Time) error {
	defer s.langs.changed("", guildID)
	return s.setGuildChoice(ctx, guildID, "discord_locale", locale, now)
}

// setGuild sets one column of a server's row (column is one of ours,
// never user input), creating the row.
func (s *Store) setGuild(ctx context.Context, guildID, column string, value any, now time.Time) error {
	return setGuildIn(ctx, s.wdb.binder, guildID, column, value, now)
}

// setGuildChoice sets a server's language or Discord language; on
// PostgreSQL the other processes hear of it when it commits.
func (s *Store) setGuildChoice(ctx context.Context, guildID, column, value string, now time.Time) error {
	if s.dialect != postgresDB {
		return s.setGuild(ctx, guildID, column, value, now)
	}
	return s.inTx(ctx, func(tx *dbTx) error {
		if err := setGuildIn(ctx, tx.binder, guildID, column, value, now); err != nil {
			return err
		}
		return s.notifyLanguages(ctx, tx, guildChoice, guildID)
	})
}

func setGuildIn(ctx context.Context, q binder, guildID, column string, value any, now time.Time) error {
	_, err := q.ExecContext(ctx, `INSERT INTO guilds (id, `+column+`, updated_at) VALUES (?, ?, ?)
		ON CONFLICT (id) DO UPDATE SET `+column+` = excluded.`+column+`, updated_at = excluded.updated_at`, guildID, value, millis(now))
	if err != nil {
		return fmt.Errorf("saving a server's %s: %w", column, err)
	}
	return nil
}

// guildValue reads one column of a server's row into dest (column is one
// of ours, never user input), leaving dest as it is for a server with no
// row yet.
func (s *Store) guildValue(ctx context.Context, guildID, column string, dest any) error {
	err := s.db.QueryRowContext(ctx, `SELECT `+column+` FROM guilds WHERE id = ?`, guildID).Scan(dest)
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("reading a server's %s: %w", column, err)
	}
	return nil
}

// SetAvatar keeps a player's Discord avatar hash ("" for none), as they
// logged in with it.
func (s *Store) SetAvatar(ctx context.Context, p record.Player, hash string, now time.Time) error {
	return s.inTx(ctx, func(tx *dbTx) error {
		if err := upsertPlayer(ctx, tx, p, now); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE players SET avatar = ? WHERE id = ?`, hash, p.ID); err != nil {
			return fmt.Errorf("saving a player's avatar: %w", err)
		}
		return nil
	})
}

// Avatar is a player's Discord avatar hash, "" when none is known.
func (s *Store) Avatar(ctx context.Context, playerID string) (string, error) {
	var hash string
	err := s.db.QueryRowContext(ctx, `SELECT avatar FROM players WHERE id = ?`, playerID).Scan(&hash)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("reading a player's avatar: %w", err)
	}
	return hash, nil
}
