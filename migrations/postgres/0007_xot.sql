-- XOT challenges, as SQLite's 0016.
ALTER TABLE challenges ADD COLUMN xot INTEGER NOT NULL DEFAULT 0 CHECK (xot IN (0, 1));
