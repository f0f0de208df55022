-- Game analyses, computed once (they take a minute of CPU) and kept: the
-- report as JSON, with the settings it was made with.
CREATE TABLE analyses (
    game_id    INTEGER PRIMARY KEY REFERENCES games(id),
    report     TEXT NOT NULL,
    created_at INTEGER NOT NULL
) STRICT;
