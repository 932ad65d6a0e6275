"""A restart loses nothing: close the manager anywhere in a hand, open a new one on the same
file, restore, and every seat sees what it saw; the hand then plays on to its end."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from bot.engine.deal import DISCARD, PLAY, ROUND_ONE, ROUND_TWO
from bot.tables.manager import Handover, TableManager
from bot.tables.table import Table
from tests.tables.managers import (
    Listener,
    act,
    act_randomly,
    events,
    member,
    open_manager,
    play_to_end_of_hand,
    seated_table,
    shut,
    to_act,
)


async def reach(manager: TableManager, table: Table, phase: str, rng: random.Random) -> None:
    """Play into the first deal until `phase`, a little way in."""
    if phase == ROUND_ONE:
        await act(manager, table, "pass")
    elif phase == ROUND_TWO:
        for _ in range(5):  # all four pass round one, then the eldest passes round two
            await act(manager, table, "pass")
    else:
        await act(manager, table, "order")
        if phase == PLAY:
            await act_randomly(manager, table, rng)  # the dealer's discard
            for _ in range(6):  # a trick and a half
                await act_randomly(manager, table, rng)
    assert table.match.deal.phase == phase and len(table.match.deals) == 1


def seen(table: Table) -> tuple[object, ...]:
    """What every seat and the public see, and the table's stored part."""
    match = table.match
    return (
        *(match.view_for(seat) for seat in range(4)),
        match.public_view(),
        table.to_state(),
        list(table.actions),
        [list(d) for d in table.decks],
    )


@pytest.mark.parametrize("phase", [ROUND_ONE, ROUND_TWO, DISCARD, PLAY])
async def test_a_restart_mid_hand_restores_every_seat_and_the_hand_plays_on(
    tmp_path: Path, phase: str
):
    path = tmp_path / "euchre.db"
    rng = random.Random(phase)
    db, manager = await open_manager(path)
    table = await seated_table(manager, 71)
    waiting = await seated_table(manager, 72, start=False)  # a table still seating comes back too
    await reach(manager, table, phase, rng)
    before = seen(table)
    await shut(db, manager)

    listener = Listener()
    db, manager = await open_manager(path, listener=listener)
    try:
        restored = await manager.restore()
        assert (
            sorted(t.id for t in restored)
            == sorted(listener.restored)
            == sorted([table.id, waiting.id])
        )
        again = manager.table_in(71)
        assert again is not table and seen(again) == before
        assert manager.table_in(72).to_state() == waiting.to_state()

        change = await play_to_end_of_hand(manager, again, rng)
        assert change.hand is not None and len(again.match.deals) == 2
        log = await events(manager.db, again.id)
        assert [seq for seq, *_ in log] == list(range(1, len(log) + 1))
        assert [(s, a) for _, kind, s, _, a in log if kind == "game"] == again.actions
        assert (
            await manager.db.fetchval("SELECT COUNT(*) FROM hands WHERE table_id = ?", (again.id,))
            == 1
        )
    finally:
        await shut(db, manager)


async def test_a_restart_after_a_second_game_began_restores_the_second_game(tmp_path: Path):
    path = tmp_path / "euchre.db"
    rng = random.Random(73)
    db, manager = await open_manager(path)
    table = await seated_table(manager, 73, points=1)
    await play_to_end_of_hand(manager, table, rng)  # a game to 1 is over in one hand
    assert not table.playing
    await manager.start(73, table.host_id)
    for _ in range(3):
        await act_randomly(manager, table, rng)
    before = seen(table)
    await shut(db, manager)

    db, manager = await open_manager(path)
    try:
        await manager.restore()
        again = manager.table_in(73)
        assert again.match_no == 2 and seen(again) == before
        await play_to_end_of_hand(manager, again, rng)
        assert not again.playing
        assert (
            await manager.db.fetchval(
                "SELECT COUNT(*) FROM matches WHERE table_id = ? AND status = 'finished'",
                (again.id,),
            )
            == 2
        )
    finally:
        await shut(db, manager)


async def test_closing_the_manager_with_a_click_in_flight_keeps_the_click(tmp_path: Path):
    path = tmp_path / "euchre.db"
    db, manager = await open_manager(path)
    table = await seated_table(manager, 74)
    seat = table.match.to_act
    click = asyncio.create_task(manager.act(74, to_act(table), "pass"))
    await asyncio.sleep(0)  # the click is applied and its write queued, not yet committed
    assert not click.done()
    await manager.close()
    assert (await click).action == "pass"  # answered only once it was stored
    await db.close()

    db, manager = await open_manager(path)
    try:
        await manager.restore()
        assert manager.table_in(74).actions == [(seat, "pass")]
    finally:
        await shut(db, manager)


