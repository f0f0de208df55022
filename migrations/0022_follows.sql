-- Follows: a member of a server follows another there, and is pinged when
-- that one starts a game (/follow).
CREATE TABLE follows (
    guild_id      TEXT NOT NULL,
    follower_id   TEXT NOT NULL,
    followed_id   TEXT NOT NULL,
    followed_name TEXT NOT NULL,
    created_at    INTEGER NOT NULL,
    PRIMARY KEY (guild_id, follower_id, followed_id)
) STRICT;
CREATE INDEX follows_followed ON follows (guild_id, followed_id);
