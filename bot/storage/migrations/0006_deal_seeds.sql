-- Each deal's secret seed: its pack order comes from it, and it is shown once the deal is over
-- so anyone can check the deal against the commitment shown before it (bot/engine/commitment.py).
-- NULL for deals dealt before seeds were kept.
ALTER TABLE table_deals ADD COLUMN seed TEXT;
