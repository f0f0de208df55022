-- The last game number handed out. A game in a thread gets its number
-- before it is stored, so that its thread is opened once with its final
-- name ("Game #N · …"); every new game takes its number here, so a number
-- handed out early is never taken by another game meanwhile.
CREATE TABLE game_numbers (
    one  INTEGER PRIMARY KEY CHECK (one = 1),
    last INTEGER NOT NULL
) STRICT;
