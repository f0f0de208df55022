-- The pairing pool, as SQLite's 0020.
CREATE TABLE pool_entries (
    id          BIGSERIAL PRIMARY KEY,
    guild_id    TEXT NOT NULL,
    channel_id  TEXT NOT NULL,
    player_id   TEXT NOT NULL,
    player_name TEXT NOT NULL,
    control     TEXT NOT NULL,
    size        INTEGER NOT NULL,
    rated       INTEGER NOT NULL CHECK (rated IN (0, 1)),
    range_width INTEGER NOT NULL,
    rating      DOUBLE PRECISION NOT NULL,
    message_id  TEXT NOT NULL DEFAULT '',
    since       BIGINT NOT NULL
);
CREATE UNIQUE INDEX pool_entries_player ON pool_entries (guild_id, player_id);
CREATE INDEX pool_entries_since ON pool_entries (since);
