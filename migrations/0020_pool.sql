-- The pairing pool: players waiting for a game (/play), each with what
-- they want, their rating then, and the message that shows them waiting
-- (its Leave button). An entry is deleted when it is paired, left or
-- lapses; a player waits once per server.
CREATE TABLE pool_entries (
    id          INTEGER PRIMARY KEY,
    guild_id    TEXT NOT NULL,
    channel_id  TEXT NOT NULL,
    player_id   TEXT NOT NULL,
    player_name TEXT NOT NULL,
    control     TEXT NOT NULL,
    size        INTEGER NOT NULL,
    rated       INTEGER NOT NULL CHECK (rated IN (0, 1)),
    range_width INTEGER NOT NULL,
    rating      REAL NOT NULL,
    message_id  TEXT NOT NULL DEFAULT '',
    since       INTEGER NOT NULL
) STRICT;
CREATE UNIQUE INDEX pool_entries_player ON pool_entries (guild_id, player_id);
CREATE INDEX pool_entries_since ON pool_entries (since);
