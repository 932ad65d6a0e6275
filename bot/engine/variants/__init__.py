"""The other games of the rule books: two- and three-handed (H), French euchre, Napoleon,
six-handed and set-back (K), on the shared trick core.

    variant = make_variant("napoleon", players=5)
    match = VariantMatch(variant, first_dealer=0)
    match.apply(match.legal_actions()[0], match.to_act)

`rules` holds what the variants differ in as data, `actions` the action codes, `deal` one deal,
`scoring` its points, `match` the game, and `records` the bot's own record of it.
"""

from __future__ import annotations

from bot.engine.variants.deal import VariantDeal, VariantDealView
from bot.engine.variants.match import VariantMatch, VariantMatchView
from bot.engine.variants.rules import NAMES, Variant, make_variant, seats_allowed
from bot.engine.variants.scoring import VariantResult

VARIANT_NAMES = NAMES

__all__ = [
    "NAMES",
    "Variant",
    "VariantDeal",
    "VariantDealView",
    "VariantMatch",
    "VariantMatchView",
    "VARIANT_NAMES",
    "VariantResult",
    "make_variant",
    "seats_allowed",
]
