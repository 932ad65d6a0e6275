-- Games of the other variants of the rule books (two- and three-handed, French, Napoleon,
-- six-handed, set-back), kept apart from the four-handed matches and their rubber points:
-- each variant scores in its own unit (points to a game, Napoleon's chips, set-back's countdown).
--
-- A game is allocated when it starts ('playing') and finished when it ends ('finished') or its
-- table closes ('abandoned'). `flagged` is 1 when a computer or a substitute played in it: it then
-- counts on a leaderboard only when computers are included. Times are UTC text like `matches`.
CREATE TABLE variant_games (
    id          INTEGER PRIMARY KEY,
    guild_id    INTEGER NOT NULL,
    table_id    INTEGER NOT NULL,
    variant     TEXT    NOT NULL,
    players     INTEGER NOT NULL CHECK (players BETWEEN 2 AND 7),
    status      TEXT    NOT NULL DEFAULT 'playing'
                        CHECK (status IN ('playing', 'finished', 'abandoned')),
    flagged     INTEGER NOT NULL DEFAULT 0 CHECK (flagged IN (0, 1)),
    scores      TEXT,                   -- JSON: the final scores, by side or by seat
    winner      INTEGER,                -- the winning side or seat; NULL: none (a tie, abandoned)
    deals       INTEGER,
    record      TEXT,                   -- JSON: the game's own record (bot.engine.variants.records)
    started_at  TEXT    NOT NULL,
    played_at   TEXT
);
CREATE INDEX variant_games_by_guild ON variant_games (guild_id, played_at);

-- Who sat where when the game ended, what their side (or they) scored, and whether they won.
CREATE TABLE variant_game_players (
    game_id     INTEGER NOT NULL REFERENCES variant_games (id) ON DELETE CASCADE,
    seat        INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 6),
    user_id     INTEGER NOT NULL,
    name        TEXT    NOT NULL,
    is_bot      INTEGER NOT NULL DEFAULT 0,
    substitute  INTEGER NOT NULL DEFAULT 0,
    side        INTEGER NOT NULL,
    score       INTEGER NOT NULL,
    won         INTEGER NOT NULL DEFAULT 0 CHECK (won IN (0, 1)),
    PRIMARY KEY (game_id, seat)
) WITHOUT ROWID;
-- /history: a player's variant games, newest first.
CREATE INDEX variant_game_players_by_user ON variant_game_players (user_id, game_id);

-- Per player, variant and flag: what the variant leaderboards read, updated in the transaction
-- that records the game. `points` is the side's (or the player's) final score: points to a
-- game, net chips, or set-back's points shed from the start of 5.
CREATE TABLE variant_totals (
    guild_id      INTEGER NOT NULL,
    variant       TEXT    NOT NULL,
    user_id       INTEGER NOT NULL,
    flagged       INTEGER NOT NULL CHECK (flagged IN (0, 1)),
    games_played  INTEGER NOT NULL DEFAULT 0,
    games_won     INTEGER NOT NULL DEFAULT 0,
    points        INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (guild_id, variant, user_id, flagged)
) WITHOUT ROWID;
CREATE INDEX variant_totals_board ON variant_totals (guild_id, variant, flagged, games_won);
