-- League seasons, standings, ratings, corrections and their audit.
--
-- Standings and ratings are kept up to date in the transaction that records each result
-- (`league_totals`, `league_ratings`); a correction rebuilds them from the rows below, so the
-- stored values are always what the results give. Seasons keep their standings and ratings
-- as they were when they ended (`league_season_standings`, `league_season_ratings`): stored
-- rows, never recomputed.

-- A league's settings for ratings and for matches a player left: one row per league once an
-- organiser changes one (the defaults otherwise).
CREATE TABLE league_settings (
    league_id       INTEGER PRIMARY KEY REFERENCES leagues (id) ON DELETE CASCADE,
    min_games       INTEGER NOT NULL DEFAULT 10,    -- rated games before a player is listed
    hide_after_days INTEGER NOT NULL DEFAULT 14,    -- days without one before he is hidden
    leaver          TEXT    NOT NULL DEFAULT 'no_contest'
                            CHECK (leaver IN ('forfeit', 'no_contest'))
);

-- A league's seasons, numbered from 1; at most one runs at a time.
CREATE TABLE league_seasons (
    id          INTEGER PRIMARY KEY,
    league_id   INTEGER NOT NULL REFERENCES leagues (id) ON DELETE CASCADE,
    number      INTEGER NOT NULL,
    name        TEXT    NOT NULL,
    started_at  TEXT    NOT NULL,
    started_by  INTEGER NOT NULL,
    ended_at    TEXT,
    ended_by    INTEGER,
    UNIQUE (league_id, number)
);
CREATE UNIQUE INDEX league_seasons_running ON league_seasons (league_id) WHERE ended_at IS NULL;

-- Who sat where as a league match started: a seat a member started in and a computer or a
-- substitute finished is one a player left (or timed out of).
CREATE TABLE league_match_seats (
    match_id    INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    seat        INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
    user_id     INTEGER NOT NULL,
    is_bot      INTEGER NOT NULL CHECK (is_bot IN (0, 1)),
    PRIMARY KEY (match_id, seat)
) WITHOUT ROWID;

-- A league match as its standings count it. `season_id` is the season running when it ended
-- (0: none ran). The `played_` columns are the match as played and never change; the others
-- are what counts after any correction (`correction`: NULL as played, else how it was changed).
-- Sides: side 0 is seats 0 and 2, side 1 seats 1 and 3; `winner` NULL is no winner.
CREATE TABLE league_results (
    match_id        INTEGER PRIMARY KEY REFERENCES matches (id) ON DELETE CASCADE,
    league_id       INTEGER NOT NULL REFERENCES leagues (id) ON DELETE CASCADE,
    season_id       INTEGER NOT NULL,
    played_winner   INTEGER CHECK (played_winner IN (0, 1)),
    played_games_0  INTEGER NOT NULL,
    played_games_1  INTEGER NOT NULL,
    played_points_0 INTEGER NOT NULL,
    played_points_1 INTEGER NOT NULL,
    played_rp_0     INTEGER NOT NULL,
    played_rp_1     INTEGER NOT NULL,
    correction      TEXT CHECK (correction IN ('void', 'replay', 'award', 'forfeit', 'no_contest')),
    counts          INTEGER NOT NULL CHECK (counts IN (0, 1)),
    winner          INTEGER CHECK (winner IN (0, 1)),
    games_0         INTEGER NOT NULL,
    games_1         INTEGER NOT NULL,
    points_0        INTEGER NOT NULL,
    points_1        INTEGER NOT NULL,
    rp_0            INTEGER NOT NULL,
    rp_1            INTEGER NOT NULL,
    played_at       TEXT    NOT NULL
);
CREATE INDEX league_results_by_season ON league_results (league_id, season_id);

-- Who played each league match, by side (head-to-head among tied players reads it).
CREATE TABLE league_result_players (
    match_id    INTEGER NOT NULL REFERENCES league_results (match_id) ON DELETE CASCADE,
    user_id     INTEGER NOT NULL,
    side        INTEGER NOT NULL CHECK (side IN (0, 1)),
    PRIMARY KEY (match_id, user_id)
) WITHOUT ROWID;
CREATE INDEX league_result_players_by_user ON league_result_players (user_id, match_id);

