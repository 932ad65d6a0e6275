"""Euchre nights in play, with the game manager on a real SQLite file and no Discord: a round
of deals or of minutes ends each table after the deal in play, the next round is seated when
every table is done, players who leave and come are placed as the night says, and a restart
picks the night up where it was."""

from __future__ import annotations

import asyncio
import itertools
import threading
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.engine.rules import build_options
from bot.leagues import night as plans
from bot.storage import league_results, league_seasons, leagues, nights
from bot.storage.database import Database
from bot.storage.nights import Night, Total
from bot.tables.manager import TableManager
from bot.tables.nights import Nights
from bot.tables.table import Table, TableError
from tests.tables.managers import GUILD, Clock, open_manager, seated_table, shut, to_act

CHANNEL = 500
WAIT = 30.0


class NightRecorder:
    """The Discord side of a night, recording what it is told; threads are numbered."""

    def __init__(self) -> None:
        self.threads = itertools.count(9000)
        self.seated: list[tuple[int, int, int]] = []  # (round, position, table id)
        self.rounds: list[tuple[int, list[str]]] = []
        self.drawn: list[list[Total]] = []
        self.closed: list[tuple[list[Total], dict[str, Any], str]] = []

    async def open_thread(self, night: Night, number: int, position: int) -> int:
        return next(self.threads)

    async def table_seated(self, night: Night, table: Table, number: int, position: int) -> None:
        self.seated.append((number, position, table.id))

    async def round_seated(self, night: Night, number: int, byes: list[str]) -> None:
        self.rounds.append((number, byes))

    async def standings(self, night: Night, totals: list[Total]) -> None:
        self.drawn.append(totals)

    async def night_closed(
        self, night: Night, totals: list[Total], emn: dict[str, Any], why: str
    ) -> None:
        self.closed.append((totals, emn, why))


async def until(condition: Callable[[], Any], what: str) -> Any:
    """Poll, with a generous bound, until `condition()` holds."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + WAIT
    while not (found := condition()):
        if loop.time() > deadline:
            raise TimeoutError(f"timed out waiting for {what}")
        await asyncio.sleep(0.01)
    return found


async def until_async(probe: Callable[[], Awaitable[Any]], what: str) -> Any:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + WAIT
    while not (found := await probe()):
        if loop.time() > deadline:
            raise TimeoutError(f"timed out waiting for {what}")
        await asyncio.sleep(0.01)
    return found


async def open_night(
    manager: TableManager, players: list[int], **settings: Any
) -> tuple[Night, leagues.League]:
    """A league of `players` (modern rules) and a night for it, everyone registered."""
    options = {
        "rounds": None,
        "deals_per_round": 1,
        "minutes_per_round": None,
        "late": "computer",
        "movement": "schedule",
    }
    options.update(settings)

    async def work(db: Database) -> tuple[Night, leagues.League]:
        league = await leagues.create_league(
            db,
            GUILD,
            "Club",
            build_options("modern").to_dict(),
            format="progressive",
            standing="points",
            substitutes=True,
            created_by=1,
        )
        for user_id in players:
            await leagues.join_league(db, league, user_id, f"p{user_id}")
        night = await nights.create_night(
            db,
            guild_id=GUILD,
            channel_id=CHANNEL,
            league_id=league.id,
            organiser_id=1,
            **options,
        )
        for user_id in players:
            await nights.register(db, night, user_id, f"p{user_id}")
        return night, league

    return await manager.writer.write(work)


async def round_tables(manager: TableManager, night_id: int, number: int, count: int):
    """The round's tables once all are seated and dealt."""

    async def seated():
        rows = await nights.tables_of(manager.db, night_id, number)
        tables = [manager.tables.get(r.thread_id) for r in rows]
        if len(rows) == count and all(t is not None and t.playing for t in tables):
            return tables
        return None

    return await until_async(seated, f"round {number} seated")


