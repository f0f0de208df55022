-- Rating roles, as SQLite's 0021.
ALTER TABLE guilds ADD COLUMN role_step INTEGER NOT NULL DEFAULT 0;
CREATE TABLE rank_roles (
    guild_id TEXT NOT NULL,
    speed    TEXT NOT NULL,
    step     INTEGER NOT NULL,
    band     INTEGER NOT NULL,
    role_id  TEXT NOT NULL,
    PRIMARY KEY (guild_id, speed, step, band)
);
CREATE TABLE rank_holders (
    guild_id  TEXT NOT NULL,
    player_id TEXT NOT NULL,
    role_id   TEXT NOT NULL,
    PRIMARY KEY (guild_id, player_id, role_id)
);
