-- Each start of a process, so two processes serving the same shards are told apart
-- (bot/shard_guard.py), and a process that stopped cleanly is shown as stopped, not silent.
--
-- incarnation: unique to one start (a restart with the same host and pid is another one).
-- shard_count, shard_ids: the shards it was started with (SHARD_COUNT, SHARD_IDS); a NULL count
--   serves every guild. Not rewritten by its reports, whose `shards` are those connected.
-- lease_owner: its name on its tables' leases (`shards 0,1 of 4`), to show its leases' ages.
-- beat_at: Unix seconds of its last heartbeat, every few seconds from its start on: one that
--   stops changing is a process that is gone.
-- stopped_at: when it stopped cleanly; NULL while it runs, or after a kill.
-- Rows of a version before this one have a NULL incarnation and are left out of the checks.
ALTER TABLE processes ADD COLUMN incarnation TEXT;
ALTER TABLE processes ADD COLUMN shard_count INTEGER;
ALTER TABLE processes ADD COLUMN shard_ids TEXT;
ALTER TABLE processes ADD COLUMN lease_owner TEXT;
ALTER TABLE processes ADD COLUMN beat_at REAL;
ALTER TABLE processes ADD COLUMN stopped_at REAL;
