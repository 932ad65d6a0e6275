"""The game manager on a real SQLite file: requests, the event log, clicks at once, refusals.

Every accepted request is in `table_events` when it returns; every refused one changes nothing,
in memory or in the database.
"""

from __future__ import annotations

import asyncio
import random

import pytest

from bot.engine.deal import DISCARD, PLAY, ROUND_ONE
from bot.engine.errors import IllegalAction
from bot.storage import tables as store
from bot.tables.computer import ComputerSeats
from bot.tables.manager import TableManager
from bot.tables.table import MAX_MEMBERS, Table, TableError
from tests.bot.helpers import eventually
from tests.tables.managers import (
    GUILD,
    HeldPool,
    act,
    act_randomly,
    allow_writes,
    events,
    in_memory,
    kept_of,
    member,
    not_to_act,
    open_manager,
    play_to_end_of_hand,
    refuse_writes,
    seated_table,
    shut,
    stored,
    to_act,
)


async def refused(manager: TableManager, table: Table, request, match: str) -> None:
    """`request()` is refused with a message matching `match`, and nothing changes anywhere."""
    memory = in_memory(manager, table)
    rows = await stored(manager.db)
    with pytest.raises((TableError, IllegalAction), match=match):
        await request()
    assert in_memory(manager, table) == memory
    assert await stored(manager.db) == rows


# -- requests and the event log --------------------------------------------------------------


async def test_create_join_start_and_play_are_each_stored_before_they_return(manager):
    channel = 11
    change = await manager.create(GUILD, channel, member(channel, 1), "host")
    table = change.table
    assert table.id > 0 and manager.table_in(channel) is table
    assert await events(manager.db, table.id) == [(1, "table", 0, member(channel, 1), "create")]
    for k in (2, 3, 4):
        await manager.join(channel, member(channel, k), f"member {k}")
        assert len(await events(manager.db, table.id)) == k  # stored before join returned
    await manager.start(channel, member(channel, 1))
    rng = random.Random(11)
    for n in range(1, 9):
        await act_randomly(manager, table, rng)
        assert [
            (s, a) for _, _, s, _, a in await events(manager.db, table.id, "game")
        ] == table.actions
        assert len(table.actions) == n

    log = await events(manager.db, table.id)
    assert [a for _, _, _, _, a in log[:5]] == [
        "create",
        "join:seated",
        "join:seated",
        "join:seated",
        "start",
    ]
    assert [seq for seq, *_ in log] == list(range(1, len(log) + 1))
    # The deck of the deal in play is stored, so a restart deals the same cards.
    decks, actions, last, _ = await store.load_match(manager.db, table.id, table.match_no)
    assert decks == table.decks and actions == table.actions and last == len(log)


async def test_a_whole_game_every_action_and_result_stored(manager):
    table = await seated_table(manager, 12, points=3)
    rng = random.Random(12)
    accepted, hands = 0, 0
    while table.playing:
        change = await act_randomly(manager, table, rng)
        accepted += 1
        hands += change.hand is not None
    assert change.match_over and change.games
    game_events = await events(manager.db, table.id, "game")
    assert len(game_events) == accepted == len(table.actions)
    assert (
        await manager.db.fetchval("SELECT COUNT(*) FROM hands WHERE table_id = ?", (table.id,))
        == hands
    )
    status, winner = await manager.db.fetchone(
        "SELECT status, winner FROM matches WHERE id = ?", (table.match_id,)
    )
    assert (status, winner) == ("finished", table.match.winner)
    stored_state = (await store.open_tables(manager.db))[0].state
    assert stored_state["status"] == "seating" == table.status


async def test_a_second_game_at_the_table_is_stored_from_its_first_deal(manager, tmp_path):
    table = await seated_table(manager, 13, points=1)
    rng = random.Random(13)
    await play_to_end_of_hand(manager, table, rng)
    assert not table.playing
    await manager.start(13, member(13, 1))
    for _ in range(3):
        await act_randomly(manager, table, rng)
    decks, actions, _, _ = await store.load_match(manager.db, table.id, table.match_no)
    assert table.match_no == 2 and decks == table.decks and actions == table.actions