async def test_a_restored_table_whose_computer_is_to_act_plays_on(tmp_path: Path):
    path = tmp_path / "euchre.db"
    listener = Listener()
    db, manager = await open_manager(path, listener=listener)
    host = 751
    table = (await manager.create(1, 75, host, "host")).table
    for _ in range(3):
        await manager.add_bot(75, host, None, "easy")
    await manager.start(75, host)
    # The host acts until a computer is to act next (the host may win a trick and lead again).
    while True:
        await listener.wait_for(lambda: table.match.to_act == table.seat_of(host))
        await act(manager, table, table.match.legal_actions()[0])
        if table.seats[table.match.to_act].is_bot:
            break
    computer_to_act = table.match.to_act
    await manager.close()  # before the computer's move
    await db.close()

    listener = Listener()
    db, manager = await open_manager(path, listener=listener)
    try:
        await manager.restore()
        again = manager.table_in(75)
        moved = len(again.actions)
        await listener.wait_for(
            lambda: again.match.to_act == again.seat_of(host) or not again.playing
        )
        assert len(again.actions) > moved and again.actions[moved][0] == computer_to_act
        assert [
            (s, a) for _, _, s, _, a in await events(manager.db, again.id, "game")
        ] == again.actions
    finally:
        await shut(db, manager)


async def test_a_restart_between_matches_keeps_the_last_match_and_its_result(tmp_path: Path):
    """Found by members doing anything at once (tests/interaction/test_chaos.py): a table between
    rubbers showed the last one's result and deals until a restart, and nothing after it."""
    path = tmp_path / "euchre.db"
    rng = random.Random(75)
    db, manager = await open_manager(path)
    table = await seated_table(manager, 75, points=1)
    await play_to_end_of_hand(manager, table, rng)  # a game to 1 is over in one hand
    assert not table.playing and table.match.over
    before = seen(table)
    seats = table.to_state()["seats"]
    await shut(db, manager)

    db, manager = await open_manager(path)
    try:
        await manager.restore()
        again = manager.table_in(75)
        assert not again.playing and again.match.over
        assert seen(again) == before
        # The match's end (substitutes and held seats given back) is not applied twice.
        assert again.to_state()["seats"] == seats
        await manager.start(75, again.host_id)  # and the next match begins as usual
        assert again.playing and again.match_no == 2 and again.actions == []
    finally:
        await shut(db, manager)


async def test_a_substitute_seated_when_the_member_whose_consent_it_waited_for_is_removed(
    tmp_path: Path,
):
    """Member 2 names a substitute, who accepts; the host and member 3 consent, and the host
    removes member 4 before they do: no consent is wanting, so the substitute sits at once,
    the change names the seat handed over, and a restart finds the substitute seated."""
    path = tmp_path / "euchre.db"
    db, manager = await open_manager(path)
    try:
        table = await seated_table(manager, 73)
        holder, substitute = member(73, 2), member(73, 9)
        seat = table.seat_of(holder)
        await manager.substitute(73, holder, substitute, "sub")
        asked = table.substitution
        assert asked is not None
        await manager.answer_substitute(73, substitute, table.match_no, asked.number, True)
        for consenting in (member(73, 1), member(73, 3)):
            await manager.consent(73, consenting)
        assert table.seat_of(substitute) is None
        change = await manager.kick(73, member(73, 1), member(73, 4))
        assert change.handed == Handover(seat, "member 2")
        assert table.seat_of(substitute) == seat and table.substitution is None
    finally:
        await shut(db, manager)
    db, manager = await open_manager(path, listener=Listener())
    try:
        await manager.restore()
        again = manager.table_in(73)
        assert again.seat_of(substitute) == seat and again.seats[seat].substitute
        assert again.substitution is None and again.seat_of(holder) is None
    finally:
        await shut(db, manager)


async def test_a_substitute_seated_when_the_member_whose_consent_it_waited_for_times_out_twice(
    tmp_path: Path,
):
    """As above, but member 4 does not leave: they time out twice, and a computer holds their
    seat, which gives no consent. The substitute sits with that second time-out."""
    path = tmp_path / "euchre.db"
    db, manager = await open_manager(path)
    try:
        table = await seated_table(manager, 74)
        holder, substitute, away = member(74, 2), member(74, 9), member(74, 4)
        seat, away_seat = table.seat_of(holder), table.seat_of(away)
        await manager.substitute(74, holder, substitute, "sub")
        asked = table.substitution
        assert asked is not None
        await manager.answer_substitute(74, substitute, table.match_no, asked.number, True)
        for consenting in (member(74, 1), member(74, 3)):
            await manager.consent(74, consenting)
        changes = []
        while len(changes) < 2:
            if table.match.to_act == away_seat:
                changes.append(await manager.time_out_now(table))
            else:
                await act(manager, table, table.match.legal_actions()[0])
        assert changes[1].kind == "takeover" and changes[1].handed == Handover(seat, "member 2")
        assert table.seats[away_seat].held_for == away
        assert table.seat_of(substitute) == seat and table.substitution is None
    finally:
        await shut(db, manager)
