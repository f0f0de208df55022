-- A tournament's web page is found by a random public id, as a game's is,
-- never by its number.
ALTER TABLE tournaments ADD COLUMN public_id TEXT;
CREATE UNIQUE INDEX tournaments_public_id ON tournaments (public_id) WHERE public_id IS NOT NULL;
