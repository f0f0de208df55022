-- The live game message and the reply in flight. message_version is the
-- game version the live message shows, so a late reply never replaces a
-- newer one. reply_token is the Discord interaction token of a reply the
-- bot still owes (it is thinking), kept so that after a crash the restarted
-- bot finishes the message the user is looking at while the token is valid.
ALTER TABLE games ADD COLUMN message_version INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN reply_token TEXT NOT NULL DEFAULT '';
ALTER TABLE games ADD COLUMN reply_expires_at INTEGER;

-- Small facts the bot keeps between runs, such as where its slash commands
-- are registered.
CREATE TABLE settings (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
) STRICT;