# -- clicks at once ----------------------------------------------------------------------------


async def test_the_same_click_twice_at_once_applies_once(manager):
    table = await seated_table(manager, 21)
    user = to_act(table)
    before = len(await events(manager.db, table.id))
    results = await asyncio.gather(
        manager.act(21, user, "pass"), manager.act(21, user, "pass"), return_exceptions=True
    )
    accepted = [r for r in results if not isinstance(r, BaseException)]
    errors = [r for r in results if isinstance(r, BaseException)]
    assert len(accepted) == 1 and accepted[0].action == "pass"
    assert (
        len(errors) == 1 and isinstance(errors[0], TableError) and "not your turn" in str(errors[0])
    )
    assert len(table.actions) == 1
    assert len(await events(manager.db, table.id)) == before + 1


async def test_two_members_click_at_once_only_the_one_to_act_is_accepted(manager):
    table = await seated_table(manager, 22)
    seat, first, other = table.match.to_act, to_act(table), not_to_act(table)
    results = await asyncio.gather(
        manager.act(22, other, "pass"), manager.act(22, first, "order"), return_exceptions=True
    )
    assert isinstance(results[0], TableError)
    assert results[1].action == "order" and table.actions == [(seat, "order")]
    assert len(await events(manager.db, table.id, "game")) == 1


async def test_a_join_while_the_table_is_being_opened_is_refused(manager):
    created, joined = await asyncio.gather(
        manager.create(GUILD, 24, member(24, 1), "host"),
        manager.join(24, member(24, 2), "member 2"),
        return_exceptions=True,
    )
    assert isinstance(joined, TableError) and "being opened" in str(joined)
    table = created.table
    assert [o.user_id for o in table.seats if o] == [member(24, 1)]
    assert [a for *_, a in await events(manager.db, table.id)] == ["create"]
    await manager.join(24, member(24, 2), "member 2")  # once it is open, it is open to all
    assert table.seat_of(member(24, 2)) == 1


async def test_clicks_on_many_tables_at_once_are_all_stored(manager):
    tables = [await seated_table(manager, 100 + n) for n in range(12)]
    rng = random.Random(23)
    for _ in range(10):
        await asyncio.gather(*(act_randomly(manager, t, rng) for t in tables))
    for table in tables:
        stored_actions = [(s, a) for _, _, s, _, a in await events(manager.db, table.id, "game")]
        assert stored_actions == table.actions and len(table.actions) == 10
    # They were committed together, not one transaction each.
    assert manager.writer.batches < manager.writer.writes


async def test_a_click_waits_for_another_connections_write_without_stopping_the_bot(manager):
    # The bot's own aiosqlite connection holds SQLite's write lock (a league command writing,
    # say): the manager's writer must wait for it without blocking the event loop, which that
    # transaction needs in order to finish.
    table = await seated_table(manager, 25)
    async with manager.db.transaction():
        await manager.db.execute(
            "UPDATE tables SET updated_at = updated_at WHERE id = ?", (table.id,)
        )
        click = asyncio.create_task(act(manager, table, "pass"))
        for _ in range(5):
            await asyncio.sleep(0.01)  # the loop runs on while the click waits for the lock
        assert not click.done()
    assert (await asyncio.wait_for(click, 60)).action == "pass"
    assert [(s, a) for _, _, s, _, a in await events(manager.db, table.id, "game")] == table.actions


# -- a click during a time-out move --------------------------------------------------------------


async def to_dealer_in_round_one(manager: TableManager, table: Table) -> None:
    while table.match.to_act != table.match.deal.dealer:
        await act(manager, table, "pass")
    assert table.match.deal.phase == ROUND_ONE