async def play_deal(manager: TableManager, table: Table) -> None:
    """The members play the deal in play to its end (computers play their own turns)."""
    done = manager.deals_finished(table)
    while table.playing and manager.deals_finished(table) == done:
        occupant = table.seats[table.match.to_act]
        if occupant.is_bot:
            moves = len(table.actions)
            await until(lambda m=moves: len(table.actions) > m or not table.playing, "a move")
            continue
        await manager.act(table.channel_id, occupant.user_id, table.match.legal_actions()[0])


@pytest.fixture
async def world(tmp_path: Path):
    """A manager on a real file, a clock the test moves, and a night runner on both."""
    clock = Clock()
    db, manager = await open_manager(tmp_path / "euchre.db", clock=clock)
    recorder = NightRecorder()
    runner = Nights(manager, recorder, clock=clock)
    try:
        yield manager, runner, recorder, clock
    finally:
        await runner.stop()
        await shut(db, manager)


# -- the manager: a table that stops after its last deal ---------------------------------


async def test_a_table_plays_no_deal_after_its_last(manager):
    table = await seated_table(manager, 10)
    manager.stop_after(table, 1)
    assert not manager.round_over(table)
    await play_deal(manager, table)
    assert manager.round_over(table) and manager.deals_finished(table) == 1
    with pytest.raises(TableError, match="round is over"):
        await manager.act(10, to_act(table), table.match.legal_actions()[0])
    assert manager.deals_finished(table) == 1 and not table.match.deal.history
    await manager.end_round(table, "the round is over")
    assert table.status == "closed" and 10 not in manager.tables
    status = await manager.db.fetchval("SELECT status FROM matches WHERE table_id = ?", (table.id,))
    assert status == "abandoned"


async def test_the_deal_in_play_is_the_last_finished_until_the_next_begins(manager):
    table = await seated_table(manager, 11)
    assert manager.deal_in_play(table) == 0  # nothing done yet: no deal is in play
    await manager.act(11, to_act(table), table.match.legal_actions()[0])
    assert manager.deal_in_play(table) == 1
    await play_deal(manager, table)
    assert manager.deal_in_play(table) == 1 and manager.deals_finished(table) == 1


# -- rounds ---------------------------------------------------------------------------------


async def test_a_night_seats_its_rounds_by_the_schedule_and_closes_after_the_last(world):
    manager, runner, recorder, _ = world
    players = list(range(101, 109))  # 8 players: 7 rounds of 2 tables
    night, _ = await open_night(manager, players, rounds=2)
    await runner.start(night)
    seen = []
    for number in (1, 2):
        tables = await round_tables(manager, night.id, number, 2)
        seen.append({t.id for t in tables})
        for table in tables:
            assert table.league_id is not None
            await play_deal(manager, table)
    await until(lambda: recorder.closed, "the night's close")
    totals, emn, why = recorder.closed[0]
    assert why == "its last round is over"
    assert len(totals) == 8 and all(t.deals == 2 for t in totals)
    assert len(emn["games"]) == 4
    assert seen[0].isdisjoint(seen[1])
    stored = await nights.tables_of(manager.db, night.id)
    plan = plans.new_plan(players)
    for row in stored:
        rnd = plans.scheduled_round(plan, row.round)
        expected = [players[p] for p in plans.table_seats(rnd.tables[row.position - 1])]
        # The table turns its seats so that a member hosts it: partners stay partners.
        north, east, south, west = row.seats
        assert {frozenset((north, south)), frozenset((east, west))} == {
            frozenset(expected[::2]),
            frozenset(expected[1::2]),
        }


async def test_the_standings_are_redrawn_after_every_deal(world):
    manager, runner, recorder, _ = world
    night, _ = await open_night(manager, list(range(201, 205)), rounds=1, deals_per_round=2)
    await runner.start(night)
    (table,) = await round_tables(manager, night.id, 1, 1)
    await play_deal(manager, table)
    await until(
        lambda: recorder.drawn and any(t.deals == 1 for t in recorder.drawn[-1]), "the standings"
    )
    await play_deal(manager, table)
    await until(lambda: recorder.closed, "the night's close")
    assert [t.deals for t in recorder.closed[0][0]] == [2, 2, 2, 2]


