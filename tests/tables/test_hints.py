"""Hints at the table: who may ask and when, counted per member, marked in the deal's record."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from bot.engine.records import match_from_record
from bot.engine.rules import build_options
from bot.storage import hints
from bot.tables.table import Occupant, Table, TableError
from tests.tables.managers import (
    GUILD,
    act_randomly,
    in_memory,
    member,
    not_to_act,
    open_manager,
    play_to_end_of_hand,
    seated_table,
    shut,
    stored,
    to_act,
)
from tests.tables.test_league_tables import league_of

CHANNEL = 31


async def refused_hint(manager, table, user_id: int, match: str) -> None:
    """The hint is refused with a message matching `match`, and nothing changes anywhere."""
    memory = in_memory(manager, table)
    rows = await stored(manager.db)
    with pytest.raises(TableError, match=match):
        await manager.hint_view(table.channel_id, user_id)
    assert in_memory(manager, table) == memory
    assert await stored(manager.db) == rows


async def test_a_hint_is_for_the_seat_to_act_only(manager):
    table = await seated_table(manager, CHANNEL)
    assert table.hints and table.hints_allowed  # on by default
    got, number, seat, view = await manager.hint_view(CHANNEL, to_act(table))
    assert got is table and number == 1 and seat == table.match.to_act
    assert view.deal.seat == seat and sorted(view.deal.hand) == sorted(table.match.deal.hands[seat])
    await refused_hint(manager, table, not_to_act(table), "not your turn")
    await refused_hint(manager, table, member(CHANNEL, 9), "not seated")


async def test_hints_off_at_a_table_created_without_them(manager):
    table = await seated_table(manager, CHANNEL, hints=False)
    assert not table.hints_allowed
    await refused_hint(manager, table, to_act(table), "without hints")


async def test_hints_are_never_given_in_a_league_match(tmp_path: Path):
    db, manager = await open_manager(tmp_path / "euchre.db")
    try:
        league = await league_of(db, *(member(CHANNEL, k) for k in (1, 2, 3, 4)))
        with pytest.raises(TableError, match="league"):
            await manager.create(
                GUILD,
                CHANNEL,
                member(CHANNEL, 1),
                "host",
                league_id=league.id,
                league_name=league.name,
                hints=True,
            )
        assert CHANNEL not in manager.tables
        table = await seated_table(
            manager, CHANNEL, league_id=league.id, league_name=league.name, preset="modern"
        )
        assert not table.hints_allowed
        await refused_hint(manager, table, to_act(table), "league match")
    finally:
        await shut(db, manager)


async def test_a_hint_given_is_counted_and_marks_the_deals_record(manager):
    table = await seated_table(manager, CHANNEL)
    user = to_act(table)
    _, number, seat, view = await manager.hint_view(CHANNEL, user)
    await manager.hint_given(table, number, seat, user, view)
    await manager.hint_given(table, number, seat, user, view)
    assert await hints.hints_given(manager.db, GUILD, user) == 2
    assert await hints.hints_given(manager.db, GUILD, member(CHANNEL, 9)) == 0
    assert table.hinted == {1: {seat}}
    await play_to_end_of_hand(manager, table, random.Random(3))
    raw = await manager.db.fetchval(
        "SELECT record FROM hands WHERE table_id = ? ORDER BY id LIMIT 1", (table.id,)
    )
    assert json.loads(raw)["hints"] == [seat]


def test_the_hints_choice_and_marks_survive_a_restart_and_old_states_read():
    table = Table(3, GUILD, CHANNEL, Occupant(1, "host"), build_options("modern"))
    table.hints = False
    state = table.to_state()
    again = Table.from_state(3, GUILD, CHANNEL, table.options.to_dict(), state, [], [])
    assert again.hints is False
    del state["hints"], state["hinted"]
    old = Table.from_state(3, GUILD, CHANNEL, table.options.to_dict(), state, [], [])
    assert old.hints is True and old.hinted == {}


def test_a_record_marked_with_hints_still_reads():
    from bot.engine.match import Match
    from bot.engine.records import match_to_record

    rng = random.Random(2)
    match = Match(build_options("modern"), 0, rng=rng)
    while len(match.deals) == 1:
        match.apply(rng.choice(list(match.legal_actions())), match.to_act)
    record = match_to_record(match)
    record["deals"][0]["hints"] = [1]
    assert match_from_record(record).deals[0].dealt == match.deals[0].dealt


async def test_a_hint_whose_turn_moved_on_while_it_was_searched_is_not_given(manager):
    """A member may act while the search for their hint runs: the hint is then refused, and
    neither counted nor marked on the deal."""
    table = await seated_table(manager, CHANNEL)
    user = to_act(table)
    _, number, seat, view = await manager.hint_view(CHANNEL, user)
    await act_randomly(manager, table, random.Random(4))
    with pytest.raises(TableError, match="moved on"):
        await manager.hint_given(table, number, seat, user, view)
    assert await hints.hints_given(manager.db, GUILD, user) == 0
    assert table.hinted == {}


async def test_the_partner_of_a_lone_player_is_told_he_sits_out(manager):
    table = await seated_table(manager, CHANNEL)
    maker = table.match.to_act
    await manager.act(CHANNEL, table.seats[maker].user_id, "order:alone")
    partner = table.seats[(maker + 2) % 4].user_id
    with pytest.raises(TableError, match="plays this deal alone: you sit it out"):
        await manager.hint_view(CHANNEL, partner)


async def test_the_partner_of_a_lone_defender_is_told_his_partner_defends(manager):
    table = await seated_table(manager, CHANNEL, defend_alone=True)
    maker = table.match.to_act
    await manager.act(CHANNEL, table.seats[maker].user_id, "order:alone")
    while table.match.deal.phase != "defend_alone":
        await act_randomly(manager, table, random.Random(5))  # the dealer's discard
    defender = table.match.to_act
    await manager.act(CHANNEL, table.seats[defender].user_id, "defend")
    partner = table.seats[(defender + 2) % 4].user_id
    with pytest.raises(TableError, match="your partner defends this deal alone: you sit it out"):
        await manager.hint_view(CHANNEL, partner)
