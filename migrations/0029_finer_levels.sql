-- migrate: foreign keys off
-- The bot's levels on a finer scale (#55): twenty levels where there were
-- ten. A game's bot level may now be 1-20, and the levels stored before
-- are moved to the new level nearest them in strength (engine.FromOldLevel,
-- docs/engine.md "Levels"): 1 stays, 2 -> 6, 3 -> 13, 4 -> 15, 5 and 6 -> 16,
-- 7-10 -> 17-20.
--
-- SQLite cannot change a CHECK constraint in place, so games is rebuilt
-- as its ALTER TABLE page prescribes: with foreign keys off (the runner
-- sets that around this migration, which the first line asks for; other
-- tables reference games), a new table, the rows copied, the old one
-- dropped, the new one renamed, its indexes made again, and the keys
-- checked before the commit.
CREATE TABLE games_new (
    id              INTEGER PRIMARY KEY,
    guild_id        TEXT NOT NULL DEFAULT '',
    channel_id      TEXT NOT NULL,
    size            INTEGER NOT NULL CHECK (size BETWEEN 4 AND 26 AND size % 2 = 0),
    -- each colour is a player, or the bot at a level
    black_id        TEXT REFERENCES players(id),
    black_level     INTEGER CHECK (black_level BETWEEN 1 AND 20),
    white_id        TEXT REFERENCES players(id),
    white_level     INTEGER CHECK (white_level BETWEEN 1 AND 20),
    rated           INTEGER NOT NULL DEFAULT 0 CHECK (rated IN (0, 1)),
    status          TEXT NOT NULL CHECK (status IN ('active', 'finished', 'aborted')),
    start_position  TEXT NOT NULL,
    start_to_move   TEXT NOT NULL CHECK (start_to_move IN ('X', 'O')),
    position        TEXT NOT NULL,
    to_move         TEXT NOT NULL CHECK (to_move IN ('X', 'O')),
    plies           INTEGER NOT NULL DEFAULT 0,
    version         INTEGER NOT NULL DEFAULT 1,
    created_at      INTEGER NOT NULL,
    updated_at      INTEGER NOT NULL,
    turn_started_at INTEGER NOT NULL,
    deadline_at     INTEGER,
    reminded        INTEGER NOT NULL DEFAULT 0 CHECK (reminded IN (0, 1)),
    message_id      TEXT NOT NULL DEFAULT '', style TEXT NOT NULL DEFAULT 'auto' CHECK (style IN ('auto', 'emoji', 'image')), message_version INTEGER NOT NULL DEFAULT 0, reply_token TEXT NOT NULL DEFAULT '', reply_expires_at INTEGER, takebacks INTEGER NOT NULL DEFAULT 0, parent_id TEXT NOT NULL DEFAULT '', archive_at INTEGER, public_id TEXT, time_base_ms INTEGER NOT NULL DEFAULT 0, time_increment_ms INTEGER NOT NULL DEFAULT 0, time_per_move_ms INTEGER NOT NULL DEFAULT 0, black_left_ms INTEGER NOT NULL DEFAULT 0, white_left_ms INTEGER NOT NULL DEFAULT 0, remind_at INTEGER, tournament_id INTEGER REFERENCES tournaments(id), opening TEXT NOT NULL DEFAULT '',
    CHECK ((black_id IS NULL) <> (black_level IS NULL)),
    CHECK ((white_id IS NULL) <> (white_level IS NULL)),
    CHECK (length(position) = size * size AND length(start_position) = size * size)
) STRICT;

INSERT INTO games_new SELECT * FROM games;
DROP TABLE games;
ALTER TABLE games_new RENAME TO games;
CREATE UNIQUE INDEX games_active_channel ON games (channel_id) WHERE status = 'active';
CREATE INDEX games_active_deadline ON games (deadline_at) WHERE status = 'active' AND deadline_at IS NOT NULL;
CREATE INDEX games_active_guild ON games (guild_id, id) WHERE status = 'active';
CREATE INDEX games_archive_due ON games (archive_at) WHERE archive_at IS NOT NULL;
CREATE INDEX games_channel ON games (channel_id, id);
CREATE INDEX games_active_black ON games (black_id) WHERE status = 'active';
CREATE INDEX games_active_white ON games (white_id) WHERE status = 'active';
CREATE UNIQUE INDEX games_public_id ON games (public_id);

UPDATE games SET black_level = CASE black_level WHEN 2 THEN 6 WHEN 3 THEN 13 WHEN 4 THEN 15 WHEN 5 THEN 16 WHEN 6 THEN 16 WHEN 7 THEN 17 WHEN 8 THEN 18 WHEN 9 THEN 19 WHEN 10 THEN 20 ELSE black_level END WHERE black_level IS NOT NULL;
UPDATE games SET white_level = CASE white_level WHEN 2 THEN 6 WHEN 3 THEN 13 WHEN 4 THEN 15 WHEN 5 THEN 16 WHEN 6 THEN 16 WHEN 7 THEN 17 WHEN 8 THEN 18 WHEN 9 THEN 19 WHEN 10 THEN 20 ELSE white_level END WHERE white_level IS NOT NULL;
UPDATE results SET black_level = CASE black_level WHEN 2 THEN 6 WHEN 3 THEN 13 WHEN 4 THEN 15 WHEN 5 THEN 16 WHEN 6 THEN 16 WHEN 7 THEN 17 WHEN 8 THEN 18 WHEN 9 THEN 19 WHEN 10 THEN 20 ELSE black_level END WHERE black_level IS NOT NULL;
UPDATE results SET white_level = CASE white_level WHEN 2 THEN 6 WHEN 3 THEN 13 WHEN 4 THEN 15 WHEN 5 THEN 16 WHEN 6 THEN 16 WHEN 7 THEN 17 WHEN 8 THEN 18 WHEN 9 THEN 19 WHEN 10 THEN 20 ELSE white_level END WHERE white_level IS NOT NULL;