async def test_a_click_during_a_time_out_move_wins_and_the_stale_move_is_dropped(tmp_path):
    # The dealer times out in round one; while the computer is still choosing, the dealer
    # takes it up: the dealer is to act again (to discard), but the computer's choice was made
    # for round one and must not be applied to the discard.
    held = HeldPool()
    db, manager = await open_manager(tmp_path / "euchre.db", computers=ComputerSeats(held.pool))
    try:
        table = await seated_table(manager, 31)
        await to_dealer_in_round_one(manager, table)
        dealer = table.match.deal.dealer
        timing_out = asyncio.create_task(manager.time_out_now(table))
        await eventually(lambda: held.waiting >= 1, what="the time-out move's choice")
        assert not timing_out.done()
        change = await act(manager, table, "order")
        assert change.seat == dealer and table.match.deal.phase == DISCARD
        memory = in_memory(manager, table)
        rows = await stored(manager.db)

        held.release()
        assert await asyncio.wait_for(timing_out, 60) is None
        assert in_memory(manager, table) == memory and await stored(manager.db) == rows
        assert table.timeouts[dealer] == 0  # the member acted: no time-out is counted
    finally:
        held.close()
        await shut(db, manager)


@pytest.mark.parametrize("gone", ["leave", "kick"])
async def test_a_time_out_move_of_a_member_who_left_meanwhile_is_dropped(tmp_path, gone):
    # The member to act, who timed out once already, leaves (or is removed) while the
    # computer still chooses his timed-out move: the computer now in the seat plays its own
    # move, and no time-out is counted, stored or announced against it ("Computer (expert)
    # timed out twice: a computer holds the seat").
    held = HeldPool()
    db, manager = await open_manager(tmp_path / "euchre.db", computers=ComputerSeats(held.pool))
    try:
        table = await seated_table(manager, 34)
        if to_act(table) == table.host_id:
            await act(manager, table, "pass")  # the host may not be removed: the next one
        seat, user = table.match.to_act, to_act(table)
        table.timeouts[seat] = 1
        moves = len(table.actions)
        timing_out = asyncio.create_task(manager.time_out_now(table))
        await eventually(lambda: held.waiting >= 1, what="the time-out move's choice")
        if gone == "leave":
            await manager.leave(34, user)
        else:
            await manager.kick(34, table.host_id, user)
        assert table.seats[seat].is_bot and table.seats[seat].held_for is None
        held.release()
        assert await asyncio.wait_for(timing_out, 60) is None
        await eventually(lambda: len(table.actions) == moves + 1, what="the computer's own move")
        assert table.timeouts[seat] == 1  # nothing more counted
        assert [a for *_, a in await events(manager.db, table.id, "table")][-1] == (
            "leave" if gone == "leave" else f"kick:{user}"
        )
    finally:
        held.close()
        await shut(db, manager)


async def test_a_click_just_after_a_time_out_move_is_refused(manager):
    table = await seated_table(manager, 32)
    seat, user = table.match.to_act, to_act(table)
    change = await manager.time_out_now(table)
    assert change.kind == "timeout" and change.seat == seat and change.by_computer
    assert table.timeouts[seat] == 1
    await refused(manager, table, lambda: manager.act(32, user, "pass"), "not your turn")
    # The time-out move is in the log as the seat's move, made by no member.
    assert (await events(manager.db, table.id, "game"))[-1][2:4] == (seat, None)


async def test_a_move_made_on_a_position_the_game_has_left_is_refused(manager):
    # A click checked against one position that waits for the table while another move (the
    # computer's, when the turn times out) is applied must not be made in the new position,
    # even where it is legal there and the member's turn.
    table = await seated_table(manager, 33)
    first = to_act(table)
    seen = table.position
    await act(manager, table, "pass")
    second = to_act(table)
    assert second != first and table.position != seen
    await refused(
        manager, table, lambda: manager.act(33, second, "pass", seen=seen), "the game moved on"
    )
    change = await manager.act(33, second, "pass", seen=table.position)
    assert change.seat is not None and table.seats[change.seat].user_id == second


# -- refusals change nothing ---------------------------------------------------------------------


