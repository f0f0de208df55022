-- Interactions received over HTTP, by id, for as long as a request's
-- signed timestamp is accepted: a captured request replayed to another
-- process, or after a restart, is refused by every process.
CREATE TABLE seen_interactions (
    id      TEXT PRIMARY KEY,
    seen_at INTEGER NOT NULL
) STRICT;
CREATE INDEX seen_interactions_by_time ON seen_interactions (seen_at);
