-- Whether a league game was played whole: by four members, with no computer, and with no seat
-- changed hands during it (a leaver, a substitute, a computer holding a seat, its member back).
-- Such a game is rated when its match ends by a leaver's forfeit or no contest (or a no
-- contest of a closed table or a removed player): a member who lost it cannot take it off his
-- rating by leaving the next game. Games stored before this was kept are taken as not whole
-- (as they were then rated).
ALTER TABLE league_games ADD COLUMN whole INTEGER NOT NULL DEFAULT 0 CHECK (whole IN (0, 1));
