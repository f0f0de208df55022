-- The pairing pool's settings, as SQLite's 0023.
ALTER TABLE guilds ADD COLUMN play_role TEXT NOT NULL DEFAULT '';
ALTER TABLE guilds ADD COLUMN pool_open INTEGER NOT NULL DEFAULT 0 CHECK (pool_open IN (0, 1));
