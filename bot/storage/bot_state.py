"""Repository for the bot's own state between starts: a small key/value table (migration 0005).

What the bot keeps here is about the bot, not about any game: for instance the hash of the slash
commands last synced to each scope (``bot/command_sync.py``).
"""

from __future__ import annotations

from datetime import UTC, datetime

from bot.storage.database import Database


async def get_value(db: Database, key: str) -> str | None:
    """The value stored under `key`, or None when there is none."""
    value = await db.fetchval("SELECT value FROM bot_state WHERE key = ?", (key,))
    return None if value is None else str(value)


async def set_value(db: Database, key: str, value: str, now: datetime | None = None) -> None:
    """Store `value` under `key`, replacing what was there."""
    stamp = (now or datetime.now(UTC)).isoformat()
    await db.execute(
        "INSERT INTO bot_state (key, value, updated_at) VALUES (?, ?, ?)"
        " ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
        (key, value, stamp),
    )


async def claim_identify(db: Database, bucket: int, now: float, spacing: float) -> float:
    """Take the next IDENTIFY of a rate-limit bucket for this process, if it is free.

    Discord lets one session start per bucket (shard id modulo `max_concurrency`) every few
    seconds, for the whole bot. Every process keeps the time of the last start here, in one
    transaction, so processes sharing the database never start two sessions too close.

    Returns:
        0 when the start is claimed (and stored); else the seconds to wait before asking again.
    """
    key = f"identify:{bucket}"
    async with db.transaction():
        last = await get_value(db, key)
        if last is not None and now - float(last) < spacing:
            return spacing - (now - float(last))
        await set_value(db, key, repr(now))
    return 0.0


async def renew_identify(db: Database, bucket: int, held: float, now: float) -> bool:
    """Move the start this process claimed at `held` to `now`, unless another took a later one.

    A shard claims its start before it connects, so that it waits with no connection open
    (discord.py would drop one kept waiting); it renews the claim once connected, just before
    its IDENTIFY, so the spacing counts from the IDENTIFY as it does for `claim_identify`.

    Returns:
        True when the start is still this process's, now at `now`; False when the connection
        took so long that another start was claimed after `held` (claim again).
    """
    key = f"identify:{bucket}"
    async with db.transaction():
        last = await get_value(db, key)
        if last is None or float(last) != held:
            return False
        await set_value(db, key, repr(now))
    return True
