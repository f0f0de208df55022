-- Team battles (#57): a tournament with team_top > 0 is between servers,
-- each team scoring its best team_top players' points. Its teams are the
-- host server (accepted at creation) and servers invited by it, which
-- play once a member with Manage Server there accepts, in the channel
-- their players hear of their games in, under the name it gives. An entrant plays for the server
-- they joined from (team).
ALTER TABLE tournaments ADD COLUMN team_top INTEGER NOT NULL DEFAULT 0;
ALTER TABLE tournament_entrants ADD COLUMN team TEXT NOT NULL DEFAULT '';
CREATE TABLE tournament_teams (
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
    guild_id      TEXT NOT NULL,
    channel_id    TEXT NOT NULL DEFAULT '',
    name          TEXT NOT NULL DEFAULT '',
    invited_at    INTEGER NOT NULL,
    accepted_at   INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (tournament_id, guild_id)
) STRICT;
