"""Registered pairs and fixtures in storage: real aiosqlite on a file."""

from __future__ import annotations

import pytest

from bot.engine.rules import build_options
from bot.storage import fixtures as store
from bot.storage import leagues
from bot.storage.fixtures import FixtureError, NewFixture, parse_fixture_id
from tests.storage.builders import GUILD

NOW = 1_700_000_000


async def league_with(db, *members: int, guild: int = GUILD, name: str = "Friday Night"):
    async with db.transaction():
        league = await leagues.create_league(
            db,
            guild,
            name,
            build_options("modern").to_dict(),
            format="fixtures",
            standing="rubber_points",
            substitutes=False,
            created_by=1,
        )
        for user in members:
            await leagues.join_league(db, league, user, f"m{user}")
    return league


async def register(db, league, first, second, alternate=None):
    async with db.transaction():
        return await store.register_pair(
            db,
            league,
            (first, f"m{first}"),
            (second, f"m{second}"),
            (alternate, f"m{alternate}") if alternate else None,
            NOW,
        )


async def rows(db, table: str) -> list[tuple]:
    return [tuple(r) for r in await db.fetchall(f"SELECT * FROM {table} ORDER BY id")]


async def test_a_registered_pair_keeps_its_partners_and_alternate(db):
    league = await league_with(db, 1, 2, 3)
    pair = await register(db, league, 1, 2, 3)
    assert pair.name == "m1 & m2" and pair.players == (1, 2, 3)
    assert await store.league_pairs(db, league.id) == [pair]
    for user in (1, 2, 3):
        assert await store.pair_of(db, league.id, user) == pair


async def test_registering_a_non_member_is_refused_and_stores_nothing(db):
    league = await league_with(db, 1, 2)
    with pytest.raises(FixtureError, match="“m9” is not a member of the league “Friday Night”"):
        await register(db, league, 1, 9)
    with pytest.raises(FixtureError, match="“m9” is not a member"):
        await register(db, league, 1, 2, 9)
    assert await rows(db, "fixture_pairs") == []


async def test_the_member_registering_is_told_of_himself_as_you(db):
    """A member who had left the league ran /fixtures register: he was told "“m9” is not a
    member of the league: they join it first", of himself. He is told "you", and so is one
    already in a pair; the partner is still named."""
    league = await league_with(db, 1, 2, 3)
    with pytest.raises(FixtureError, match="^you are not a member of the league “Friday Night”"):
        await register(db, league, 9, 1)
    await register(db, league, 1, 2)
    with pytest.raises(FixtureError, match="^you are already in the pair “m1 & m2”"):
        await register(db, league, 1, 3)
    with pytest.raises(FixtureError, match="^“m2” is already in the pair “m1 & m2”"):
        await register(db, league, 3, 2)
    assert len(await rows(db, "fixture_pairs")) == 1


async def test_registering_with_oneself_is_refused(db):
    league = await league_with(db, 1, 2)
    with pytest.raises(FixtureError, match="partner must be someone else"):
        await register(db, league, 1, 1)
    with pytest.raises(FixtureError, match="alternate must be a third member"):
        await register(db, league, 1, 2, 2)
    assert await rows(db, "fixture_pairs") == []


@pytest.mark.parametrize("again", [(1, 4), (4, 2), (4, 5, 3)])
async def test_a_member_already_in_a_pair_is_refused(db, again):
    league = await league_with(db, 1, 2, 3, 4, 5)
    await register(db, league, 1, 2, 3)
    before = await rows(db, "fixture_pairs")
    with pytest.raises(FixtureError, match="already in the pair “m1 & m2”"):
        await register(db, league, *again)
    assert await rows(db, "fixture_pairs") == before


async def test_a_member_may_be_in_a_pair_of_each_league(db):
    one = await league_with(db, 1, 2)
    other = await league_with(db, 1, 2, name="Sunday")
    await register(db, one, 1, 2)
    await register(db, other, 2, 1)
    assert len(await rows(db, "fixture_pairs")) == 2


async def test_a_withdrawn_pair_is_kept_and_its_members_may_register_again(db):
    league = await league_with(db, 1, 2, 3)
    pair = await register(db, league, 1, 2)
    async with db.transaction():
        withdrawn = await store.withdraw_pair(db, league, 2, NOW + 5)
    assert withdrawn.id == pair.id and withdrawn.withdrawn
    assert await store.league_pairs(db, league.id) == []
    assert (await store.pairs_by_id(db, [pair.id]))[pair.id].withdrawn
    await register(db, league, 1, 3)
    with pytest.raises(FixtureError, match="in no pair of the league"):
        async with db.transaction():
            await store.withdraw_pair(db, league, 2, NOW)


async def test_a_series_and_its_fixtures_are_stored_with_their_windows(db):
    league = await league_with(db, 1, 2, 3, 4)
    a = await register(db, league, 1, 2)
    b = await register(db, league, 3, 4)
    async with db.transaction():
        series = await store.create_series(
            db, league.id, "round_robin", 86400, "extend", 50, [a.id, b.id], 1, NOW
        )
        ids = await store.add_fixtures(
            db,
            series.id,
            [NewFixture(1, a.id, b.id, NOW, NOW + 86400), NewFixture(1, a.id, None, NOW, NOW + 1)],
        )
    assert await store.series_under_way(db, league.id) == series
    assert series.entrants == (a.id, b.id)
    fixture, bye = [await store.fixture_by_id(db, i) for i in ids]
    assert (fixture.state, fixture.opens_at, fixture.closes_at) == ("open", NOW, NOW + 86400)
    assert bye.state == "bye" and bye.pairs == (a.id,)
    assert [f.id for f in await store.open_fixtures(db)] == [fixture.id]
    found, found_league = await store.fixture_in_guild(db, GUILD, fixture.id)
    assert found == fixture and found_league.id == league.id
    with pytest.raises(FixtureError, match=f"no fixture F{fixture.id} on this server"):
        await store.fixture_in_guild(db, GUILD + 1, fixture.id)


