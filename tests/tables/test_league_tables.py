"""A table that plays for a league: it seats only the league's members, marks its matches with
the league, and remembers its league across a restart."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.engine.rules import build_options
from bot.storage import leagues
from bot.tables.table import LeagueTableError, Occupant, Table
from tests.bot.helpers import eventually
from tests.tables.managers import GUILD, member, open_manager, seated_table, shut

CHANNEL = 5


async def league_of(db, *user_ids: int) -> leagues.League:
    """A modern league whose members are the given users."""
    async with db.transaction():
        league = await leagues.create_league(
            db,
            GUILD,
            "Friday Night",
            build_options("modern").to_dict(),
            format="ladder",
            standing="rubber_points",
            substitutes=False,
            created_by=1,
        )
        for user_id in user_ids:
            await leagues.join_league(db, league, user_id, f"member {user_id}")
    return league


def test_the_league_is_in_the_tables_state_and_comes_back_from_it():
    table = Table(3, GUILD, CHANNEL, Occupant(1, "host"), build_options("modern"))
    table.league_id, table.league_name = 9, "Friday Night"
    state = table.to_state()
    again = Table.from_state(3, GUILD, CHANNEL, table.options.to_dict(), state, [], [])
    assert (again.league_id, again.league_name) == (9, "Friday Night")


def test_a_state_stored_before_leagues_is_a_table_of_no_league():
    table = Table(3, GUILD, CHANNEL, Occupant(1, "host"), build_options("modern"))
    state = table.to_state()
    del state["league_id"], state["league_name"]
    again = Table.from_state(3, GUILD, CHANNEL, table.options.to_dict(), state, [], [])
    assert again.league_id is None and again.league_name is None


async def test_a_league_tables_match_is_stored_with_its_league(tmp_path: Path):
    db, manager = await open_manager(tmp_path / "euchre.db")
    try:
        league = await league_of(db, *(member(CHANNEL, k) for k in (1, 2, 3, 4)))
        table = await seated_table(
            manager, CHANNEL, league_id=league.id, league_name=league.name, preset="modern"
        )
        stored = await db.fetchval("SELECT league_id FROM matches WHERE id = ?", (table.match_id,))
        assert stored == league.id
    finally:
        await shut(db, manager)


async def test_a_plain_tables_match_has_no_league(tmp_path: Path):
    db, manager = await open_manager(tmp_path / "euchre.db")
    try:
        table = await seated_table(manager, CHANNEL)
        stored = await db.fetchval("SELECT league_id FROM matches WHERE id = ?", (table.match_id,))
        assert stored is None
    finally:
        await shut(db, manager)


async def test_a_non_member_is_refused_naming_the_league_and_nothing_changes(tmp_path: Path):
    db, manager = await open_manager(tmp_path / "euchre.db")
    try:
        league = await league_of(db, member(CHANNEL, 1))
        change = await manager.create(
            GUILD, CHANNEL, member(CHANNEL, 1), "host", league_id=league.id, league_name=league.name
        )
        before = change.table.to_state()
        with pytest.raises(LeagueTableError) as refused:
            await manager.join(CHANNEL, member(CHANNEL, 2), "member 2")
        assert "league “Friday Night”" in str(refused.value) and "/league join" in str(
            refused.value
        )
        assert change.table.to_state() == before
    finally:
        await shut(db, manager)


async def test_a_restored_league_table_still_seats_only_members(tmp_path: Path):
    path = tmp_path / "euchre.db"
    db, manager = await open_manager(path)
    league = await league_of(db, member(CHANNEL, 1), member(CHANNEL, 2))
    await manager.create(
        GUILD, CHANNEL, member(CHANNEL, 1), "host", league_id=league.id, league_name=league.name
    )
    await shut(db, manager)
    db, manager = await open_manager(path)
    try:
        (table,) = await manager.restore()
        assert (table.league_id, table.league_name) == (league.id, "Friday Night")
        await manager.join(CHANNEL, member(CHANNEL, 2), "member 2")
        with pytest.raises(LeagueTableError):
            await manager.join(CHANNEL, member(CHANNEL, 3), "member 3")
    finally:
        await shut(db, manager)


async def test_observers_hear_when_a_league_match_is_abandoned_and_not_a_plain_one(
    tmp_path: Path,
):
    db, manager = await open_manager(tmp_path / "euchre.db")
    heard: list[tuple[str, int | None]] = []

    async def observer(change) -> None:
        heard.append((change.kind, change.table.league_id))

    manager.observers.append(observer)
    try:
        league = await league_of(db, *(member(CHANNEL, k) for k in (1, 2, 3, 4)))
        await seated_table(
            manager, CHANNEL, league_id=league.id, league_name=league.name, preset="modern"
        )
        plain = CHANNEL + 1
        await seated_table(manager, plain)
        await manager.close_table(plain, member(plain, 1))
        await manager.close_table(CHANNEL, member(CHANNEL, 1))
        # Its standings may have moved (the league's rule for leavers): the observers are told.
        await eventually(lambda: len(heard) == 3, what="the observer told")
        assert [h for h in heard if h[0] != "closed"] == [("abandoned", league.id)]
        assert [h for h in heard if h[0] == "closed"] == [("closed", None), ("closed", league.id)]
    finally:
        await shut(db, manager)
