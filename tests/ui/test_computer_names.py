"""bot/ui/embeds.py: computers of the same level, told apart by their seats."""

from __future__ import annotations

import random

from bot.engine.rules import build_options
from bot.tables.table import Occupant, Table, bot_occupant
from bot.ui.embeds import hand_embed, table_embed


def _fields(embed) -> dict[str, str]:
    return {field.name or "": field.value or "" for field in embed.fields}


def test_three_computers_of_one_level_are_named_by_their_seats_where_they_act() -> None:
    """A newcomer plays with three expert computers. Their hand said "Waiting for Computer
    (expert)", and its declarations and tricks named "Computer (expert)" three times over:
    they could not tell their partner from the other side. Where a computer acts it is named
    with its seat; the seats' lines, which name the seat already, stay as they were."""
    table = Table(7, 1, 1, Occupant(1, "ann"), build_options("modern"))
    for seat in range(1, 4):
        table.seats[seat] = bot_occupant(-seat, "expert")
    table._rng = random.Random(5)
    table.start(keep_seats=True)
    while table.match.to_act != 0:
        waiting = _fields(hand_embed(table, 0, table.match.view_for(0)))["Waiting for"]
        seat = table.match.to_act
        assert waiting == f"Computer (expert) at {('north', 'east', 'south', 'west')[seat]}"
        table.act_for_seat(seat, "pass")
    said = _fields(hand_embed(table, 0, table.match.view_for(0)))["Declarations"].splitlines()
    assert said and len(set(said)) == len(said), said
    assert all(" at " in line for line in said), said
    shown = _fields(table_embed(table, table.match.public_view()))
    seats = shown["Seats (North–South v East–West)"]
    assert "**East**: Computer (expert)" in seats and " at " not in seats, seats
    # One computer alone at a table needs no seat to be told apart.
    table.seats[2] = Occupant(3, "bea")
    table.seats[3] = Occupant(4, "cy")
    assert " at " not in _fields(table_embed(table, table.match.public_view())).get(
        "Declarations", ""
    )
