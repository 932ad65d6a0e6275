-- Fixtures: a league's registered pairs and the matches set between them, each to be played
-- within a window of time.
--
-- Times here are Unix seconds (the scheduler's clock), so a window can be compared with the
-- clock and shown with Discord's timestamps as it is.

-- A registered pair: two league members who always play as partners, and an alternate who may
-- play for either of them. A member is in at most one pair of a league that has not withdrawn
-- (checked when registering). A withdrawn pair is kept: its fixtures still name it.
CREATE TABLE fixture_pairs (
    id              INTEGER PRIMARY KEY,
    league_id       INTEGER NOT NULL REFERENCES leagues (id) ON DELETE CASCADE,
    first_id        INTEGER NOT NULL,
    first_name      TEXT    NOT NULL,
    second_id       INTEGER NOT NULL,
    second_name     TEXT    NOT NULL,
    alternate_id    INTEGER,
    alternate_name  TEXT,
    registered_at   INTEGER NOT NULL,
    withdrawn_at    INTEGER,
    CHECK (first_id != second_id),
    CHECK (alternate_id IS NULL OR alternate_id NOT IN (first_id, second_id))
);
CREATE INDEX fixture_pairs_by_league ON fixture_pairs (league_id) WHERE withdrawn_at IS NULL;

-- One making of fixtures: its kind, the pairs entered (in seed order), the window each fixture
-- gets and what happens at a window's end when a fixture was not played. A league has at most
-- one under way (`finished_at` NULL).
CREATE TABLE fixture_series (
    id              INTEGER PRIMARY KEY,
    league_id       INTEGER NOT NULL REFERENCES leagues (id) ON DELETE CASCADE,
    kind            TEXT    NOT NULL CHECK (kind IN
                        ('round_robin', 'swiss', 'single_elimination', 'double_elimination')),
    window_seconds  INTEGER NOT NULL CHECK (window_seconds > 0),
    deadline        TEXT    NOT NULL CHECK (deadline IN ('forfeit', 'double_forfeit', 'extend')),
    channel_id      INTEGER NOT NULL,       -- where its reminders and results are posted
    entrants        TEXT    NOT NULL,       -- JSON: pair ids in seed order
    made_by         INTEGER NOT NULL,
    made_at         INTEGER NOT NULL,
    finished_at     INTEGER
);
CREATE UNIQUE INDEX fixture_series_one_under_way ON fixture_series (league_id)
    WHERE finished_at IS NULL;

-- A fixture: two pairs to meet within a window (or one pair's bye, `second_pair` NULL).
-- `state`: open (to play), bye, played (a match decided it), forfeit (one side did not show),
-- double_forfeit (neither counts as having played it). `slot` is the bracket match it is
-- (W1.2, L2.1, GF) in an elimination, NULL otherwise.
CREATE TABLE fixtures (
    id              INTEGER PRIMARY KEY,
    series_id       INTEGER NOT NULL REFERENCES fixture_series (id) ON DELETE CASCADE,
    round           INTEGER NOT NULL,
    slot            TEXT,
    first_pair      INTEGER NOT NULL REFERENCES fixture_pairs (id),
    second_pair     INTEGER REFERENCES fixture_pairs (id),
    opens_at        INTEGER NOT NULL,
    closes_at       INTEGER NOT NULL,
    extended        INTEGER NOT NULL DEFAULT 0 CHECK (extended IN (0, 1)),
    state           TEXT    NOT NULL DEFAULT 'open'
                        CHECK (state IN ('open', 'bye', 'played', 'forfeit', 'double_forfeit')),
    table_id        INTEGER,                -- the table it is played at, once one is opened
    channel_id      INTEGER,
    north_south     INTEGER REFERENCES fixture_pairs (id),  -- the pair seated north and south
    match_id        INTEGER,                -- the match that decided it
    winner_pair     INTEGER REFERENCES fixture_pairs (id),
    first_games     INTEGER,
    second_games    INTEGER,
    reminded_day    INTEGER NOT NULL DEFAULT 0 CHECK (reminded_day IN (0, 1)),
    reminded_hour   INTEGER NOT NULL DEFAULT 0 CHECK (reminded_hour IN (0, 1)),
    decided_at      INTEGER,
    CHECK (closes_at > opens_at)
);
CREATE INDEX fixtures_by_series ON fixtures (series_id, round);
CREATE INDEX fixtures_open ON fixtures (closes_at) WHERE state = 'open';

-- Who sat down for a fixture (with /fixtures play): a side showed when two of its players did.
CREATE TABLE fixture_seats (
    fixture_id      INTEGER NOT NULL REFERENCES fixtures (id) ON DELETE CASCADE,
    user_id         INTEGER NOT NULL,
    pair_id         INTEGER NOT NULL REFERENCES fixture_pairs (id),
    PRIMARY KEY (fixture_id, user_id)
) WITHOUT ROWID;
