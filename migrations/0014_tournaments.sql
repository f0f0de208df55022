-- Tournaments: an event's settings and where it stands, its entrants, and
-- its pairings. A round is paired once: the pairings go in with the
-- tournament's round moved on from the one before, in one transaction
-- conditional on it (and the unique indexes keep a player to one game a
-- round). A pairing's game is opened once: game_id is set where it is
-- NULL. Results come from the games themselves (games.tournament_id).
CREATE TABLE tournaments (
    id                   INTEGER PRIMARY KEY,
    guild_id             TEXT NOT NULL,
    channel_id           TEXT NOT NULL,
    organiser_id         TEXT NOT NULL REFERENCES players(id),
    name                 TEXT NOT NULL,
    format               TEXT NOT NULL CHECK (format IN ('swiss', 'roundrobin', 'arena')),
    rounds               INTEGER NOT NULL DEFAULT 0,
    double_rr            INTEGER NOT NULL DEFAULT 0 CHECK (double_rr IN (0, 1)),
    duration_ms          INTEGER NOT NULL DEFAULT 0,
    size                 INTEGER NOT NULL CHECK (size BETWEEN 4 AND 26 AND size % 2 = 0),
    rated                INTEGER NOT NULL CHECK (rated IN (0, 1)),
    time_base_ms         INTEGER NOT NULL DEFAULT 0,
    time_increment_ms    INTEGER NOT NULL DEFAULT 0,
    time_per_move_ms     INTEGER NOT NULL DEFAULT 0,
    status               TEXT NOT NULL CHECK (status IN ('signup', 'running', 'paused', 'finished', 'canceled')),
    round                INTEGER NOT NULL DEFAULT 0,
    starts_at            INTEGER NOT NULL,
    ends_at              INTEGER,
    reminded             INTEGER NOT NULL DEFAULT 0 CHECK (reminded IN (0, 1)),
    signup_message_id    TEXT NOT NULL DEFAULT '',
    standings_message_id TEXT NOT NULL DEFAULT '',
    event_id             TEXT NOT NULL DEFAULT '',
    created_at           INTEGER NOT NULL,
    finished_at          INTEGER,
    version              INTEGER NOT NULL DEFAULT 1
) STRICT;

CREATE INDEX tournaments_open ON tournaments (status) WHERE status IN ('signup', 'running', 'paused');

CREATE TABLE tournament_entrants (
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
    player_id     TEXT NOT NULL REFERENCES players(id),
    seed          INTEGER NOT NULL,
    rating        REAL NOT NULL,
    joined_at     INTEGER NOT NULL,
    withdrawn_at  INTEGER,
    PRIMARY KEY (tournament_id, player_id)
) STRICT;

CREATE TABLE tournament_pairings (
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
    round         INTEGER NOT NULL,
    board         INTEGER NOT NULL,
    black_id      TEXT NOT NULL,
    white_id      TEXT NOT NULL DEFAULT '', -- '': a bye
    game_id       INTEGER REFERENCES games(id),
    -- a result given without play: the player who withdrew
    forfeit_by    TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (tournament_id, round, board)
) STRICT;

CREATE UNIQUE INDEX tournament_pairings_black ON tournament_pairings (tournament_id, round, black_id);
CREATE UNIQUE INDEX tournament_pairings_white ON tournament_pairings (tournament_id, round, white_id) WHERE white_id <> '';

ALTER TABLE games ADD COLUMN tournament_id INTEGER REFERENCES tournaments(id);
ALTER TABLE results ADD COLUMN tournament_id INTEGER;
