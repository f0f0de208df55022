-- The message that pinged the server's play role for a wait, as SQLite's 0025.
ALTER TABLE pool_entries ADD COLUMN ping_message_id TEXT NOT NULL DEFAULT '';
