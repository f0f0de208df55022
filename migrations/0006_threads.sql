-- Games in threads. parent_id is the channel a game's thread was opened
-- from ('' for a game that lives in a channel itself); archive_at is when a
-- finished game's thread is due to be archived, NULL once it is (or for a
-- game without a thread).
ALTER TABLE games ADD COLUMN parent_id TEXT NOT NULL DEFAULT '';
ALTER TABLE games ADD COLUMN archive_at INTEGER;
CREATE INDEX games_archive_due ON games (archive_at) WHERE archive_at IS NOT NULL;
CREATE INDEX games_channel ON games (channel_id, id);
-- A player's running games, for the limit on games at once.
CREATE INDEX games_active_black ON games (black_id) WHERE status = 'active';
CREATE INDEX games_active_white ON games (white_id) WHERE status = 'active';
