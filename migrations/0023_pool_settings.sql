-- The pairing pool's settings of a server: the role /play pings when a
-- member starts waiting ('' for none), and whether its casual live waits
-- pair with other servers that allow it too (1) or only here (0).
ALTER TABLE guilds ADD COLUMN play_role TEXT NOT NULL DEFAULT '';
ALTER TABLE guilds ADD COLUMN pool_open INTEGER NOT NULL DEFAULT 0 CHECK (pool_open IN (0, 1));
