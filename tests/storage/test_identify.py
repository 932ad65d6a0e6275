"""Session starts spaced through the database, for every process that shares it."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.storage.bot_state import claim_identify, renew_identify
from bot.storage.database import Database
from tests.support.postgres import database_for


async def test_a_bucket_gives_one_start_per_spacing_and_says_how_long_to_wait(tmp_path: Path):
    db = await Database.open(await database_for(tmp_path / "t.db"))
    try:
        assert await claim_identify(db, 0, now=100.0, spacing=5.0) == 0.0
        assert await claim_identify(db, 0, now=102.0, spacing=5.0) == 3.0
        assert await claim_identify(db, 1, now=102.0, spacing=5.0) == 0.0  # another bucket
        assert await claim_identify(db, 0, now=105.0, spacing=5.0) == 0.0
    finally:
        await db.close()


async def test_processes_on_one_file_never_claim_the_same_start(tmp_path: Path):
    path = tmp_path / "t.db"
    first = await Database.open(await database_for(path))
    second = await Database.open(await database_for(path))
    try:
        waits = await asyncio.gather(
            *(claim_identify(db, 0, now=50.0, spacing=5.0) for db in (first, second, first))
        )
        assert sorted(waits) == [0.0, 5.0, 5.0]
    finally:
        await first.close()
        await second.close()


async def test_a_start_claimed_before_connecting_is_renewed_unless_another_came_after(
    tmp_path: Path,
):
    """A shard claims its start, then connects: its IDENTIFY renews the claim (the spacing then
    counts from the IDENTIFY), unless it connected so slowly that another start was claimed."""
    db = await Database.open(await database_for(tmp_path / "t.db"))
    try:
        assert await claim_identify(db, 0, now=100.0, spacing=5.0) == 0.0
        assert await renew_identify(db, 0, held=100.0, now=101.0)
        assert await claim_identify(db, 0, now=105.5, spacing=5.0) == 0.5  # from the renewal
        assert await claim_identify(db, 0, now=106.0, spacing=5.0) == 0.0
        # The start at 101 is no longer the last one: its connection came too late.
        assert not await renew_identify(db, 0, held=101.0, now=107.0)
        assert not await renew_identify(db, 1, held=100.0, now=107.0)  # a bucket never claimed
        assert await claim_identify(db, 0, now=110.0, spacing=5.0) == 1.0  # 106 still holds
    finally:
        await db.close()
