-- What each running process of the bot reports of itself, for /admin status: one row per process,
-- rewritten every few seconds while it runs. A bot run in several processes (each with its own
-- shards) shares one database, so any process can show them all.

CREATE TABLE processes (
    name              TEXT PRIMARY KEY,    -- host:pid
    shards            TEXT NOT NULL,       -- the shard ids it runs, comma-separated
    tables            INTEGER NOT NULL,    -- open tables it serves
    events_total      INTEGER NOT NULL,    -- accepted actions stored since it started
    events_per_second REAL NOT NULL,       -- over about the last minute
    rest_requests     INTEGER NOT NULL,    -- requests sent to Discord's REST API
    rest_429          INTEGER NOT NULL,    -- of those, answered 429 (global ones included)
    rest_global_429   INTEGER NOT NULL,    -- of those, global 429s
    latency_ms        REAL,                -- gateway heartbeat latency, when known
    started_at        REAL NOT NULL,       -- Unix seconds
    reported_at       REAL NOT NULL        -- Unix seconds
);
