"""Session starts spaced through the database, for every process that shares it."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.storage.bot_state import claim_identify
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
