-- Live tables: what a restart needs to put every open table back as it was.
--
-- A table's seats, waiting list and bookkeeping are one JSON document (`state`), rewritten when
-- they change. The play of its current match is not stored as a snapshot: it is rebuilt by
-- replaying `table_events` over the decks in `table_deals`, through the rules engine, so what
-- is restored is exactly what was played.

CREATE TABLE tables (
    id          INTEGER PRIMARY KEY,
    guild_id    INTEGER NOT NULL,
    channel_id  INTEGER NOT NULL,
    host_id     INTEGER NOT NULL,
    status      TEXT    NOT NULL CHECK (status IN ('open', 'closed')),
    options     TEXT    NOT NULL,          -- JSON: Options.to_dict()
    state       TEXT    NOT NULL,          -- JSON: Table.to_state()
    created_at  TEXT    NOT NULL,          -- ISO 8601, UTC
    updated_at  TEXT    NOT NULL,
    closed_at   TEXT,
    close_reason TEXT
);

-- One open table per channel or thread.
CREATE UNIQUE INDEX tables_one_open_per_channel ON tables (channel_id) WHERE status = 'open';

-- Each deal's pack order, written before any of its cards is shown.
CREATE TABLE table_deals (
    table_id    INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    match_no    INTEGER NOT NULL,
    deal_no     INTEGER NOT NULL,
    dealer      INTEGER NOT NULL,
    deck        TEXT    NOT NULL,          -- JSON list of card codes, top card first
    PRIMARY KEY (table_id, match_no, deal_no)
);

-- Every accepted action, in order: game actions (replayed on restore) and table actions
-- (joins, leaves, starts...: kept for the record and for disputes).
CREATE TABLE table_events (
    table_id    INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    seq         INTEGER NOT NULL,
    match_no    INTEGER NOT NULL,
    kind        TEXT    NOT NULL CHECK (kind IN ('game', 'table')),
    seat        INTEGER,
    user_id     INTEGER,
    action      TEXT    NOT NULL,
    at          TEXT    NOT NULL,
    PRIMARY KEY (table_id, seq)
);
