-- A member's own settings, for every table they play at.
-- ping: when the bot mentions them on their turn: 'every' (at once), 'after' (after waiting
-- ping_after seconds), 'never'.
CREATE TABLE member_settings (
    user_id     INTEGER PRIMARY KEY,
    ping        TEXT    NOT NULL CHECK (ping IN ('every', 'after', 'never')),
    ping_after  INTEGER CHECK (ping_after IS NULL OR ping_after BETWEEN 5 AND 3600)
);
