-- Lessons (#55): a player's own largest mistakes in a finished game, kept
-- as puzzles given to that player alone (owner_id), with the other moves
-- as right as the best (accept, squares) and why the move played was
-- worse (why, package coach's encoding). A game's lessons are made once
-- for each of its players (lesson_scans), none found included. Puzzles
-- anyone may be given keep owner_id NULL; the one-puzzle-per-position
-- index is theirs, lessons have their own.
ALTER TABLE puzzles ADD COLUMN owner_id TEXT REFERENCES players(id);
ALTER TABLE puzzles ADD COLUMN accept TEXT NOT NULL DEFAULT '';
ALTER TABLE puzzles ADD COLUMN why TEXT NOT NULL DEFAULT '';
DROP INDEX puzzles_game_ply;
CREATE UNIQUE INDEX puzzles_game_ply ON puzzles (game_id, ply) WHERE game_id IS NOT NULL AND owner_id IS NULL;
CREATE UNIQUE INDEX puzzles_lessons ON puzzles (owner_id, game_id, ply) WHERE owner_id IS NOT NULL;

CREATE TABLE lesson_scans (
    game_id    BIGINT NOT NULL REFERENCES games(id),
    owner_id   TEXT NOT NULL REFERENCES players(id),
    found      INTEGER NOT NULL,
    scanned_at BIGINT NOT NULL,
    PRIMARY KEY (game_id, owner_id)
);