async def test_a_second_series_under_way_is_refused(db):
    league = await league_with(db, 1, 2, 3, 4)
    async with db.transaction():
        await store.create_series(db, league.id, "swiss", 60, "forfeit", 50, [1, 2], 1, NOW)
    with pytest.raises(FixtureError, match="still being played"):
        async with db.transaction():
            await store.create_series(db, league.id, "swiss", 60, "forfeit", 50, [1, 2], 1, NOW)


@pytest.mark.parametrize(
    ("kind", "deadline", "seconds", "words"),
    [
        ("ladder", "forfeit", 60, "unknown kind"),
        ("swiss", "never", 60, "unknown deadline rule"),
        ("swiss", "forfeit", 0, "must end after it starts"),
    ],
)
async def test_a_bad_series_is_refused(db, kind, deadline, seconds, words):
    league = await league_with(db, 1, 2)
    with pytest.raises(FixtureError, match=words):
        async with db.transaction():
            await store.create_series(db, league.id, kind, seconds, deadline, 50, [1], 1, NOW)
    assert await rows(db, "fixture_series") == []


async def test_a_fixture_is_decided_once_and_reminders_are_marked(db):
    league = await league_with(db, 1, 2, 3, 4)
    a = await register(db, league, 1, 2)
    b = await register(db, league, 3, 4)
    async with db.transaction():
        series = await store.create_series(
            db, league.id, "swiss", 60, "forfeit", 50, [a.id, b.id], 1, NOW
        )
        (fixture_id,) = await store.add_fixtures(
            db, series.id, [NewFixture(1, a.id, b.id, NOW, NOW + 60)]
        )
        await store.mark_reminded(db, fixture_id, day=True, hour=False)
        assert await store.decide(db, fixture_id, "forfeit", b.id, (0, 1), None, NOW)
        assert not await store.decide(db, fixture_id, "played", a.id, (1, 0), 3, NOW)
    fixture = await store.fixture_by_id(db, fixture_id)
    assert (fixture.state, fixture.winner_pair, fixture.reminded_day) == ("forfeit", b.id, True)
    assert not fixture.reminded_hour and await store.open_fixtures(db) == []


@pytest.mark.parametrize(("text", "number"), [("F12", 12), ("f7", 7), (" 3 ", 3), ("#F4", 4)])
def test_fixture_ids_read_as_typed(text, number):
    assert parse_fixture_id(text) == number


@pytest.mark.parametrize("text", ["", "F", "Fx", "12a", "F-1", "F" + "9" * 30, "١٢"])
def test_a_bad_fixture_id_is_refused(text):
    with pytest.raises(FixtureError, match="is not a fixture id"):
        parse_fixture_id(text)


async def test_the_fixtures_export_lists_every_fixture_with_its_window_and_result(db):
    from bot.storage.league_exports import fixtures_csv

    league = await league_with(db, 1, 2, 3, 4, 5, 6)
    a = await register(db, league, 1, 2)
    b = await register(db, league, 3, 4)
    c = await register(db, league, 5, 6)
    async with db.transaction():
        series = await store.create_series(
            db, league.id, "round_robin", 86400, "forfeit", 50, [a.id, b.id, c.id], 1, NOW
        )
        played, bye, later = await store.add_fixtures(
            db,
            series.id,
            [
                NewFixture(1, a.id, b.id, NOW, NOW + 86400),
                NewFixture(1, c.id, None, NOW, NOW + 86400),
                NewFixture(2, b.id, c.id, NOW + 86400, NOW + 2 * 86400),
            ],
        )
        assert await store.decide(db, played, "played", b.id, (1, 2), 7, NOW + 60)
        await store.withdraw_pair(db, league, 5, NOW + 120)  # its fixtures still name it
    lines = (await fixtures_csv(db, league)).decode("utf-8-sig").splitlines()
    assert lines[0].startswith("fixture,series,format,round,bracket_slot,first_pair,second_pair")
    assert lines[1:] == [
        f"F{played},{series.id},round_robin,1,,m1 & m2,m3 & m4,2023-11-14T22:13:20+00:00,"
        "2023-11-15T22:13:20+00:00,no,played,m3 & m4,1,2,M7,forfeit",
        f"F{bye},{series.id},round_robin,1,,m5 & m6,(bye),2023-11-14T22:13:20+00:00,"
        "2023-11-15T22:13:20+00:00,no,bye,,,,,forfeit",
        f"F{later},{series.id},round_robin,2,,m3 & m4,m5 & m6,2023-11-15T22:13:20+00:00,"
        "2023-11-16T22:13:20+00:00,no,open,,,,,forfeit",
    ]


async def test_a_league_without_fixtures_exports_the_header_alone(db):
    from bot.storage.league_exports import fixtures_csv

    league = await league_with(db, 1, 2)
    assert (await fixtures_csv(db, league)).decode("utf-8-sig").count("\n") == 1
