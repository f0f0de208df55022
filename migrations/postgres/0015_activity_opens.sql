-- "Watch in Discord" presses waiting for the Activity, as SQLite's 0024.
CREATE TABLE activity_opens (
    user_id    TEXT NOT NULL,
    channel_id TEXT NOT NULL,
    public_id  TEXT NOT NULL,
    pressed_at BIGINT NOT NULL,
    PRIMARY KEY (user_id, channel_id)
);