async def test_acting_out_of_turn_is_refused(manager):
    table = await seated_table(manager, 41)
    await refused(
        manager, table, lambda: manager.act(41, not_to_act(table), "pass"), "not your turn"
    )


async def to_play(manager: TableManager, table: Table, rng: random.Random) -> None:
    """Bid (order it up), discard, and stop at the first card of play."""
    await act(manager, table, "order")
    while table.match.deal.phase != PLAY:
        await act_randomly(manager, table, rng)


async def test_a_card_not_held_is_refused(manager):
    table = await seated_table(manager, 42)
    await to_play(manager, table, random.Random(42))
    hand = set(table.match.view_for(table.match.to_act).deal.hand)
    elsewhere = next(
        c for s in range(4) if s != table.match.to_act for c in table.match.view_for(s).deal.hand
    )
    assert elsewhere not in hand
    await refused(
        manager, table, lambda: act(manager, table, elsewhere), "you do not hold that card"
    )


async def test_a_card_held_but_not_legal_is_refused(manager):
    table = await seated_table(manager, 43)
    rng = random.Random(43)
    await to_play(manager, table, rng)
    # Play on until someone to act holds a card they may not play (they must follow suit).
    for _ in range(400):
        view = table.match.view_for(table.match.to_act).deal
        illegal = [c for c in view.hand if c not in view.legal] if view.phase == PLAY else []
        if illegal:
            break
        await act_randomly(manager, table, rng)
    else:
        pytest.fail("no position with a card held but not legal")
    await refused(manager, table, lambda: act(manager, table, illegal[0]), "you must follow")


@pytest.mark.parametrize(
    "phase, declaration, reason",
    [
        (ROUND_ONE, "call:H", "hearts cannot be named now: in the first round"),
        (ROUND_ONE, "alone", "cannot take it alone from your partner now: in the first round"),
        (PLAY, "order", "the turn-up cannot be ordered now: the bidding is over"),
    ],
)
async def test_a_declaration_not_open_is_refused(manager, phase, declaration, reason):
    table = await seated_table(manager, 44)
    if phase == PLAY:
        await to_play(manager, table, random.Random(44))
    assert table.match.deal.phase == phase
    await refused(manager, table, lambda: act(manager, table, declaration), reason)


async def test_a_member_not_seated_is_refused(manager):
    table = await seated_table(manager, 45)
    await manager.join(45, member(45, 5), "waiting member")  # waits in line: a game is on
    assert table.is_waiting(member(45, 5))
    # The one waiting is told he is in line; a stranger, that he is not seated.
    for user, said in ((member(45, 5), "wait in line"), (999, "not seated")):
        await refused(manager, table, lambda user=user: manager.act(45, user, "pass"), said)
        await refused(manager, table, lambda user=user: manager.view(45, user), said)


async def test_a_second_table_in_the_channel_is_refused(manager):
    table = await seated_table(manager, 46, start=False)
    await refused(
        manager,
        table,
        lambda: manager.create(GUILD, 46, member(46, 5), "another host"),
        "already has a table",
    )
    assert manager.table_in(46) is table


async def test_joining_a_full_table_is_refused(manager):
    table = await seated_table(manager, 47)
    for k in range(5, 5 + MAX_MEMBERS - 4):
        assert (await manager.join(47, member(47, k), f"member {k}")).note == "waiting"
    assert len(table.members) == MAX_MEMBERS
    await refused(
        manager, table, lambda: manager.join(47, member(47, 9), "one too many"), "six belong"
    )


async def test_host_commands_by_someone_else_are_refused(manager):
    table = await seated_table(manager, 48, start=False)
    other = member(48, 2)
    await refused(manager, table, lambda: manager.start(48, other), "only the table's host")
    await refused(
        manager, table, lambda: manager.kick(48, other, member(48, 3)), "only the table's host"
    )
    await manager.leave(48, member(48, 4))
    await refused(
        manager, table, lambda: manager.add_bot(48, other, None, "easy"), "only the table's host"
    )
    await refused(manager, table, lambda: manager.close_table(48, other), "only the table's host")
    assert manager.table_in(48) is table


