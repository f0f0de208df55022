-- Interactions received over HTTP (SQLite's 0011): refused when replayed
-- to any process while their timestamp is still accepted.
CREATE TABLE seen_interactions (
    id      TEXT PRIMARY KEY,
    seen_at BIGINT NOT NULL
);
CREATE INDEX seen_interactions_by_time ON seen_interactions (seen_at);
