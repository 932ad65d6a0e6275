-- The bot's own state between starts: small named values, such as a hash of the slash commands
-- last synced to each scope, so a start with the same commands costs no call to Discord.

CREATE TABLE bot_state (
    key         TEXT PRIMARY KEY,
    value       TEXT NOT NULL,
    updated_at  TEXT NOT NULL           -- ISO 8601, UTC
);
