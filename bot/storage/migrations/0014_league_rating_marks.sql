-- A league whose ratings are being recomputed after a correction, in short steps so the
-- writer is never held long: `league_ratings` and the history from game `from_game` on are
-- out of date, and the history before it is right. Each step rewrites the history of a run of
-- games and moves `from_game` past them; the last one writes `league_ratings` and deletes the
-- row. A correction that changes which games are rated moves `from_game` back (never forward)
-- and adds one to `version`, so a step computed before it is not written. Games that end
-- meanwhile are stored without moving anyone's rating, and the recompute rates them after the
-- corrected history, in the order they were played. A row left by a stop is carried on at the next start.
CREATE TABLE league_rating_marks (
    league_id   INTEGER PRIMARY KEY REFERENCES leagues (id) ON DELETE CASCADE,
    from_game   INTEGER NOT NULL,
    version     INTEGER NOT NULL DEFAULT 1
);
