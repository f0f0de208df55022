-- Games that end without a result in two new ways: abandoned (a game
-- against the bot whose player stopped moving) and ended by a moderator,
-- with the reason they gave in the new note column ('' for every other
-- game). SQLite cannot change a CHECK constraint in place, so the table is
-- rebuilt; nothing references it.
CREATE TABLE results_new (
    game_id     INTEGER PRIMARY KEY REFERENCES games(id),
    guild_id    TEXT NOT NULL,
    finished_at INTEGER NOT NULL,
    black_id    TEXT REFERENCES players(id),
    black_level INTEGER,
    white_id    TEXT REFERENCES players(id),
    white_level INTEGER,
    size        INTEGER NOT NULL,
    black_discs INTEGER NOT NULL,
    white_discs INTEGER NOT NULL,
    winner      TEXT NOT NULL CHECK (winner IN ('X', 'O', 'draw', 'none')), -- none: no result
    reason      TEXT NOT NULL CHECK (reason IN ('normal', 'resign', 'timeout', 'abort', 'abandoned', 'aborted-by-moderator')),
    rated       INTEGER NOT NULL CHECK (rated IN (0, 1)),
    transcript  TEXT NOT NULL,
    logged_at   INTEGER,
    note        TEXT NOT NULL DEFAULT ''
) STRICT;

INSERT INTO results_new (game_id, guild_id, finished_at, black_id, black_level, white_id, white_level, size,
    black_discs, white_discs, winner, reason, rated, transcript, logged_at)
SELECT game_id, guild_id, finished_at, black_id, black_level, white_id, white_level, size,
    black_discs, white_discs, winner, reason, rated, transcript, logged_at FROM results;

DROP TABLE results;
ALTER TABLE results_new RENAME TO results;

CREATE INDEX results_black ON results (black_id, finished_at DESC) WHERE black_id IS NOT NULL;
CREATE INDEX results_white ON results (white_id, finished_at DESC) WHERE white_id IS NOT NULL;
CREATE INDEX results_unlogged ON results (game_id) WHERE logged_at IS NULL;
