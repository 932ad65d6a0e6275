-- League roles: Discord roles the bot gives the members ranked 1 to `top` in a league's
-- current standings, and takes back when they drop out of those places.
--
-- A role serves one league at most (two leagues would take it from each other's members).
CREATE TABLE league_roles (
    league_id   INTEGER NOT NULL REFERENCES leagues (id) ON DELETE CASCADE,
    role_id     INTEGER NOT NULL UNIQUE,
    top         INTEGER NOT NULL CHECK (top >= 1),
    added_by    INTEGER NOT NULL,
    added_at    TEXT    NOT NULL,
    PRIMARY KEY (league_id, role_id)
) WITHOUT ROWID;

-- Whom the bot gave each role, so that a sync takes it back only from them: a member an
-- organiser gave the role by hand keeps it.
CREATE TABLE league_role_holders (
    league_id   INTEGER NOT NULL,
    role_id     INTEGER NOT NULL,
    user_id     INTEGER NOT NULL,
    PRIMARY KEY (role_id, user_id),
    FOREIGN KEY (league_id, role_id) REFERENCES league_roles (league_id, role_id)
        ON DELETE CASCADE
) WITHOUT ROWID;

-- Where a league's role problems are told, and the one warning outstanding. `channel_id` and
-- `organiser_id` are the channel and the organiser of the last /league roles add; `warning`
-- is the problem last told there (NULL once a sync succeeds), so a problem is told once, not
-- after every result.
CREATE TABLE league_role_notices (
    league_id    INTEGER PRIMARY KEY REFERENCES leagues (id) ON DELETE CASCADE,
    channel_id   INTEGER NOT NULL,
    organiser_id INTEGER NOT NULL,
    warning      TEXT
);