async def test_when_time_runs_out_the_deal_in_play_is_finished_then_no_more(world):
    manager, runner, recorder, clock = world
    night, _ = await open_night(
        manager, list(range(301, 305)), rounds=2, deals_per_round=None, minutes_per_round=10
    )
    await runner.start(night)
    (table,) = await round_tables(manager, night.id, 1, 1)
    await play_deal(manager, table)  # deal 1 over: deal 2 is dealt
    await manager.act(table.channel_id, to_act(table), table.match.legal_actions()[0])
    clock.now += 10 * 60
    runner.wake(night.id)
    rnd = await until_async(
        lambda: _time_up(manager.db, night.id, 1), "the round's time to run out"
    )
    assert rnd.time_up
    assert table.status == "playing"  # deal 2 is in play: it is finished
    await play_deal(manager, table)
    (second,) = await round_tables(manager, night.id, 2, 1)
    assert table.status == "closed" and manager.deals_finished(table) == 2
    assert second.id != table.id
    # Round 2's time runs out before its first deal begins: it ends at once.
    clock.now += 10 * 60
    runner.wake(night.id)
    await until(lambda: recorder.closed, "the night's close")
    assert second.status == "closed"


async def _time_up(db: Database, night_id: int, number: int):
    rnd = await nights.round_of(db, night_id, number)
    return rnd if rnd is not None and rnd.time_up else None


async def test_a_leaver_is_played_by_a_computer_and_a_latecomer_takes_the_place(world):
    manager, runner, recorder, _ = world
    players = list(range(401, 405))
    night, league = await open_night(manager, players, rounds=3)
    await runner.start(night)
    (table,) = await round_tables(manager, night.id, 1, 1)
    night = await nights.night_by_id(manager.db, night.id)
    await runner.leave(night, 402)
    assert table.seat_of(402) is None  # a computer plays on at the table
    await play_deal(manager, table)
    (second,) = await round_tables(manager, night.id, 2, 1)
    assert sum(1 for o in second.seats if o.is_bot) == 1
    assert second.seat_of(402) is None

    async def latecomer(db: Database) -> None:
        await leagues.join_league(db, league, 405, "p405")
        fresh = await nights.night_by_id(db, night.id)
        await nights.register(db, fresh, 405, "p405")

    await manager.writer.write(latecomer)
    await play_deal(manager, second)
    (third,) = await round_tables(manager, night.id, 3, 1)
    assert third.seat_of(405) is not None and not any(o.is_bot for o in third.seats)
    await play_deal(manager, third)
    totals = {t.user_id: t for t in (await until(lambda: recorder.closed, "close"))[0][0]}
    assert not totals[402].present and totals[402].deals == 0
    assert totals[405].deals == 1


@pytest.mark.parametrize("rule", ["forfeit", "no_contest"])
async def test_a_nights_tables_never_count_in_the_leagues_standings_nor_its_audit(world, rule):
    """A night scores each player alone: its tables end with their rounds, and whoever left
    one, the league's standings of matches, its audit and its corrections are not touched."""
    manager, runner, recorder, _ = world
    night, league = await open_night(manager, list(range(101, 109)), rounds=2, deals_per_round=1)

    async def leaver_rule(db: Database) -> None:
        await league_seasons.change_settings(db, league, leaver=rule)

    await manager.writer.write(leaver_rule)
    await runner.start(night)
    tables = await round_tables(manager, night.id, 1, 2)
    await runner.leave(await nights.night_by_id(manager.db, night.id), tables[0].seats[1].user_id)
    for number in (1, 2):
        for table in tables if number == 1 else await round_tables(manager, night.id, 2, 2):
            await play_deal(manager, table)
    await until(lambda: recorder.closed, "the night's close")
    for stored in ("league_results", "league_totals", "league_audit"):
        assert await manager.db.fetchall(f"SELECT * FROM {stored}") == [], stored
    matches = [t.match_id for t in tables]
    for match_id in matches:
        assert await league_results.verdict(manager.db, match_id) == league_results.Verdict(
            False, None, None, (league_results.NIGHT_REASON,)
        )


