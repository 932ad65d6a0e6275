"""Euchre nights in storage: the night's row, registrations, rounds and tables, and the
totals summed from the hands its tables recorded."""

from __future__ import annotations

import pytest

from bot.storage import nights
from bot.storage.database import Database
from bot.storage.errors import IntegrityError
from bot.storage.nights import NightError

LEAGUE_OPTIONS = '{"preset": "modern"}'


async def league(db: Database) -> int:
    found = await db.fetchval("SELECT id FROM leagues WHERE name_key = 'club'")
    if found is not None:
        return int(found)
    return await db.fetchval(
        "INSERT INTO leagues (guild_id, name, name_key, preset, options, format, standing,"
        " created_by, created_at) VALUES (1, 'Club', 'club', 'modern', ?, 'progressive',"
        " 'points', 1, '2026-01-01T00:00:00Z') RETURNING id",
        (LEAGUE_OPTIONS,),
    )


async def a_night(db: Database, channel: int = 50, **settings) -> nights.Night:
    options = dict(
        rounds=None, deals_per_round=2, minutes_per_round=None, late="computer", movement="schedule"
    )
    options.update(settings)
    return await nights.create_night(
        db, guild_id=1, channel_id=channel, league_id=await league(db), organiser_id=9, **options
    )


async def test_a_night_is_stored_open_with_its_settings(db):
    night = await a_night(db, rounds=3, late="bye", movement="winners_move_up")
    assert (night.status, night.rounds, night.deals_per_round, night.late, night.movement) == (
        "open",
        3,
        2,
        "bye",
        "winners_move_up",
    )
    assert (await nights.open_night(db, 50)) == night
    assert await nights.open_night(db, 51) is None


async def test_one_open_night_per_channel(db):
    await a_night(db)
    with pytest.raises(NightError, match="already open in this channel"):
        await a_night(db)


async def test_a_night_is_deals_or_minutes_not_both(db):

    with pytest.raises(IntegrityError):
        await a_night(db, deals_per_round=2, minutes_per_round=10)


async def test_registering_twice_is_refused_and_leaving_before_the_start_forgets(db):
    night = await a_night(db)
    await nights.register(db, night, 5, "eve")
    with pytest.raises(NightError, match="already registered"):
        await nights.register(db, night, 5, "eve")
    await nights.unregister(db, night, 5)
    assert await nights.players(db, night.id) == []
    with pytest.raises(NightError, match="not registered"):
        await nights.unregister(db, night, 5)


async def test_leaving_after_the_start_is_remembered_and_a_return_is_taken(db):
    night = await a_night(db)
    for user_id in (1, 2, 3, 4):
        await nights.register(db, night, user_id, f"p{user_id}")
    await nights.start(db, night.id, {"players": [1, 2, 3, 4]}, 3)
    night = await nights.night_by_id(db, night.id)
    assert (
        night.status == "playing" and night.rounds == 3 and night.plan == {"players": [1, 2, 3, 4]}
    )
    await nights.unregister(db, night, 2)
    players = {p.user_id: p for p in await nights.players(db, night.id)}
    assert not players[2].present and players[2].left_round == 0
    await nights.register(db, night, 2, "p2")
    assert all(p.present for p in await nights.players(db, night.id))
    assert [n.id for n in await nights.nights_in_play(db)] == [night.id]


async def test_rounds_and_tables_are_stored_and_read_back(db):
    night = await a_night(db)
    await nights.add_round(db, night.id, 1, [((0, 1), (2, 3))], [4], 1234.5)
    rnd = await nights.round_of(db, night.id, 1)
    assert (rnd.tables, rnd.byes, rnd.deadline, rnd.time_up) == (
        (((0, 1), (2, 3)),),
        (4,),
        1234.5,
        False,
    )
    assert (await nights.night_by_id(db, night.id)).round == 1
    await nights.set_time_up(db, night.id, 1)
    assert (await nights.round_of(db, night.id, 1)).time_up
    await nights.add_table(db, night.id, 1, 1, 700, 70, [1, 3, 2, None], 2)
    await nights.set_last_deal(db, night.id, 70, 3)
    (row,) = await nights.tables_of(db, night.id, 1)
    assert (row.thread_id, row.table_id, row.seats, row.last_deal, row.done) == (
        700,
        70,
        (1, 3, 2, None),
        3,
        False,
    )
    assert await nights.night_of_table(db, 70) == night.id
    await nights.set_table_done(db, night.id, 70)
    assert (await nights.tables_of(db, night.id))[0].done
    await nights.close(db, night.id)
    assert await nights.open_night(db, 50) is None


async def hand(db: Database, table_id: int, deal: int, points: tuple[int, int], seats) -> None:
    """A stored hand of a table, with who sat where (None: a computer)."""
    match_id = await db.fetchval(
        "INSERT INTO matches (guild_id, table_id, started_at) VALUES (1, ?, 'x') RETURNING id",
        (table_id,),
    )
    hand_id = await db.fetchval(
        "INSERT INTO hands (match_id, guild_id, table_id, game_number, deal_number, dealer,"
        " tricks_0, tricks_1, points_0, points_1, outcome, preset, options, record, played_at,"
        " day) VALUES (?, 1, ?, 0, ?, 0, 3, 2, ?, ?, 'made', 'modern', '{}', '{}', 'x', 'x')"
        " RETURNING id",
        (match_id, table_id, deal, *points),
    )
    for seat, user_id in enumerate(seats):
        await db.execute(
            "INSERT INTO hand_players (hand_id, seat, user_id, name, is_bot) VALUES (?, ?, ?, ?, ?)",
            (hand_id, seat, user_id if user_id else -1 - seat, "x", int(user_id is None)),
        )


async def test_totals_give_each_player_the_points_their_side_made(db):
    night = await a_night(db)
    for user_id in (1, 2, 3, 4, 5):
        await nights.register(db, night, user_id, f"p{user_id}")
    await nights.add_table(db, night.id, 1, 1, 700, 70, [1, 3, 2, 4], 2)
    await nights.add_table(db, night.id, 2, 1, 701, 71, [1, 2, 5, None], 2)
    # North-south (seats 0 and 2) make 2; then east-west 1; a computer sits west at 71.
    await hand(db, 70, 1, (2, 0), (1, 3, 2, 4))
    await hand(db, 70, 2, (0, 1), (1, 3, 2, 4))
    await hand(db, 71, 1, (1, 0), (1, 2, 5, None))
    await hand(db, 99, 1, (4, 4), (1, 2, 3, 4))  # another table's hand: not the night's
    totals = {t.user_id: (t.points, t.deals) for t in await nights.totals(db, night.id)}
    assert totals == {1: (3, 3), 2: (2, 3), 3: (1, 2), 4: (1, 2), 5: (1, 1)}
    ranked = [t.user_id for t in await nights.totals(db, night.id)]
    assert ranked[0] == 1
    assert await nights.table_points(db, 70) == (2, 1, 6, 4, 2)
