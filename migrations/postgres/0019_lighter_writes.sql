-- What every move wrote and nothing reads (#56): the index of games by
-- update time (the game pages follow games by version now) changed with
-- every turn.
DROP INDEX games_updated;
