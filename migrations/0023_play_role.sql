-- The role /play pings when a member starts waiting in the pool ('' for
-- none), as a server's admins chose it.
ALTER TABLE guilds ADD COLUMN play_role TEXT NOT NULL DEFAULT '';
