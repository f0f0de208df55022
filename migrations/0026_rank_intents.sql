-- Rating roles survive a crash between the bot and Discord: a holder's
-- row is written before Discord is asked (pending 1: being given, 2: being
-- taken; 0: done), and a server's giving every member their roles is
-- recorded until it finishes (roles_backfill: the step being given, 0:
-- none), so a start finishes both.
ALTER TABLE rank_holders ADD COLUMN pending INTEGER NOT NULL DEFAULT 0 CHECK (pending IN (0, 1, 2));
ALTER TABLE guilds ADD COLUMN roles_backfill INTEGER NOT NULL DEFAULT 0;
CREATE INDEX rank_holders_pending ON rank_holders (pending) WHERE pending <> 0;
