-- Follows, as SQLite's 0022.
CREATE TABLE follows (
    guild_id      TEXT NOT NULL,
    follower_id   TEXT NOT NULL,
    followed_id   TEXT NOT NULL,
    followed_name TEXT NOT NULL,
    created_at    BIGINT NOT NULL,
    PRIMARY KEY (guild_id, follower_id, followed_id)
);
CREATE INDEX follows_followed ON follows (guild_id, followed_id);
