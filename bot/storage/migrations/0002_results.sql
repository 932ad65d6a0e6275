-- Results: every finished hand, game and match (a rubber or a single game) with who sat where,
-- and the per-player totals the leaderboards read.
--
-- Results do not reference the live `tables` rows: a result outlives its table.
-- Times are UTC text, 'YYYY-MM-DDTHH:MM:SSZ'; `day` is the UTC date 'YYYY-MM-DD' of `played_at`.
-- Sides: side 0 is seats 0 and 2, side 1 is seats 1 and 3. Columns `_0`/`_1` are per side.

-- A match: allocated when its first deal starts ('playing'), finished by the match's end
-- ('finished') or by the table closing ('abandoned').
-- `flagged` is 1 once a computer player or a substitute has played in it: everything recorded
-- for the match (its hands, games and the match itself) then counts only when a leaderboard
-- asks to include computer players.
CREATE TABLE matches (
    id              INTEGER PRIMARY KEY,
    guild_id        INTEGER NOT NULL,
    table_id        INTEGER NOT NULL,
    status          TEXT    NOT NULL DEFAULT 'playing'
                            CHECK (status IN ('playing', 'finished', 'abandoned')),
    kind            TEXT    CHECK (kind IN ('rubber', 'game')),
    flagged         INTEGER NOT NULL DEFAULT 0 CHECK (flagged IN (0, 1)),
    preset          TEXT,
    options         TEXT,                   -- JSON: Options.to_dict()
    games           TEXT,                   -- JSON: [[[score_0, score_1], winner, value], ...]
    rubber_points_0 INTEGER,
    rubber_points_1 INTEGER,
    winner          INTEGER CHECK (winner IN (0, 1)),
    record          TEXT,                   -- JSON: the match's own record
    started_at      TEXT    NOT NULL,
    played_at       TEXT,                   -- when it finished or was abandoned
    day             TEXT
);
CREATE INDEX matches_by_guild ON matches (guild_id, played_at);

-- Everyone who played in a match when it ended (a seat may list the player a substitute replaced).
CREATE TABLE match_players (
    match_id    INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    seat        INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
    user_id     INTEGER NOT NULL,
    name        TEXT    NOT NULL,
    is_bot      INTEGER NOT NULL DEFAULT 0,
    substitute  INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (match_id, seat, user_id)
) WITHOUT ROWID;
-- /history: a player's matches, newest first.
CREATE INDEX match_players_by_user ON match_players (user_id, match_id);

-- A deal, passed out or played: who made what, tricks and points per side, and its record.
CREATE TABLE hands (
    id          INTEGER PRIMARY KEY,
    match_id    INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    guild_id    INTEGER NOT NULL,
    table_id    INTEGER NOT NULL,
    game_number INTEGER NOT NULL,
    deal_number INTEGER NOT NULL,
    dealer      INTEGER NOT NULL CHECK (dealer BETWEEN 0 AND 3),
    maker       INTEGER CHECK (maker BETWEEN 0 AND 3),
    trump       TEXT,
    alone       INTEGER CHECK (alone BETWEEN 0 AND 3),      -- the seat playing alone
    defender    INTEGER CHECK (defender BETWEEN 0 AND 3),   -- the seat defending alone
    tricks_0    INTEGER NOT NULL,
    tricks_1    INTEGER NOT NULL,
    points_0    INTEGER NOT NULL,
    points_1    INTEGER NOT NULL,
    outcome     TEXT    NOT NULL CHECK (outcome IN ('passed', 'made', 'march', 'euchred')),
    preset      TEXT    NOT NULL,
    options     TEXT    NOT NULL,           -- JSON
    record      TEXT    NOT NULL,           -- JSON: the deal's record
    played_at   TEXT    NOT NULL,
    day         TEXT    NOT NULL,
    UNIQUE (match_id, game_number, deal_number)
);

CREATE TABLE hand_players (
    hand_id     INTEGER NOT NULL REFERENCES hands (id) ON DELETE CASCADE,
    seat        INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
    user_id     INTEGER NOT NULL,
    name        TEXT    NOT NULL,
    is_bot      INTEGER NOT NULL DEFAULT 0,
    substitute  INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (hand_id, seat)
) WITHOUT ROWID;

