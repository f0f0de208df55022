-- The message that pinged the server's play role for a wait, edited to say
-- what became of the wait (taken, left, lapsed).
ALTER TABLE pool_entries ADD COLUMN ping_message_id TEXT NOT NULL DEFAULT '';
