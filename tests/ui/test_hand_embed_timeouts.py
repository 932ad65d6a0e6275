"""bot/ui/embeds.py: a member's own hand after their turn timed out."""

from __future__ import annotations

import random

from bot.engine.rules import build_options
from bot.tables.table import Occupant, Table
from bot.ui.embeds import hand_embed


def _fields(table: Table, seat: int) -> dict[str, str]:
    embed = hand_embed(table, seat, table.match.view_for(seat))
    return {field.name or "": field.value or "" for field in embed.fields}


def test_a_hand_whose_turn_timed_out_says_so_and_what_the_next_time_out_does() -> None:
    """A computer made the eldest's move when their turn ran out: their hand said nothing of
    it (only the table message did, among the news), nor that one more time-out gives their
    seat to a computer. It says both, to them alone, until they next act."""
    table = Table(7, 1, 1, Occupant(1, "ann"), build_options("modern"))
    for seat in range(1, 4):
        table.seats[seat] = Occupant(seat + 1, f"player{seat + 1}")
    table._rng = random.Random(3)
    table.start(keep_seats=True)
    eldest = table.match.to_act
    assert "Time ran out" not in _fields(table, eldest)
    table.timeouts[eldest] += 1  # as the manager counts a time-out, then moves for the seat
    table.act_for_seat(eldest, "pass")
    said = _fields(table, eldest)["Time ran out"]
    assert "a computer made that move for you" in said
    assert "If your next turn runs out too, a computer holds your seat" in said
    assert "Time ran out" not in _fields(table, (eldest + 1) % 4)
    while table.match.to_act != eldest:
        table.act_for_seat(table.match.to_act, "pass")
    table.act(table.seats[eldest].user_id, "pass")  # the member's own move
    assert "Time ran out" not in _fields(table, eldest)
