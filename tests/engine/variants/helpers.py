"""Fixed deals of the variants, and a plain way to play them out, so tests read like the table.

Hands are written as players write them (`{1: "JH JD AH KH QH"}`); seats not given get the
rest of the variant's pack in pack order, five each.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping

from bot.engine.cards import POWER
from bot.engine.variants import VariantDeal, make_variant
from bot.engine.variants.deal import PLAY
from tests.engine.helpers import cards


def variant_deal(
    name: str,
    hands: Mapping[int, str],
    players: int | None = None,
    dealer: int = 0,
    turn_up: str | None = None,
    **options: object,
) -> VariantDeal:
    """A deal of `name` with the given hands (and turn-up); the other seats get the rest."""
    variant = make_variant(name, players, **options)
    given = {seat: cards(text) for seat, text in hands.items()}
    used = {c for hand in given.values() for c in hand} | ({turn_up} if turn_up else set())
    rest = [c for c in variant.pack if c not in used]
    full = []
    for seat in range(variant.players):
        if seat in given:
            full.append(given[seat])
        else:
            full.append(rest[:5])
            rest = rest[5:]
    return VariantDeal.from_hands(variant, dealer, full, turn_up, rest)


def act_all(deal: VariantDeal, *steps: tuple[int, str]) -> None:
    """Take each (seat, action) in turn."""
    for seat, action in steps:
        deal.apply(action, seat)


def play_highest(deal: VariantDeal) -> None:
    """Play the tricks out, each seat playing its strongest legal card (ties by card code)."""
    while deal.phase == PLAY:
        power = POWER[deal.trump]
        deal.apply(max(deal.legal_actions(), key=lambda c: (power[c], c)), deal.to_act)


def snapshot(deal: VariantDeal) -> object:
    """Everything a refused action must leave as it was."""
    return copy.deepcopy(
        (
            deal.phase,
            deal.to_act,
            deal.hands,
            deal.history,
            deal.kitty,
            deal.trump,
            deal.maker,
            deal.bid,
            deal.thrown,
            deal.declared,
            deal.won,
            deal.result,
        )
    )
