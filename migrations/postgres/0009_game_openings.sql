-- XOT openings kept with their games, as SQLite's 0018.
ALTER TABLE games ADD COLUMN opening TEXT NOT NULL DEFAULT '';
