-- Languages: a player may choose the language the bot answers them in, and
-- a server the language of its public messages; '' means none chosen
-- (Discord's language applies). discord_locale is the server's Discord
-- language as last seen in an interaction, for posts no interaction brings
-- (timers).
ALTER TABLE players ADD COLUMN language TEXT NOT NULL DEFAULT '';

CREATE TABLE guilds (
    id             TEXT PRIMARY KEY,
    language       TEXT NOT NULL DEFAULT '',
    discord_locale TEXT NOT NULL DEFAULT '',
    updated_at     INTEGER NOT NULL
) STRICT;
