-- How many players each board lists on each leaderboard, kept so that a page reads one row
-- instead of counting the metric's whole index (bot/storage/board_counts.py keeps it, in the
-- same transaction as the board rows it counts; `db verify` counts again and compares).
--
-- board   as in board_totals (0003): 'all', 'season:<key>', '7d', '30d';
-- metric  a leaderboard's key (bot/storage/metrics.py);
-- players the board's unflagged rows that the metric lists (its partial index's condition).
-- A board with no row lists nobody.
CREATE TABLE board_counts (
    guild_id  INTEGER NOT NULL,
    board     TEXT    NOT NULL,
    metric    TEXT    NOT NULL,
    players   INTEGER NOT NULL,
    PRIMARY KEY (guild_id, board, metric)
) WITHOUT ROWID;

-- The counts of the boards already kept: one count along each metric's index, on the
-- conditions of 0003's indexes (and of Metric.qualify).
INSERT INTO board_counts (guild_id, board, metric, players)
SELECT guild_id, board, 'rubbers_won', count(*) FROM board_totals
    WHERE flagged = 0 AND rubbers_won > 0 GROUP BY guild_id, board
UNION ALL
SELECT guild_id, board, 'rubber_points', count(*) FROM board_totals
    WHERE flagged = 0 AND rubber_points > 0 GROUP BY guild_id, board
UNION ALL
SELECT guild_id, board, 'rubber_win_rate', count(*) FROM board_totals
    WHERE flagged = 0 AND rubbers_played >= 5 GROUP BY guild_id, board
UNION ALL
SELECT guild_id, board, 'points', count(*) FROM board_totals
    WHERE flagged = 0 AND points > 0 GROUP BY guild_id, board
UNION ALL
SELECT guild_id, board, 'makers_success', count(*) FROM board_totals
    WHERE flagged = 0 AND makes >= 5 GROUP BY guild_id, board
UNION ALL
SELECT guild_id, board, 'euchres_inflicted', count(*) FROM board_totals
    WHERE flagged = 0 AND euchres_inflicted > 0 GROUP BY guild_id, board
UNION ALL
SELECT guild_id, board, 'lone_hands_made', count(*) FROM board_totals
    WHERE flagged = 0 AND lone_made > 0 GROUP BY guild_id, board
UNION ALL
SELECT guild_id, board, 'games_won', count(*) FROM board_totals
    WHERE flagged = 0 AND games_won > 0 GROUP BY guild_id, board
UNION ALL
SELECT guild_id, board, 'game_win_rate', count(*) FROM board_totals
    WHERE flagged = 0 AND games_played >= 5 GROUP BY guild_id, board;
