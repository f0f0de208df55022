-- How many times a player took a move back (/undo, casual games against the
-- bot only), shown with the game and in its history.
ALTER TABLE games ADD COLUMN takebacks INTEGER NOT NULL DEFAULT 0;

-- /games lists a server's running games.
CREATE INDEX games_active_guild ON games (guild_id, id) WHERE status = 'active';
