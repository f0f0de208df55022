-- Tournament pages, as SQLite's 0015.
ALTER TABLE tournaments ADD COLUMN public_id TEXT;
CREATE UNIQUE INDEX tournaments_public_id ON tournaments (public_id) WHERE public_id IS NOT NULL;
