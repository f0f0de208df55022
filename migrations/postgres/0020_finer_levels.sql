-- The bot's levels on a finer scale (#55): twenty levels where there were
-- ten. A game's bot level may now be 1-20, and the levels stored before
-- are moved to the new level nearest them in strength (engine.FromOldLevel,
-- docs/engine.md "Levels"): 1 stays, 2 -> 6, 3 -> 13, 4 -> 15, 5 and 6 -> 16,
-- 7-10 -> 17-20. Every process must run this build before it starts: an
-- older one refuses the new levels.
ALTER TABLE games DROP CONSTRAINT games_black_level_check;
ALTER TABLE games DROP CONSTRAINT games_white_level_check;
ALTER TABLE games ADD CONSTRAINT games_black_level_check CHECK (black_level BETWEEN 1 AND 20);
ALTER TABLE games ADD CONSTRAINT games_white_level_check CHECK (white_level BETWEEN 1 AND 20);
UPDATE games SET black_level = CASE black_level WHEN 2 THEN 6 WHEN 3 THEN 13 WHEN 4 THEN 15 WHEN 5 THEN 16 WHEN 6 THEN 16 WHEN 7 THEN 17 WHEN 8 THEN 18 WHEN 9 THEN 19 WHEN 10 THEN 20 ELSE black_level END WHERE black_level IS NOT NULL;
UPDATE games SET white_level = CASE white_level WHEN 2 THEN 6 WHEN 3 THEN 13 WHEN 4 THEN 15 WHEN 5 THEN 16 WHEN 6 THEN 16 WHEN 7 THEN 17 WHEN 8 THEN 18 WHEN 9 THEN 19 WHEN 10 THEN 20 ELSE white_level END WHERE white_level IS NOT NULL;
UPDATE results SET black_level = CASE black_level WHEN 2 THEN 6 WHEN 3 THEN 13 WHEN 4 THEN 15 WHEN 5 THEN 16 WHEN 6 THEN 16 WHEN 7 THEN 17 WHEN 8 THEN 18 WHEN 9 THEN 19 WHEN 10 THEN 20 ELSE black_level END WHERE black_level IS NOT NULL;
UPDATE results SET white_level = CASE white_level WHEN 2 THEN 6 WHEN 3 THEN 13 WHEN 4 THEN 15 WHEN 5 THEN 16 WHEN 6 THEN 16 WHEN 7 THEN 17 WHEN 8 THEN 18 WHEN 9 THEN 19 WHEN 10 THEN 20 ELSE white_level END WHERE white_level IS NOT NULL;
