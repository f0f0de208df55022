-- Languages (SQLite's 0010): a player's chosen language, and a server's
-- chosen language and Discord language as last seen; '' means none.
ALTER TABLE players ADD COLUMN language TEXT NOT NULL DEFAULT '';

CREATE TABLE guilds (
    id             TEXT PRIMARY KEY,
    language       TEXT NOT NULL DEFAULT '',
    discord_locale TEXT NOT NULL DEFAULT '',
    updated_at     BIGINT NOT NULL
);
