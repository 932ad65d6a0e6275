"""The group-commit writer as the bot stops."""

from __future__ import annotations

import asyncio

import pytest

from bot.storage.batch import BatchWriter
from bot.storage.database import Database
from bot.storage.errors import WriterClosed


async def test_a_write_once_the_writer_is_closed_is_refused_not_left_waiting(tmp_path):
    db = await Database.open(tmp_path / "closed.db")
    writer = BatchWriter(db)
    try:
        await writer.write(lambda d: d.execute("SELECT 1"))
        await writer.close()
        with pytest.raises(WriterClosed, match="try again"):
            await asyncio.wait_for(writer.write(lambda d: d.execute("SELECT 1")), 5)
    finally:
        await db.close()