-- A finished game: final score, the side that won it, and what it counts (2 for a double game).
CREATE TABLE games (
    id          INTEGER PRIMARY KEY,
    match_id    INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    guild_id    INTEGER NOT NULL,
    table_id    INTEGER NOT NULL,
    game_number INTEGER NOT NULL,
    score_0     INTEGER NOT NULL,
    score_1     INTEGER NOT NULL,
    winner      INTEGER NOT NULL CHECK (winner IN (0, 1)),
    value       INTEGER NOT NULL CHECK (value IN (1, 2)),
    preset      TEXT    NOT NULL,
    options     TEXT    NOT NULL,           -- JSON
    played_at   TEXT    NOT NULL,
    day         TEXT    NOT NULL,
    UNIQUE (match_id, game_number)
);

CREATE TABLE game_players (
    game_id     INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat        INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
    user_id     INTEGER NOT NULL,
    name        TEXT    NOT NULL,
    is_bot      INTEGER NOT NULL DEFAULT 0,
    substitute  INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game_id, seat)
) WITHOUT ROWID;
-- /stats: a player's games, to find partners and opponents.
CREATE INDEX game_players_by_user ON game_players (user_id, game_id);

-- The name a server last saw a player use at a table, for leaderboards.
CREATE TABLE player_names (
    guild_id    INTEGER NOT NULL,
    user_id     INTEGER NOT NULL,
    name        TEXT    NOT NULL,
    PRIMARY KEY (guild_id, user_id)
) WITHOUT ROWID;

-- Seasons set by a server's admins. A season starts at the beginning of its UTC day and runs
-- until the next one starts. Before a server's first season, and on servers with none, the
-- season is the calendar quarter.
CREATE TABLE seasons (
    guild_id    INTEGER NOT NULL,
    start_day   TEXT    NOT NULL,           -- 'YYYY-MM-DD'
    name        TEXT    NOT NULL,
    created_at  TEXT    NOT NULL,
    PRIMARY KEY (guild_id, start_day)
) WITHOUT ROWID;

-- Per-player totals, kept up to date in the transaction that records each result. One row per
-- (server, bucket, player, preset, flagged):
--   bucket  'all'                   every result;
--           'season:<key>'          the season the result's day falls in: '<start_day>' of an
--                                   admin's season, or '<year>-Q<n>' for a calendar quarter;
--           'day:<YYYY-MM-DD>'      the result's UTC day (30-day and 7-day leaderboards).
--   flagged 1 for results of matches with a computer player or a substitute, else 0.
-- A leaderboard sums one bucket (or a range of days) over presets and flags it includes, so it
-- reads at most a few rows per player, never the hands. Computer players have no rows.
CREATE TABLE player_totals (
    guild_id          INTEGER NOT NULL,
    bucket            TEXT    NOT NULL,
    user_id           INTEGER NOT NULL,
    preset            TEXT    NOT NULL,
    flagged           INTEGER NOT NULL CHECK (flagged IN (0, 1)),
    rubbers_played    INTEGER NOT NULL DEFAULT 0,  -- finished rubbers (not abandoned)
    rubbers_won       INTEGER NOT NULL DEFAULT 0,
    rubber_points     INTEGER NOT NULL DEFAULT 0,  -- the side's rubber points (S.7)
    games_played      INTEGER NOT NULL DEFAULT 0,
    games_won         INTEGER NOT NULL DEFAULT 0,
    points            INTEGER NOT NULL DEFAULT 0,  -- the side's points, hand by hand
    hands_played      INTEGER NOT NULL DEFAULT 0,  -- deals played (not passed out)
    makes             INTEGER NOT NULL DEFAULT 0,  -- deals this player made trump in
    makes_won         INTEGER NOT NULL DEFAULT 0,  -- ... and his side took 3 or more tricks
    euchres_suffered  INTEGER NOT NULL DEFAULT 0,  -- made trump and was euchred
    euchres_inflicted INTEGER NOT NULL DEFAULT 0,  -- defended (and took part) and euchred them
    marches           INTEGER NOT NULL DEFAULT 0,  -- on the making side (taking part), all five
    lone_tried        INTEGER NOT NULL DEFAULT 0,  -- played alone
    lone_made         INTEGER NOT NULL DEFAULT 0,  -- played alone and took 3 or more tricks
    PRIMARY KEY (guild_id, bucket, user_id, preset, flagged)
) WITHOUT ROWID;
-- /stats: one player's buckets.
CREATE INDEX player_totals_by_user ON player_totals (guild_id, user_id, bucket);
