-- "Watch in Discord" presses waiting for the Activity: the game (its
-- public id) the Activity opens for a person once it signs them in, in the
-- channel they pressed in. Any process serving the pages may be the one
-- the Activity asks; a row is taken once and lives a few minutes.
CREATE TABLE activity_opens (
    user_id    TEXT NOT NULL,
    channel_id TEXT NOT NULL,
    public_id  TEXT NOT NULL,
    pressed_at INTEGER NOT NULL,
    PRIMARY KEY (user_id, channel_id)
) STRICT;
