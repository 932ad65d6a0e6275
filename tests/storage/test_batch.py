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


async def test_together_values_of_a_batch_are_stored_in_one_call_before_its_works(tmp_path):
    """A finished deal's results go to `stats.record_hands` with the batch's other deals: the
    writer calls each `together` function once a batch, with every value in the order queued,
    before any work; a batch that fails is stored again write by write, each value once."""
    db = await Database.open(tmp_path / "together.db")
    await db.execute("CREATE TABLE stored (value INTEGER NOT NULL)")
    writer = BatchWriter(db)
    calls: list[object] = []

    async def store(d: Database, values: list[int]) -> None:
        calls.append(list(values))
        await d.executemany("INSERT INTO stored (value) VALUES (?)", [(v,) for v in values])

    async def work(d: Database) -> None:
        calls.append("work")

    async def failing(d: Database) -> None:
        raise RuntimeError("this write fails")

    try:
        await asyncio.gather(
            writer.write(work, together=(store, [1, 2])),
            writer.write(together=(store, [3])),
        )
        assert calls == [[1, 2, 3], "work"]
        assert writer.batches == 1
        calls.clear()
        results = await asyncio.gather(
            writer.write(together=(store, [4])),
            writer.write(failing),
            writer.write(together=(store, [5])),
            return_exceptions=True,
        )
        assert results[0] is None and results[2] is None
        assert isinstance(results[1], RuntimeError)
        # The failed batch held 4 and 5 and was rolled back; then each write alone.
        assert calls == [[4, 5], [4], [5]]
        values = [r[0] for r in await db.fetchall("SELECT value FROM stored ORDER BY value")]
        assert values == [1, 2, 3, 4, 5]
    finally:
        await writer.close()
        await db.close()
