-- Leagues: a server's community leagues, who belongs to each, and which matches were played
-- for one.
--
-- A league fixes its rules for its seasons: the preset and every option (JSON, as
-- `Options.to_dict()` writes them). `name_key` is the name case-folded: a name is unique in its
-- server whatever its case.
CREATE TABLE leagues (
    id          INTEGER PRIMARY KEY,
    guild_id    INTEGER NOT NULL,
    name        TEXT    NOT NULL,
    name_key    TEXT    NOT NULL,
    preset      TEXT    NOT NULL,
    options     TEXT    NOT NULL,           -- JSON: Options.to_dict()
    format      TEXT    NOT NULL CHECK (format IN ('ladder', 'fixtures', 'progressive')),
    standing    TEXT    NOT NULL
                        CHECK (standing IN ('rubber_points', 'rubbers', 'games', 'points')),
    substitutes INTEGER NOT NULL DEFAULT 0 CHECK (substitutes IN (0, 1)),
    created_by  INTEGER NOT NULL,
    created_at  TEXT    NOT NULL,
    UNIQUE (guild_id, name_key)
);

-- Members are listed in the order they joined: the rowid order (a rowid table for that).
CREATE TABLE league_members (
    league_id   INTEGER NOT NULL REFERENCES leagues (id) ON DELETE CASCADE,
    user_id     INTEGER NOT NULL,
    name        TEXT    NOT NULL,           -- the member's name when they joined
    joined_at   TEXT    NOT NULL,
    PRIMARY KEY (league_id, user_id)
);

-- The league a match was played for: set when the match is allocated at a league's table,
-- NULL for every other match.
ALTER TABLE matches ADD COLUMN league_id INTEGER REFERENCES leagues (id);
CREATE INDEX matches_by_league ON matches (league_id) WHERE league_id IS NOT NULL;
