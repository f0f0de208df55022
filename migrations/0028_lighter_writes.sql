-- What every move wrote and nothing reads (#56): the index of games by
-- update time (the game pages follow games by version now) changed with
-- every turn; interaction ids are kept in a table keyed by the id itself,
-- not a row id and a second index. The ids kept are a few seconds' worth,
-- checked against replays only: starting the new table empty costs nothing.
DROP INDEX games_updated;
DROP TABLE seen_interactions;
CREATE TABLE seen_interactions (
    id      TEXT PRIMARY KEY,
    seen_at INTEGER NOT NULL
) STRICT, WITHOUT ROWID;
CREATE INDEX seen_interactions_by_time ON seen_interactions (seen_at);
