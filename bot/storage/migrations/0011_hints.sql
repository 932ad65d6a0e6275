-- Hints given at the tables: how many each member has asked for, by server (/stats shows it).
CREATE TABLE hint_counts (
    guild_id  INTEGER NOT NULL,
    user_id   INTEGER NOT NULL,
    hints     INTEGER NOT NULL DEFAULT 0 CHECK (hints >= 0),
    PRIMARY KEY (guild_id, user_id)
);
