-- Puzzle Storm and Streak (#57): a player's runs, each its dealt puzzles
-- in order (ids, comma-separated), where it stands (idx, step), its score
-- and combo, and when a Storm's clock runs out (ends_at; 0 for a Streak).
-- An answer moves a run only from where it stood, so a press answered
-- twice counts once. Bests are read per player and per server by mode and
-- start.
CREATE TABLE storm_runs (
    id          INTEGER PRIMARY KEY,
    mode        INTEGER NOT NULL,
    player_id   TEXT NOT NULL REFERENCES players(id),
    guild_id    TEXT NOT NULL,
    started_at  INTEGER NOT NULL,
    ends_at     INTEGER NOT NULL,
    puzzles     TEXT NOT NULL,
    idx         INTEGER NOT NULL DEFAULT 0,
    step        INTEGER NOT NULL DEFAULT 0,
    solved      INTEGER NOT NULL DEFAULT 0,
    misses      INTEGER NOT NULL DEFAULT 0,
    combo       INTEGER NOT NULL DEFAULT 0,
    best_combo  INTEGER NOT NULL DEFAULT 0,
    ended       INTEGER NOT NULL DEFAULT 0
) STRICT;
CREATE INDEX storm_runs_player ON storm_runs (player_id, mode, started_at);
CREATE INDEX storm_runs_guild ON storm_runs (guild_id, mode, started_at);
