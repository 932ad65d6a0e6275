"""bot/ui/embeds.py: a member's own hand once the match is over."""

from __future__ import annotations

import random

import pytest

from bot.engine.rules import build_options
from bot.tables.table import Occupant, Table
from bot.ui.embeds import hand_embed


@pytest.mark.parametrize(("match", "word"), [("game", "game"), ("rubber", "rubber")])
def test_the_hand_of_a_finished_match_names_it_as_the_table_does(match: str, word: str) -> None:
    """Each hand said "The match is over" at the end, a word the table uses nowhere: its
    message and the end's line say the game, or the rubber. The hand says the same."""
    table = Table(7, 1, 1, Occupant(1, "ann"), build_options("modern", points=1, match=match))
    for seat in range(1, 4):
        table.seats[seat] = Occupant(seat + 1, f"player{seat + 1}")
    table._rng = random.Random(4)
    table.start(keep_seats=True)
    while table.playing:
        seat = table.match.to_act
        legal = table.match.view_for(seat).deal.legal
        table.act_for_seat(seat, "order" if "order" in legal else legal[0])
    names = [f.name for f in hand_embed(table, 0, table.match.view_for(0)).fields]
    assert f"The {word} is over" in names and "The match is over" not in names, names
