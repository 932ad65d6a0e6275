-- Euchre nights: a progressive evening of a league, played round by round at tables in
-- threads of one channel.
--
-- A night is open for registration ('open'), then played ('playing'), then 'closed'. Its
-- seating plan (`plan`, JSON) numbers the players as places: `players` lists the member at
-- each place (a place whose member left is played by a computer, or re-planned, as `late`
-- says), `rounds` each round's tables in places, and `first` the night's round the plan's
-- first round is. The night's totals are not kept here: they are summed from the hands its
-- tables recorded (`hands`, `hand_players`), so a deal stored is a deal counted.
CREATE TABLE nights (
    id                INTEGER PRIMARY KEY,
    guild_id          INTEGER NOT NULL,
    channel_id        INTEGER NOT NULL,
    league_id         INTEGER NOT NULL REFERENCES leagues (id),
    organiser_id      INTEGER NOT NULL,
    status            TEXT    NOT NULL DEFAULT 'open'
                              CHECK (status IN ('open', 'playing', 'closed')),
    rounds            INTEGER,                -- NULL: as many as the schedule has
    deals_per_round   INTEGER CHECK (deals_per_round >= 1),
    minutes_per_round INTEGER CHECK (minutes_per_round >= 1),
    late              TEXT    NOT NULL CHECK (late IN ('computer', 'bye')),
    movement          TEXT    NOT NULL CHECK (movement IN ('schedule', 'winners_move_up')),
    message_id        INTEGER,                -- the night's message: players and standings
    plan              TEXT,                   -- JSON, from the start: see above
    round             INTEGER NOT NULL DEFAULT 0,  -- the round being played (0: not started)
    created_at        TEXT    NOT NULL,
    closed_at         TEXT,
    CHECK ((deals_per_round IS NULL) <> (minutes_per_round IS NULL))
);
CREATE UNIQUE INDEX nights_one_open_per_channel ON nights (channel_id) WHERE status <> 'closed';

-- Who registered, in the order they did (rowid order); `left_round` is set when they leave
-- (0 when they leave before the start, which simply forgets them).
CREATE TABLE night_players (
    night_id    INTEGER NOT NULL REFERENCES nights (id) ON DELETE CASCADE,
    user_id     INTEGER NOT NULL,
    name        TEXT    NOT NULL,
    joined_at   TEXT    NOT NULL,
    joined_round INTEGER NOT NULL DEFAULT 0,  -- the round being played when they joined
    left_round  INTEGER,
    PRIMARY KEY (night_id, user_id)
);

-- Each round as seated: its tables in places (JSON [[[a, b], [c, d]], ...]) and byes, and the
-- wall-clock second its time runs out (NULL for a round of a number of deals).
CREATE TABLE night_rounds (
    night_id    INTEGER NOT NULL REFERENCES nights (id) ON DELETE CASCADE,
    number      INTEGER NOT NULL,
    seating     TEXT    NOT NULL,
    deadline    REAL,
    time_up     INTEGER NOT NULL DEFAULT 0 CHECK (time_up IN (0, 1)),
    started_at  TEXT    NOT NULL,
    PRIMARY KEY (night_id, number)
) WITHOUT ROWID;

-- A round's table: its thread, the bot table playing in it, who sat where (JSON, north to
-- west: user ids, NULL for a computer), the last deal it plays (set at the start for a round
-- of deals, when time runs out for a round of minutes) and whether it is done for the round.
CREATE TABLE night_tables (
    night_id    INTEGER NOT NULL REFERENCES nights (id) ON DELETE CASCADE,
    round       INTEGER NOT NULL,
    position    INTEGER NOT NULL,             -- 1 is the head table
    thread_id   INTEGER NOT NULL,
    table_id    INTEGER NOT NULL,
    seats       TEXT    NOT NULL,
    last_deal   INTEGER,
    done        INTEGER NOT NULL DEFAULT 0 CHECK (done IN (0, 1)),
    PRIMARY KEY (night_id, round, position)
) WITHOUT ROWID;
CREATE INDEX night_tables_by_table ON night_tables (table_id);

-- The thread opened for a table of a round, stored before the table is made in it: a stop
-- between the table's making and its night_tables row finds the thread, and the table in it,
-- again, so nobody is seated at two tables of one round.
CREATE TABLE night_threads (
    night_id    INTEGER NOT NULL REFERENCES nights (id) ON DELETE CASCADE,
    round       INTEGER NOT NULL,
    position    INTEGER NOT NULL,
    thread_id   INTEGER NOT NULL,
    PRIMARY KEY (night_id, round, position)
) WITHOUT ROWID;

-- The night's totals sum a table's hands: find them by table.
CREATE INDEX IF NOT EXISTS hands_by_table ON hands (table_id);
