-- Rating roles: a server's band width (0: off); the roles the bot made
-- for each speed and band (of the width they were made for); who holds
-- which of them, as the bot gave them.
ALTER TABLE guilds ADD COLUMN role_step INTEGER NOT NULL DEFAULT 0;
CREATE TABLE rank_roles (
    guild_id TEXT NOT NULL,
    speed    TEXT NOT NULL,
    step     INTEGER NOT NULL,
    band     INTEGER NOT NULL,
    role_id  TEXT NOT NULL,
    PRIMARY KEY (guild_id, speed, step, band)
) STRICT;
CREATE TABLE rank_holders (
    guild_id  TEXT NOT NULL,
    player_id TEXT NOT NULL,
    role_id   TEXT NOT NULL,
    PRIMARY KEY (guild_id, player_id, role_id)
) STRICT;
