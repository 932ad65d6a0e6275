"""The group-commit writer as the bot stops."""

from __future__ import annotations

import asyncio

import pytest

from bot.storage.batch import BatchWriter, _Item
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
    """A finished deal's results go to `results.record_hands` with the batch's other deals: the
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


def test_a_batch_is_split_by_what_its_writes_lock_and_no_tables_writes_are_reordered():
    """On PostgreSQL a batch is committed as up to three transactions: tables with moves alone
    (no lock), tables with their server's results (those servers' locks), then the rest (the
    whole database). Each table's writes all go to one of them, in the order queued."""
    loop = asyncio.new_event_loop()
    try:

        def item(table: int | None, *, work: bool = False, server: int | None = None) -> _Item:
            async def noop(db: Database) -> None:
                return None

            fence = (table, 1) if table is not None else None
            return _Item(
                noop if work else None, (), None, loop.create_future(), fence, None, server
            )

        move_a, move_b1, move_c1, untabled = item(1), item(2), item(3), item(None, work=True)
        result_b, move_b2 = item(2, work=True, server=70), item(2)
        seating_c, move_c2 = item(3, work=True), item(3)
        batch = [move_a, move_b1, move_c1, untabled, result_b, move_b2, seating_c, move_c2]
        parts = BatchWriter._parts(batch)
        assert parts == [
            ([move_a], False),
            ([move_b1, result_b, move_b2], frozenset({70})),
            ([move_c1, untabled, seating_c, move_c2], True),
        ]
        assert BatchWriter._parts([move_a]) == [([move_a], False)]
    finally:
        loop.close()
