-- A challenge may ask for an XOT start: the game opens from a random
-- balanced 8-move opening (package xot).
ALTER TABLE challenges ADD COLUMN xot INTEGER NOT NULL DEFAULT 0 CHECK (xot IN (0, 1));
