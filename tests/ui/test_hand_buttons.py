"""bot/ui/views.py: the buttons of a player's own hand."""

from __future__ import annotations

import random

from bot.engine.deal import DISCARD
from bot.engine.rules import build_options
from bot.tables.table import Occupant, Table
from bot.ui.views import hand_view


async def test_only_the_dealers_cards_say_discard_while_he_discards() -> None:
    """While the dealer discards, every player's cards were labelled "Discard" (greyed out):
    a newcomer who did not deal read that a discard was asked of him. Only the dealer's
    cards say it; the others' are their cards, disabled until they play."""
    table = Table(7, 1, 1, Occupant(1, "ann"), build_options("somerset"))
    for seat in range(1, 4):
        table.seats[seat] = Occupant(seat + 1, f"player{seat + 1}")
    table._rng = random.Random(3)
    table.start(keep_seats=True)
    table.act_for_seat(table.match.to_act, "order")
    deal = table.match.deal
    while deal.phase != DISCARD:  # the maker's partner lets him play with partner
        table.act_for_seat(table.match.to_act, "pass")
    assert deal.phase == DISCARD
    for seat in range(4):
        buttons = hand_view(table, seat, table.match.view_for(seat)).children
        labels = [str(b.item.label or "") for b in buttons]
        says = [label.startswith("Discard") for label in labels]
        assert all(says) if seat == deal.dealer else not any(says), (seat, labels)
