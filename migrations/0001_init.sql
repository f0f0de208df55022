-- The first schema: players, games and their moves, results, challenges and
-- ratings. Times are Unix milliseconds (UTC). Positions are size*size
-- characters row by row from a1: '-' empty, 'X' black, 'O' white.

CREATE TABLE players (
    id         TEXT PRIMARY KEY,
    name       TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
) STRICT;

CREATE TABLE games (
    id              INTEGER PRIMARY KEY,
    guild_id        TEXT NOT NULL DEFAULT '',
    channel_id      TEXT NOT NULL,
    size            INTEGER NOT NULL CHECK (size BETWEEN 4 AND 26 AND size % 2 = 0),
    -- each colour is a player, or the bot at a level
    black_id        TEXT REFERENCES players(id),
    black_level     INTEGER CHECK (black_level BETWEEN 1 AND 10),
    white_id        TEXT REFERENCES players(id),
    white_level     INTEGER CHECK (white_level BETWEEN 1 AND 10),
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
    message_id      TEXT NOT NULL DEFAULT '',
    CHECK ((black_id IS NULL) <> (black_level IS NULL)),
    CHECK ((white_id IS NULL) <> (white_level IS NULL)),
    CHECK (length(position) = size * size AND length(start_position) = size * size)
) STRICT;

-- One active game per channel (a thread is a channel of its own).
CREATE UNIQUE INDEX games_active_channel ON games (channel_id) WHERE status = 'active';
CREATE INDEX games_active_deadline ON games (deadline_at) WHERE status = 'active' AND deadline_at IS NOT NULL;

CREATE TABLE moves (
    game_id   INTEGER NOT NULL REFERENCES games(id),
    ply       INTEGER NOT NULL CHECK (ply >= 1),
    color     TEXT NOT NULL CHECK (color IN ('X', 'O')),
    square    TEXT NOT NULL, -- 'd3', or 'pass'
    played_at INTEGER NOT NULL,
    PRIMARY KEY (game_id, ply)
) STRICT, WITHOUT ROWID;

-- A finished or aborted game's result, with the players copied in so the
-- leaderboard, stats and history read one table. logged_at is set once the
-- line is in the results log file.
CREATE TABLE results (
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
    winner      TEXT NOT NULL CHECK (winner IN ('X', 'O', 'draw', 'none')), -- none: aborted
    reason      TEXT NOT NULL CHECK (reason IN ('normal', 'resign', 'timeout', 'abort')),
    rated       INTEGER NOT NULL CHECK (rated IN (0, 1)),
    transcript  TEXT NOT NULL,
    logged_at   INTEGER
) STRICT;

CREATE INDEX results_black ON results (black_id, finished_at DESC) WHERE black_id IS NOT NULL;
CREATE INDEX results_white ON results (white_id, finished_at DESC) WHERE white_id IS NOT NULL;
CREATE INDEX results_unlogged ON results (game_id) WHERE logged_at IS NULL;

CREATE TABLE challenges (
    id            INTEGER PRIMARY KEY,
    guild_id      TEXT NOT NULL DEFAULT '',
    channel_id    TEXT NOT NULL,
    challenger_id TEXT NOT NULL REFERENCES players(id),
    opponent_id   TEXT REFERENCES players(id), -- NULL: an open challenge
    color         TEXT NOT NULL CHECK (color IN ('X', 'O', 'random')),
    size          INTEGER NOT NULL CHECK (size BETWEEN 4 AND 26 AND size % 2 = 0),
    rated         INTEGER NOT NULL CHECK (rated IN (0, 1)),
    status        TEXT NOT NULL CHECK (status IN ('pending', 'accepted', 'declined', 'canceled', 'expired')),
    created_at    INTEGER NOT NULL,
    expires_at    INTEGER NOT NULL,
    message_id    TEXT NOT NULL DEFAULT '',
    game_id       INTEGER REFERENCES games(id)
) STRICT;

CREATE UNIQUE INDEX challenges_pending_per_challenger ON challenges (challenger_id, channel_id) WHERE status = 'pending';
CREATE INDEX challenges_pending_expiry ON challenges (expires_at) WHERE status = 'pending';

CREATE TABLE ratings (
    player_id  TEXT NOT NULL REFERENCES players(id),
    scope      TEXT NOT NULL, -- a server id, or 'global'
    rating     REAL NOT NULL,
    deviation  REAL NOT NULL,
    volatility REAL NOT NULL,
    games      INTEGER NOT NULL DEFAULT 0,
    wins       INTEGER NOT NULL DEFAULT 0,
    losses     INTEGER NOT NULL DEFAULT 0,
    draws      INTEGER NOT NULL DEFAULT 0,
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (player_id, scope)
) STRICT, WITHOUT ROWID;

CREATE INDEX ratings_board ON ratings (scope, rating DESC);