async def test_with_byes_the_next_round_is_drawn_for_those_present(world):
    manager, runner, recorder, _ = world
    players = list(range(501, 510))  # 9: one sits out each round
    night, _ = await open_night(manager, players, rounds=2, late="bye")
    await runner.start(night)
    tables = await round_tables(manager, night.id, 1, 2)
    night = await nights.night_by_id(manager.db, night.id)
    await runner.leave(night, 501)
    for table in tables:
        await play_deal(manager, table)
    second = await round_tables(manager, night.id, 2, 2)
    seated = {o.user_id for t in second for o in t.seats}
    assert 501 not in seated and not any(o.is_bot for t in second for o in t.seats)
    assert len(seated) == 8  # the eight present, none sitting out
    # The round is told once its tables are seated and dealt: wait for it, do not race it.
    await until(lambda: recorder.rounds[-1][0] == 2, "round 2 told")
    assert recorder.rounds[-1] == (2, [])


async def test_a_nights_plans_are_drawn_off_the_event_loop(world, monkeypatch):
    """Drawing a schedule takes seconds for some numbers of players: the first plan, and the
    one drawn again for those present, are drawn in a thread while other tables play on."""
    manager, runner, _, _ = world
    drawn_in: list[int] = []
    draw = plans.new_plan

    def recorded(*args: Any, **kwargs: Any) -> dict[str, Any]:
        drawn_in.append(threading.get_ident())
        return draw(*args, **kwargs)

    monkeypatch.setattr(plans, "new_plan", recorded)
    players = list(range(601, 610))
    night, _ = await open_night(manager, players, rounds=2, late="bye")
    await runner.start(night)
    tables = await round_tables(manager, night.id, 1, 2)
    await runner.leave(await nights.night_by_id(manager.db, night.id), 601)
    for table in tables:
        await play_deal(manager, table)
    await round_tables(manager, night.id, 2, 2)
    assert len(drawn_in) == 2  # the plan at the start, and again without the leaver
    assert threading.get_ident() not in drawn_in  # this test runs on the event loop's thread


async def test_winners_move_up_seats_the_next_round_from_the_results(world):
    manager, runner, recorder, _ = world
    players = list(range(601, 609))
    night, _ = await open_night(manager, players, rounds=2, movement="winners_move_up")
    await runner.start(night)
    first = await round_tables(manager, night.id, 1, 2)
    for table in first:
        await play_deal(manager, table)
    second = await round_tables(manager, night.id, 2, 2)
    rows = await nights.tables_of(manager.db, night.id, 1)
    winners = []
    for row in rows:
        p0, p1, t0, t1, _ = await nights.table_points(manager.db, row.table_id)
        side = plans.side_that_won((p0, p1), (t0, t1))
        north, east, south, west = row.seats
        winners.append({north, south} if side == 0 else {east, west})
    head = {o.user_id for o in second[0].seats}
    # The head table's winners stay; the second table's winners move up to it.
    assert winners[0] <= head and winners[1] <= head
    await play_deal(manager, second[0])
    await play_deal(manager, second[1])
    await until(lambda: recorder.closed, "the night's close")


async def test_a_restart_in_the_middle_of_a_round_loses_nothing(tmp_path):
    path = tmp_path / "euchre.db"
    clock = Clock()
    db, manager = await open_manager(path, clock=clock)
    recorder = NightRecorder()
    runner = Nights(manager, recorder, clock=clock)
    night, _ = await open_night(manager, list(range(701, 705)), rounds=2, deals_per_round=1)
    await runner.start(night)
    (table,) = await round_tables(manager, night.id, 1, 1)
    await manager.act(table.channel_id, to_act(table), table.match.legal_actions()[0])
    table_id, moves = table.id, len(table.actions)
    await runner.stop()
    await shut(db, manager)

    db, manager = await open_manager(path, clock=clock)
    runner = Nights(manager, recorder, clock=clock)
    try:
        loaded = await manager.load()
        playing = await runner.load()
        table = next(t for t in loaded if t.id == table_id)
        assert manager.last_deals[table.id] == 1 and len(table.actions) == moves
        await manager.resume(loaded)
        runner.resume(playing)
        await play_deal(manager, table)
        (second,) = await round_tables(manager, night.id, 2, 1)
        await play_deal(manager, second)
        totals = (await until(lambda: recorder.closed, "the night's close"))[0][0]
        assert all(t.deals == 2 for t in totals)
    finally:
        await runner.stop()
        await shut(db, manager)


