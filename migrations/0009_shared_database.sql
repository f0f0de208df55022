-- Several processes may share one database (PostgreSQL; SQLite gets the
-- same columns so the code is one). logged_by names the process whose
-- results log the game's line goes to: the one that finished it. leases
-- let one process at a time run a shared duty, such as the timers.
ALTER TABLE results ADD COLUMN logged_by TEXT;

CREATE TABLE leases (
    name       TEXT PRIMARY KEY,
    holder     TEXT NOT NULL,
    expires_at INTEGER NOT NULL
) STRICT;

-- othello-bot results prints the log of a period from here.
CREATE INDEX results_finished ON results (finished_at, game_id);
