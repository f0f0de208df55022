-- Puzzle Racer (#57): a race's message in its channel, its host, the
-- puzzles all its racers are dealt, where it stands (status: 0 taking
-- racers, 1 racing, 2 finished, 3 closed unstarted) and when it ran;
-- edited_at is when its message was last edited, so that with several
-- processes the live track is edited at most once a second by any. Each
-- racer's run is a storm_runs row with the race's id, one per player.
CREATE TABLE races (
    id          INTEGER PRIMARY KEY,
    guild_id    TEXT NOT NULL,
    channel_id  TEXT NOT NULL,
    message_id  TEXT NOT NULL DEFAULT '',
    host_id     TEXT NOT NULL REFERENCES players(id),
    puzzles     TEXT NOT NULL,
    status      INTEGER NOT NULL DEFAULT 0,
    created_at  INTEGER NOT NULL,
    starts_at   INTEGER NOT NULL DEFAULT 0,
    ends_at     INTEGER NOT NULL DEFAULT 0,
    edited_at   INTEGER NOT NULL DEFAULT 0
) STRICT;
CREATE INDEX races_due ON races (status, ends_at);
ALTER TABLE storm_runs ADD COLUMN race_id INTEGER REFERENCES races(id);
CREATE UNIQUE INDEX storm_runs_race ON storm_runs (race_id, player_id) WHERE race_id IS NOT NULL;
