-- Leaderboard-ready totals: one row per player per board, all presets together, so a
-- leaderboard page reads one row per player of the server and groups nothing.
--
-- `player_totals` (0002) stays the detailed record of the totals, per preset, per flag and per
-- day; `board_totals` is kept from the same deltas, in the same transaction.

-- board  'all'             every result;
--        'season:<key>'    one season (keys as in player_totals);
--        '7d', '30d'       a rolling window of UTC days ending at the server's `anchor_day` in
--                          `board_windows` (the latest day with a result): when a result comes
--                          on a later day, the days that leave the window are taken out first.
-- flagged 0  results of matches without computer players or substitutes (the leaderboards);
--         1  results of flagged matches (added in when a leaderboard includes computer players).
CREATE TABLE board_totals (
    guild_id          INTEGER NOT NULL,
    board             TEXT    NOT NULL,
    flagged           INTEGER NOT NULL CHECK (flagged IN (0, 1)),
    user_id           INTEGER NOT NULL,
    rubbers_played    INTEGER NOT NULL DEFAULT 0,
    rubbers_won       INTEGER NOT NULL DEFAULT 0,
    rubber_points     INTEGER NOT NULL DEFAULT 0,
    games_played      INTEGER NOT NULL DEFAULT 0,
    games_won         INTEGER NOT NULL DEFAULT 0,
    points            INTEGER NOT NULL DEFAULT 0,
    hands_played      INTEGER NOT NULL DEFAULT 0,
    makes             INTEGER NOT NULL DEFAULT 0,
    makes_won         INTEGER NOT NULL DEFAULT 0,
    euchres_suffered  INTEGER NOT NULL DEFAULT 0,
    euchres_inflicted INTEGER NOT NULL DEFAULT 0,
    marches           INTEGER NOT NULL DEFAULT 0,
    lone_tried        INTEGER NOT NULL DEFAULT 0,
    lone_made         INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (guild_id, board, flagged, user_id)
) WITHOUT ROWID;

-- The last day of each rolling window, per server: `days` is 7 or 30.
CREATE TABLE board_windows (
    guild_id    INTEGER NOT NULL,
    days        INTEGER NOT NULL,
    anchor_day  TEXT    NOT NULL,           -- 'YYYY-MM-DD'
    PRIMARY KEY (guild_id, days)
) WITHOUT ROWID;

-- Boards for the results already recorded: all time and seasons. (The windows fill themselves
-- from the day buckets when the next result is recorded.)
INSERT INTO board_totals (guild_id, board, flagged, user_id, rubbers_played, rubbers_won,
    rubber_points, games_played, games_won, points, hands_played, makes, makes_won,
    euchres_suffered, euchres_inflicted, marches, lone_tried, lone_made)
SELECT t.guild_id, t.bucket, t.flagged, t.user_id, SUM(rubbers_played), SUM(rubbers_won),
    SUM(rubber_points), SUM(games_played), SUM(games_won), SUM(points), SUM(hands_played),
    SUM(makes), SUM(makes_won), SUM(euchres_suffered), SUM(euchres_inflicted), SUM(marches),
    SUM(lone_tried), SUM(lone_made)
FROM player_totals AS t
WHERE t.bucket = 'all' OR t.bucket >= 'season:' AND t.bucket < 'season;'
GROUP BY t.guild_id, t.bucket, t.flagged, t.user_id;

-- One partial index per leaderboard (see Metric in bot/storage/leaderboard.py): exactly the
-- counted rows it lists, in its order, so that a page, the number of players listed and a
-- player's rank are short walks along it. A count lists players with at least one; a rate
-- players with enough played. The rates' indexes hold what they divide, to answer alone.
-- A result updates only the indexes of the counters it changes.
CREATE INDEX board_rubbers_won ON board_totals
    (guild_id, board, rubbers_won DESC, user_id) WHERE flagged = 0 AND rubbers_won > 0;
CREATE INDEX board_rubber_points ON board_totals
    (guild_id, board, rubber_points DESC, user_id) WHERE flagged = 0 AND rubber_points > 0;
CREATE INDEX board_rubber_win_rate ON board_totals
    (guild_id, board, (CAST(rubbers_won AS REAL) / rubbers_played) DESC, user_id, rubbers_won,
     rubbers_played) WHERE flagged = 0 AND rubbers_played >= 5;
CREATE INDEX board_points ON board_totals
    (guild_id, board, points DESC, user_id) WHERE flagged = 0 AND points > 0;
CREATE INDEX board_makers_success ON board_totals
    (guild_id, board, (CAST(makes_won AS REAL) / makes) DESC, user_id, makes_won, makes)
    WHERE flagged = 0 AND makes >= 5;
CREATE INDEX board_euchres_inflicted ON board_totals
    (guild_id, board, euchres_inflicted DESC, user_id) WHERE flagged = 0 AND euchres_inflicted > 0;
CREATE INDEX board_lone_hands_made ON board_totals
    (guild_id, board, lone_made DESC, user_id) WHERE flagged = 0 AND lone_made > 0;
CREATE INDEX board_games_won ON board_totals
    (guild_id, board, games_won DESC, user_id) WHERE flagged = 0 AND games_won > 0;
CREATE INDEX board_game_win_rate ON board_totals
    (guild_id, board, (CAST(games_won AS REAL) / games_played) DESC, user_id, games_won,
     games_played) WHERE flagged = 0 AND games_played >= 5;
