-- Time controls and clocks. A game's control is its base time and
-- increment per side (a live clock) or its time per move
-- (correspondence), in milliseconds; all zero: none (a game against the
-- bot without a clock). black_left_ms and white_left_ms are each side's
-- clock when its current or next turn begins, stored with every turn, so
-- a restart or another process continues the same clocks. remind_at is
-- when the player to move is pinged that their time runs low (NULL: the
-- configured time before the deadline, as for games from before clocks).
ALTER TABLE games ADD COLUMN time_base_ms INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN time_increment_ms INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN time_per_move_ms INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN black_left_ms INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN white_left_ms INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN remind_at INTEGER;

-- The time control as the results log writes it ("3+2", "1d"; '' none).
ALTER TABLE results ADD COLUMN time_control TEXT NOT NULL DEFAULT '';

ALTER TABLE challenges ADD COLUMN time_base_ms INTEGER NOT NULL DEFAULT 0;
ALTER TABLE challenges ADD COLUMN time_increment_ms INTEGER NOT NULL DEFAULT 0;
ALTER TABLE challenges ADD COLUMN time_per_move_ms INTEGER NOT NULL DEFAULT 0;
