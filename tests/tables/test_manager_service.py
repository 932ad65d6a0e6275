"""The game manager as a service: loading the tables apart from starting their clocks, and
refusing cleanly when storage fails (a full disk, a broken file) at create and close."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.tables.manager import TableManager
from bot.tables.table import Table, TableError
from tests.tables.managers import (
    GUILD,
    Listener,
    act,
    allow_writes,
    events,
    in_memory,
    member,
    open_manager,
    refuse_writes,
    seated_table,
    shut,
    stored,
)


async def fail_writes(
    manager: TableManager, name: str, event: str, table: str, when: str = ""
) -> None:
    """Make some writes fail with a real error of the class of a full disk's (a trigger, seen
    by every connection: see `refuse_writes`)."""
    await refuse_writes(manager.db, name, event, table, when, disk_full=True)


async def nothing_changes(manager: TableManager, table: Table | None, request) -> None:
    """`request()` is refused as not saved, and nothing changes in memory or in storage."""
    memory = in_memory(manager, table) if table else None
    tables = dict(manager.tables)
    rows = await stored(manager.db)
    with pytest.raises(TableError, match="could not be saved, so it did not happen"):
        await request()
    assert (in_memory(manager, table) if table else None) == memory
    assert manager.tables == tables
    assert await stored(manager.db) == rows


# -- storage failures -------------------------------------------------------------------------


async def test_create_when_the_table_cannot_be_stored_is_refused_and_changes_nothing(manager):
    await fail_writes(manager, "full_at_create", "INSERT", "tables")
    await nothing_changes(
        manager, None, lambda: manager.create(GUILD, 90, member(90, 1), "host", preset="modern")
    )
    with pytest.raises(TableError, match="no table in this channel"):
        manager.table_in(90)
    # Once storage works again, the same request succeeds.
    await allow_writes(manager.db, "full_at_create", "tables")
    table = (await manager.create(GUILD, 90, member(90, 1), "host")).table
    assert manager.table_in(90) is table


async def test_close_when_it_cannot_be_stored_is_refused_and_changes_nothing(manager):
    table = await seated_table(manager, 91)
    await act(manager, table, "pass")
    await fail_writes(
        manager, "full_at_close", "UPDATE OF status", "tables", "NEW.status = 'closed'"
    )
    await nothing_changes(manager, table, lambda: manager.close_table(91, member(91, 1)))
    assert manager.table_in(91) is table and table.playing
    # The table plays on, its events numbered on from the last stored one.
    await act(manager, table, "pass")
    await allow_writes(manager.db, "full_at_close", "tables")
    await manager.close_table(91, member(91, 1))
    numbers = [seq for seq, *_ in await events(manager.db, table.id)]
    assert numbers == list(range(1, len(numbers) + 1))
    assert (await events(manager.db, table.id))[-1][1:] == ("table", None, member(91, 1), "close")


async def test_the_last_member_leaving_when_the_close_cannot_be_stored_stays(manager):
    table = (await manager.create(GUILD, 92, member(92, 1), "host")).table
    await fail_writes(
        manager, "full_at_close", "UPDATE OF status", "tables", "NEW.status = 'closed'"
    )
    await nothing_changes(manager, table, lambda: manager.leave(92, member(92, 1)))
    assert manager.table_in(92) is table and table.seat_of(member(92, 1)) is not None


async def test_a_stored_table_that_was_not_loaded_refuses_a_second_create_clearly(
    tmp_path: Path,
):
    path = tmp_path / "euchre.db"
    db, manager = await open_manager(path)
    await seated_table(manager, 93, start=False)
    await shut(db, manager)
    db, manager = await open_manager(path)  # not loaded: as if its restore had failed
    try:
        with pytest.raises(TableError, match="could not bring back"):
            await manager.create(GUILD, 93, member(93, 5), "someone")
        assert 93 not in manager.tables
    finally:
        await shut(db, manager)


# -- loading, then resuming -------------------------------------------------------------------


async def test_load_takes_requests_at_once_and_starts_nothing_until_resume(tmp_path: Path):
    path = tmp_path / "euchre.db"
    db, manager = await open_manager(path)
    host = member(94, 1)
    table = (await manager.create(GUILD, 94, host, "host")).table
    for _ in range(3):
        await manager.add_bot(94, host, None, "easy")
    await manager.start(94, host)
    while not table.seats[table.match.to_act].is_bot:
        await act(manager, table, table.match.legal_actions()[0])
    await manager.close()  # before the computer's move
    await db.close()

    listener = Listener()
    db, manager = await open_manager(path, listener=listener)
    try:
        loaded = await manager.load()
        again = manager.table_in(94)
        assert [t.id for t in loaded] == [again.id]
        # Requests are served (a member's view), but no computer moves and no channel is told.
        _, seat, view = await manager.view(94, host)
        assert view.deal.hand
        moves = len(again.actions)
        assert listener.restored == [] and not manager._computer_tasks
        await manager.resume(loaded)
        assert listener.restored == [again.id]
        await listener.wait_for(lambda: len(again.actions) > moves)
    finally:
        await shut(db, manager)
