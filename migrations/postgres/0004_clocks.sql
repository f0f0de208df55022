-- Time controls and clocks, as SQLite's 0013.
ALTER TABLE games ADD COLUMN time_base_ms BIGINT NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN time_increment_ms BIGINT NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN time_per_move_ms BIGINT NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN black_left_ms BIGINT NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN white_left_ms BIGINT NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN remind_at BIGINT;

-- The time control as the results log writes it ("3+2", "1d"; '' none).
ALTER TABLE results ADD COLUMN time_control TEXT NOT NULL DEFAULT '';

ALTER TABLE challenges ADD COLUMN time_base_ms BIGINT NOT NULL DEFAULT 0;
ALTER TABLE challenges ADD COLUMN time_increment_ms BIGINT NOT NULL DEFAULT 0;
ALTER TABLE challenges ADD COLUMN time_per_move_ms BIGINT NOT NULL DEFAULT 0;