-- Each player's totals in a season (0: matches outside seasons), over the matches that count.
CREATE TABLE league_totals (
    league_id      INTEGER NOT NULL,
    season_id      INTEGER NOT NULL,
    user_id        INTEGER NOT NULL,
    rubber_points  INTEGER NOT NULL DEFAULT 0,
    rubbers        INTEGER NOT NULL DEFAULT 0,
    games          INTEGER NOT NULL DEFAULT 0,
    points         INTEGER NOT NULL DEFAULT 0,
    points_against INTEGER NOT NULL DEFAULT 0,
    played         INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (league_id, season_id, user_id)
) WITHOUT ROWID;

-- Every game of a league match that may be rated (four people, no computer), in the order
-- played (`game_id`, the games row). `rated` is 0 while its match does not count as played.
CREATE TABLE league_games (
    game_id     INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    league_id   INTEGER NOT NULL REFERENCES leagues (id) ON DELETE CASCADE,
    match_id    INTEGER NOT NULL,
    winner_a    INTEGER NOT NULL,
    winner_b    INTEGER NOT NULL,
    loser_a     INTEGER NOT NULL,
    loser_b     INTEGER NOT NULL,
    played_at   TEXT    NOT NULL,
    rated       INTEGER NOT NULL DEFAULT 1 CHECK (rated IN (0, 1))
);
CREATE INDEX league_games_by_league ON league_games (league_id, game_id);
CREATE INDEX league_games_by_match ON league_games (match_id);

-- Each player's rating now, and after each rated game (his history; a recompute from a game
-- starts from the rows before it).
CREATE TABLE league_ratings (
    league_id   INTEGER NOT NULL,
    user_id     INTEGER NOT NULL,
    mu          REAL    NOT NULL,
    sigma       REAL    NOT NULL,
    games       INTEGER NOT NULL,
    last_played TEXT    NOT NULL,
    PRIMARY KEY (league_id, user_id)
) WITHOUT ROWID;
CREATE TABLE league_rating_history (
    league_id   INTEGER NOT NULL,
    user_id     INTEGER NOT NULL,
    game_id     INTEGER NOT NULL,
    mu          REAL    NOT NULL,
    sigma       REAL    NOT NULL,
    games       INTEGER NOT NULL,
    played_at   TEXT    NOT NULL,
    PRIMARY KEY (league_id, user_id, game_id)
) WITHOUT ROWID;
CREATE INDEX league_rating_history_by_game ON league_rating_history (league_id, game_id);

-- A season's standings and ratings as they were when it ended, in their order.
CREATE TABLE league_season_standings (
    season_id      INTEGER NOT NULL REFERENCES league_seasons (id) ON DELETE CASCADE,
    position       INTEGER NOT NULL,
    rank           INTEGER NOT NULL,
    user_id        INTEGER NOT NULL,
    name           TEXT    NOT NULL,
    rubber_points  INTEGER NOT NULL,
    rubbers        INTEGER NOT NULL,
    games          INTEGER NOT NULL,
    points         INTEGER NOT NULL,
    points_against INTEGER NOT NULL,
    played         INTEGER NOT NULL,
    decided_by     TEXT    NOT NULL,
    PRIMARY KEY (season_id, position)
) WITHOUT ROWID;
CREATE TABLE league_season_ratings (
    season_id   INTEGER NOT NULL REFERENCES league_seasons (id) ON DELETE CASCADE,
    position    INTEGER NOT NULL,
    user_id     INTEGER NOT NULL,
    name        TEXT    NOT NULL,
    mu          REAL    NOT NULL,
    sigma       REAL    NOT NULL,
    games       INTEGER NOT NULL,
    last_played TEXT    NOT NULL,
    listed      INTEGER NOT NULL CHECK (listed IN (0, 1)),
    PRIMARY KEY (season_id, position)
) WITHOUT ROWID;

-- Every correction of a league match, and every time the league's rule for a player who left
-- decided one. `by_user` NULL: the bot applied the league's rule. `before` is the correction
-- the match had (JSON), so an un-void gives it back.
CREATE TABLE league_audit (
    id          INTEGER PRIMARY KEY,
    league_id   INTEGER NOT NULL REFERENCES leagues (id) ON DELETE CASCADE,
    match_id    INTEGER NOT NULL,
    action      TEXT    NOT NULL,
    reason      TEXT    NOT NULL,
    by_user     INTEGER,
    at          TEXT    NOT NULL,
    before      TEXT    NOT NULL
);
CREATE INDEX league_audit_by_league ON league_audit (league_id, id);
