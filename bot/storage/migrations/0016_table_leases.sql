-- One owner per open table, and each request applied once.
--
-- A bot run in several processes over one database gives each open table to exactly one of
-- them: the process holding the table's lease (`owner`, until `lease_until`, Unix seconds) runs
-- its clock, computer moves and message edits. Taking a table over adds one to `fence`, and every
-- write of the table's events checks, in the same transaction, that the fence is still the one
-- its writer took: a process that lost the lease (paused, cut off, or killed and not yet gone)
-- cannot write again. NULL owner: no one holds it (a table made before leases, or released).
ALTER TABLE tables ADD COLUMN owner TEXT;
ALTER TABLE tables ADD COLUMN fence INTEGER NOT NULL DEFAULT 0;
ALTER TABLE tables ADD COLUMN lease_until REAL NOT NULL DEFAULT 0;

-- The Discord interaction that asked for an event, when one did: an interaction delivered twice
-- (a resumed gateway session, a second process) is applied once.
ALTER TABLE table_events ADD COLUMN interaction_id INTEGER;
CREATE UNIQUE INDEX table_events_once_per_interaction
    ON table_events (interaction_id) WHERE interaction_id IS NOT NULL;
