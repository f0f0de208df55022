-- Openings and puzzles.
-- /openings reads a server's finished games of one size, newest first.
CREATE INDEX results_guild_size ON results (guild_id, size, finished_at DESC);

-- Puzzles: found in a server's finished games (game_id and ply), or the
-- built-in set for servers with none yet (builtin is its key there, and
-- guild_id is ''). position is the board as games.position writes it; line
-- the solution (the solver's moves and the replies, a transcript); result
-- the margin with best play, cost what the game's move lost. Each puzzle
-- has its own Glicko-2 rating, as lichess's puzzles do.
CREATE TABLE puzzles (
    id         INTEGER PRIMARY KEY,
    guild_id   TEXT NOT NULL DEFAULT '',
    game_id    INTEGER REFERENCES games(id),
    builtin    TEXT,
    ply        INTEGER NOT NULL,
    position   TEXT NOT NULL,
    to_move    TEXT NOT NULL CHECK (to_move IN ('X', 'O')),
    line       TEXT NOT NULL,
    result     INTEGER NOT NULL,
    cost       INTEGER NOT NULL,
    played     TEXT NOT NULL,
    rating     REAL NOT NULL,
    deviation  REAL NOT NULL,
    volatility REAL NOT NULL,
    plays      INTEGER NOT NULL DEFAULT 0,
    wins       INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL,
    CHECK ((game_id IS NULL) <> (builtin IS NULL))
) STRICT;
CREATE UNIQUE INDEX puzzles_game_ply ON puzzles (game_id, ply) WHERE game_id IS NOT NULL;
CREATE UNIQUE INDEX puzzles_builtin ON puzzles (builtin) WHERE builtin IS NOT NULL;
CREATE INDEX puzzles_guild ON puzzles (guild_id, rating);

-- The finished games searched for puzzles already, each once.
CREATE TABLE puzzle_scans (
    game_id    INTEGER PRIMARY KEY REFERENCES games(id),
    found      INTEGER NOT NULL,
    scanned_at INTEGER NOT NULL
) STRICT;

-- A player's try at a puzzle, one per player and puzzle: step is how far
-- into the line they are (the index of the move asked for next).
CREATE TABLE puzzle_attempts (
    id            INTEGER PRIMARY KEY,
    puzzle_id     INTEGER NOT NULL REFERENCES puzzles(id),
    player_id     TEXT NOT NULL REFERENCES players(id),
    guild_id      TEXT NOT NULL,
    step          INTEGER NOT NULL DEFAULT 0,
    status        TEXT NOT NULL CHECK (status IN ('open', 'solved', 'failed')),
    started_at    INTEGER NOT NULL,
    expires_at    INTEGER NOT NULL,
    finished_at   INTEGER,
    rating_change REAL NOT NULL DEFAULT 0,
    daily         TEXT NOT NULL DEFAULT '',
    UNIQUE (puzzle_id, player_id)
) STRICT;
CREATE INDEX puzzle_attempts_guild ON puzzle_attempts (guild_id, player_id);
CREATE INDEX puzzle_attempts_daily ON puzzle_attempts (guild_id, daily) WHERE daily <> '';

-- A player's puzzle rating (one, everywhere) and streaks.
CREATE TABLE puzzle_ratings (
    player_id   TEXT PRIMARY KEY REFERENCES players(id),
    rating      REAL NOT NULL,
    deviation   REAL NOT NULL,
    volatility  REAL NOT NULL,
    attempts    INTEGER NOT NULL DEFAULT 0,
    solved      INTEGER NOT NULL DEFAULT 0,
    streak      INTEGER NOT NULL DEFAULT 0,
    best_streak INTEGER NOT NULL DEFAULT 0,
    updated_at  INTEGER NOT NULL
) STRICT;

-- The daily puzzle: the channel a server chose ('' for none) and the hour
-- (UTC) to post; each day's post, claimed once by one process.
ALTER TABLE guilds ADD COLUMN puzzle_channel TEXT NOT NULL DEFAULT '';
ALTER TABLE guilds ADD COLUMN puzzle_hour INTEGER NOT NULL DEFAULT 12 CHECK (puzzle_hour BETWEEN 0 AND 23);
CREATE TABLE daily_puzzles (
    guild_id   TEXT NOT NULL,
    day        TEXT NOT NULL,
    puzzle_id  INTEGER NOT NULL REFERENCES puzzles(id),
    channel_id TEXT NOT NULL,
    message_id TEXT NOT NULL DEFAULT '',
    claimed_by TEXT NOT NULL,
    claimed_at INTEGER NOT NULL,
    posted_at  INTEGER,
    PRIMARY KEY (guild_id, day)
) STRICT;
