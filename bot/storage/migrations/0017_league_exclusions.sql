-- A league match that did not count when it ended, and why: the reasons
-- `bot.leagues.counting.reasons_not_counted` gave then, as a JSON list of sentences.
-- `/league match` answers from them (and from `league_results` for the matches that count),
-- since the league's members may change after the match.
CREATE TABLE league_exclusions (
    match_id    INTEGER PRIMARY KEY REFERENCES matches (id) ON DELETE CASCADE,
    league_id   INTEGER NOT NULL REFERENCES leagues (id) ON DELETE CASCADE,
    reasons     TEXT    NOT NULL
);

-- Every match played for a fixture that was found to decide it or not (its league verdict):
-- a correction of the match makes its fixture follow, even after the fixture was opened again.
-- (No reference to matches, as `fixtures.match_id` has none.)
CREATE TABLE fixture_matches (
    match_id    INTEGER PRIMARY KEY,
    fixture_id  INTEGER NOT NULL REFERENCES fixtures (id) ON DELETE CASCADE
);
