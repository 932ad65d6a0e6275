"""bot/ui/embeds.py: a lone hand said where its trump is."""

from __future__ import annotations

import random

from bot.engine.deal import PLAY
from bot.engine.rules import build_options
from bot.tables.table import Occupant, Table
from bot.ui.embeds import hand_embed


def test_every_hand_in_play_says_who_plays_alone() -> None:
    """A member who orders up alone by mistake, and those playing against him, saw in their
    hands only "made by ann": once the play begins a hand shows no declarations, so nothing
    there said the hand was played alone. The trump says it, in every hand."""
    table = Table(7, 1, 1, Occupant(1, "ann"), build_options("somerset"))
    for seat in range(1, 4):
        table.seats[seat] = Occupant(seat + 1, f"player{seat + 1}")
    table._rng = random.Random(3)
    table.start(keep_seats=True)
    maker = table.match.to_act
    table.act_for_seat(maker, "order:alone")
    while table.match.deal.phase != PLAY:
        seat = table.match.to_act
        legal = table.match.view_for(seat).deal.legal
        table.act_for_seat(seat, "pass" if "pass" in legal else legal[0])
    name = table.seats[maker].name
    for seat in range(4):
        embed = hand_embed(table, seat, table.match.view_for(seat))
        trump = next(f.value for f in embed.fields if f.name == "Trump")
        assert f"made by {name}; {name} plays alone" in str(trump), (seat, trump)