async def test_a_request_on_a_closed_table_is_refused(manager):
    table = await seated_table(manager, 49)
    user = to_act(table)
    await manager.close_table(49, member(49, 1))
    rows = await stored(manager.db)
    with pytest.raises(TableError, match="no table in this channel"):
        await manager.act(49, user, "pass")
    assert await stored(manager.db) == rows
    assert (await events(manager.db, table.id))[-1][1:] == ("table", None, member(49, 1), "close")
    assert kept_of(manager, table) == []  # a process that runs for months keeps none of it


async def test_a_request_that_cannot_be_stored_did_not_happen(manager):
    table = await seated_table(manager, 50)
    # A real failure of the event insert, in the database (a trigger), not a stand-in.
    await refuse_writes(manager.db, "refuse_pass", "INSERT", "table_events", "NEW.action = 'pass'")
    await refused(manager, table, lambda: act(manager, table, "pass"), "could not be saved")
    assert manager.table_in(50) is table  # put back in place, not replaced
    await allow_writes(manager.db, "refuse_pass", "table_events")
    await act(manager, table, "pass")
    assert (
        [(s, a) for _, _, s, _, a in await events(manager.db, table.id, "game")]
        == table.actions
        == [(table.actions[0][0], "pass")]
    )


async def test_a_failed_write_in_a_batch_does_not_lose_the_others(manager):
    tables = [await seated_table(manager, 60 + n) for n in range(4)]
    await refuse_writes(
        manager.db, "refuse_one", "INSERT", "table_events", f"NEW.table_id = {tables[0].id}"
    )
    results = await asyncio.gather(
        *(act(manager, t, "pass") for t in tables), return_exceptions=True
    )
    assert isinstance(results[0], TableError) and tables[0].actions == []
    for table in tables[1:]:
        assert await events(manager.db, table.id, "game") != [] and len(table.actions) == 1


async def test_a_seating_that_would_put_a_member_at_the_table_twice_is_never_stored(manager):
    table = await seated_table(manager, 61)
    rows = await stored(manager.db)
    # A seating path gone wrong (simulated): the same member at two seats.
    table.seats[1] = table.seats[3]
    with pytest.raises(TableError, match="twice"):
        await manager.join(61, member(61, 7), "spare")
    assert await stored(manager.db) == rows
    assert table.seating_problem() is None  # put back as stored


async def test_a_member_whose_seat_is_held_cannot_be_named_substitute(manager):
    table = await seated_table(manager, 62)
    seat = table.match.to_act
    held = table.seats[seat].user_id
    table.take_over(seat)
    await manager.back(62, held)  # stored as held, then taken back: fine
    table.take_over(seat)
    other = next(o.user_id for o in table.seats if not o.is_bot)
    await refused(
        manager, table, lambda: manager.substitute(62, other, held, "held"), "cannot play a second"
    )


async def test_observers_hear_of_each_stored_deal_end_and_may_call_back_into_the_manager(manager):
    table = await seated_table(manager, 61)
    heard: list[tuple[int, bool]] = []
    views: list[int] = []

    async def observer(change) -> None:
        heard.append((change.deal, change.hand is not None))
        # Outside the table's lock: reading the table through the manager does not deadlock.
        _, seat, _ = await manager.view(61, member(61, 1))
        views.append(seat)

    async def failing(change) -> None:
        raise RuntimeError("an observer that fails does not stop the others or the table")

    manager.observers.extend([failing, observer])
    change = await play_to_end_of_hand(manager, table, random.Random(61))
    await eventually(lambda: heard)
    assert heard == [(change.deal, True)]
    assert len(views) == 1 and 0 <= views[0] < 4
    # Actions that end nothing are not told.
    await act_randomly(manager, table, random.Random(62))
    await asyncio.sleep(0)
    assert len(heard) == 1
