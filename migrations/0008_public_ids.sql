-- Each game's web page is at a random id, not its sequence number, so
-- pages cannot be guessed. Games from before get one now.
ALTER TABLE games ADD COLUMN public_id TEXT;
UPDATE games SET public_id = lower(hex(randomblob(12))) WHERE public_id IS NULL;
CREATE UNIQUE INDEX games_public_id ON games (public_id);
-- The web pages follow changed games by their update time.
CREATE INDEX games_updated ON games (updated_at);