class StopsAfterMakingATable(Nights):
    """A night runner whose process stops right after a round's table is made and dealt,
    before the night's row for it is stored (`stop_at` the number of tables made)."""

    def __init__(self, *args: Any, stop_at: int, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.made: list[Table] = []
        self.stop_at = stop_at

    async def _open_table(self, *args: Any, **kwargs: Any) -> Table:
        table = await super()._open_table(*args, **kwargs)
        self.made.append(table)
        if len(self.made) == self.stop_at:
            raise asyncio.CancelledError  # the process stops here
        return table


async def test_a_stop_between_a_tables_making_and_its_row_seats_nobody_twice(tmp_path):
    path = tmp_path / "euchre.db"
    clock = Clock()
    db, manager = await open_manager(path, clock=clock)
    recorder = NightRecorder()
    runner = StopsAfterMakingATable(manager, recorder, clock=clock, stop_at=1)
    night, _ = await open_night(manager, list(range(801, 809)), rounds=1, deals_per_round=1)
    await runner.start(night)  # the round is seated in the night's own task, which stops
    (orphan,) = await until(lambda: runner.made, "the first table to be made")
    assert orphan.playing and await nights.tables_of(manager.db, night.id, 1) == []
    await runner.stop()
    await shut(db, manager)

    db, manager = await open_manager(path, clock=clock)
    runner = Nights(manager, recorder, clock=clock)
    try:
        loaded = await manager.load()
        playing = await runner.load()
        await manager.resume(loaded)
        runner.resume(playing)
        tables = await round_tables(manager, night.id, 1, 2)
        # The table made before the stop is the round's first table, in the same thread.
        assert tables[0].id == orphan.id and tables[0].channel_id == orphan.channel_id
        assert manager.last_deals[orphan.id] == 1
        seated = [o.user_id for t in tables for o in t.seats if o and not o.is_bot]
        assert sorted(seated) == list(range(801, 809))  # everyone once
        open_tables = [t for t in manager.tables.values() if t.status != "closed"]
        assert len(open_tables) == 2
    finally:
        await runner.stop()
        await shut(db, manager)


async def test_by_winners_move_up_a_latecomers_extra_table_moves_with_the_night(world):
    manager, runner, recorder, _ = world
    players = list(range(601, 605))
    night, league = await open_night(manager, players, rounds=3, movement="winners_move_up")
    await runner.start(night)
    (table,) = await round_tables(manager, night.id, 1, 1)

    async def latecomer(db: Database) -> None:
        await leagues.join_league(db, league, 605, "p605")
        fresh = await nights.night_by_id(db, night.id)
        await nights.register(db, fresh, 605, "p605")

    await manager.writer.write(latecomer)
    await play_deal(manager, table)
    second = await round_tables(manager, night.id, 2, 2)  # the extra table at the foot
    humans = {o.user_id for t in second for o in t.seats if not o.is_bot}
    assert humans == set(range(601, 606))
    assert sum(o.is_bot for t in second for o in t.seats) == 3
    for table in second:
        await play_deal(manager, table)
    third = await round_tables(manager, night.id, 3, 2)
    assert {o.user_id for t in third for o in t.seats if not o.is_bot} == set(range(601, 606))
    for table in third:
        await play_deal(manager, table)
    totals = {t.user_id: t for t in (await until(lambda: recorder.closed, "close"))[0][0]}
    assert totals[605].deals == 2 and totals[601].deals == 3
