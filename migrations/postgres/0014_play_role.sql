-- The role /play pings, as SQLite's 0023.
ALTER TABLE guilds ADD COLUMN play_role TEXT NOT NULL DEFAULT '';
