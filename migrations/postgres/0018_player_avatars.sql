-- A player's Discord avatar (its image hash, as /users/@me gives it), kept
-- when they log in with Discord so the game pages can show it beside
-- their name; '' for none known.
ALTER TABLE players ADD COLUMN avatar TEXT NOT NULL DEFAULT '';
