-- Rating roles recorded before Discord is asked, as SQLite's 0026.
ALTER TABLE rank_holders ADD COLUMN pending INTEGER NOT NULL DEFAULT 0 CHECK (pending IN (0, 1, 2));
ALTER TABLE guilds ADD COLUMN roles_backfill INTEGER NOT NULL DEFAULT 0;
CREATE INDEX rank_holders_pending ON rank_holders (pending) WHERE pending <> 0;
