-- An XOT game starts from the position its opening reached: the opening's
-- moves are its start, not moves of the game (no clock, no abort rule, no
-- takeback reaches them). They are kept here, as a transcript from the
-- standard start, so the game's record and results line stay whole.
ALTER TABLE games ADD COLUMN opening TEXT NOT NULL DEFAULT '';
