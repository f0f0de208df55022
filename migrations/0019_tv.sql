-- Othello TV: the channel where a server's best live game is followed
-- ('' for none), the message showing it and the game it shows (0: none
-- yet, or the last one ended).
ALTER TABLE guilds ADD COLUMN tv_channel TEXT NOT NULL DEFAULT '';
ALTER TABLE guilds ADD COLUMN tv_message TEXT NOT NULL DEFAULT '';
ALTER TABLE guilds ADD COLUMN tv_game INTEGER NOT NULL DEFAULT 0;
