"""The room's rules at a table: seating, the host, substitutes, computers, cutting out (S.11-S.18)."""

from __future__ import annotations

import random

import pytest

from bot.engine.errors import IllegalAction
from bot.engine.rules import build_options
from bot.tables.table import MAX_MEMBERS, PLAYING, SEATING, Occupant, Table, TableError, parse_seat


def new_table(preset: str = "somerset", **overrides) -> Table:
    return Table(1, 10, 100, Occupant(1, "ann"), build_options(preset, **overrides))


def full_table(**overrides) -> Table:
    table = new_table(**overrides)
    for user_id, name in ((2, "bob"), (3, "cat"), (4, "dan")):
        table.join(user_id, name)
    return table


def play_until_over(table: Table, rng: random.Random) -> None:
    match = table.match
    while not match.over:
        seat = match.to_act
        legal = match.legal_actions()
        table.act_for_seat(seat, legal[int(rng.random() * len(legal))], by_player=True)


def test_creator_is_host_and_sits_north():
    table = new_table()
    assert table.host_id == 1
    assert table.seat_of(1) == 0


def test_join_takes_first_free_seat_or_named_seat():
    table = new_table()
    assert table.join(2, "bob", parse_seat("south")) == "seated"
    assert table.seat_of(2) == 2
    assert table.join(3, "cat") == "seated"
    assert table.seat_of(3) == 1


def test_join_a_taken_seat_is_refused():
    table = new_table()
    with pytest.raises(TableError, match="north is taken by ann"):
        table.join(2, "bob", 0)


def test_join_twice_is_refused():
    table = new_table()
    with pytest.raises(TableError, match="already belong"):
        table.join(1, "ann")


def test_unknown_seat_is_refused():
    with pytest.raises(TableError, match="unknown seat"):
        parse_seat("middle")


def test_s12_at_most_six_belong_to_a_table():
    table = full_table()
    assert table.join(5, "eve") == "waiting"
    assert table.join(6, "fay") == "waiting"
    assert len(table.members) == MAX_MEMBERS
    with pytest.raises(TableError, match="full"):
        table.join(7, "gus")


def test_start_needs_four_seated_and_the_host():
    table = new_table()
    with pytest.raises(TableError, match="four players"):
        table.start()
    table = full_table()
    with pytest.raises(TableError, match="host"):
        table.require_host(2)


def test_s11_start_cuts_for_partners_and_deals():
    table = full_table()
    cut = table.start(rng=random.Random(4))
    assert table.status == PLAYING
    assert cut and all(len(card) == 2 for _, card in cut[0])
    assert sorted(o.user_id for o in table.seats) == [1, 2, 3, 4]
    # The highest cut deals first, at seat 0, with the second highest opposite.
    values = {name: card for name, card in cut[-1]}
    assert table.match.deal.dealer == 0
    assert table.seats[0].name in values


def test_keep_seats_does_not_cut():
    table = full_table()
    seats = list(table.seats)
    assert table.start(keep_seats=True, rng=random.Random(1)) == []
    assert table.seats == seats


def test_only_seated_players_act_and_only_on_their_turn():
    table = full_table()
    table.start(keep_seats=True, rng=random.Random(2))
    to_act = table.match.to_act
    other = next(s for s in range(4) if s != to_act)
    with pytest.raises(TableError, match="not your turn"):
        table.act(table.seats[other].user_id, "pass")
    with pytest.raises(TableError, match="not seated"):
        table.act(99, "pass")


def test_an_illegal_action_changes_nothing():
    table = full_table()
    table.start(keep_seats=True, rng=random.Random(3))
    before = (table.match.deal.phase, table.match.to_act, list(table.actions))
    with pytest.raises(IllegalAction):
        table.act(table.seats[table.match.to_act].user_id, "call:H")
    assert (table.match.deal.phase, table.match.to_act, list(table.actions)) == before


def test_joining_mid_rubber_waits_in_line():
    table = full_table()
    table.start(keep_seats=True, rng=random.Random(5))
    assert table.join(5, "eve") == "waiting"


def test_leaving_mid_rubber_leaves_a_computer_and_flags_the_rubber():
    table = full_table()
    table.start(keep_seats=True, rng=random.Random(6))
    seat = table.leave(2)
    assert table.seats[seat].is_bot
    assert table.flagged


def test_s18_substitute_needs_the_other_three():
    table = full_table()
    table.start(keep_seats=True, rng=random.Random(7))
    assert table.request_substitute(2, 9, "zed") is False
    assert sorted(table.substitute_consenters()) == [1, 3, 4]
    with pytest.raises(TableError, match="other three"):
        table.consent_substitute(2)
    assert table.consent_substitute(1) is False
    assert table.consent_substitute(3) is False
    assert table.consent_substitute(4) is True
    assert table.seat_of(9) == 1 and table.seats[1].substitute
    assert table.flagged


def test_two_timeouts_computer_holds_seat_until_back():
    table = full_table()
    table.start(keep_seats=True, rng=random.Random(8))
    table.take_over(3)
    assert table.seats[3].is_bot and table.seats[3].held_for == 4
    with pytest.raises(TableError, match="table back"):
        table.act(4, "pass")
    assert table.back(4) == 3
    assert table.seat_of(4) == 3


def test_s15_at_rubbers_end_the_longest_playing_go_out():
    table = full_table()
    rng = random.Random(9)
    table.start(keep_seats=True, rng=rng)
    table.join(5, "eve")
    play_until_over(table, rng)
    assert table.status == SEATING
    assert all(table.consecutive[u] == 1 for u in (1, 2, 3, 4))
    table.consecutive[3] = 2  # cat has played one more rubber in a row than the others
    table.start(rng=rng)
    assert table.seat_of(5) is not None
    assert table.is_waiting(3)


def test_computers_make_room_for_waiting_members_first():
    table = new_table()
    table.join(2, "bob")
    table.join(3, "cat")
    table.add_bot(None, "easy")
    rng = random.Random(10)
    table.start(keep_seats=True, rng=rng)
    table.join(5, "eve")
    play_until_over(table, rng)
    table.start(rng=rng)
    assert table.seat_of(5) is not None
    assert not any(o.is_bot for o in table.seats)


def test_state_round_trip_mid_hand_replays_the_match():
    table = full_table()
    table.join(5, "eve")
    rng = random.Random(11)
    table.start(rng=rng)
    for _ in range(9):
        legal = table.match.legal_actions()
        table.act_for_seat(table.match.to_act, legal[0], by_player=True)
    copy = Table.from_state(
        table.id,
        table.guild_id,
        table.channel_id,
        table.options.to_dict(),
        table.to_state(),
        table.decks,
        table.actions,
    )
    assert copy.match.view_for(0) == table.match.view_for(0)
    assert [o.user_id for o in copy.seats] == [o.user_id for o in table.seats]
    assert [o.user_id for o in copy.waiting] == [o.user_id for o in table.waiting]
    assert len(copy.waiting) == 1  # five candidates: one was cut out (S.11)
