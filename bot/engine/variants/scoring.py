"""What one deal of a variant scores (RULES.md §7-§8).

Points are by side where there are partnerships (side 0 = the even seats) and by seat where
each plays for himself. For set-back they are what each score moves by: down (negative) for a
deduction, up for being set back. For Napoleon they are chips, summing to zero.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.engine.scoring import EUCHRED, MADE, MARCH, PASSED
from bot.engine.variants.rules import CHIPS, SET_BACK, SET_BACK_START

if TYPE_CHECKING:
    from bot.engine.variants.deal import VariantDeal

# Napoleon: a made bid of five ("Napoleon") collects ten from each opponent (K).
NAPOLEON_CHIPS = 10
# Two- and three-handed (H) and set-back (K): what three or four tricks, a march and a euchre move.
MADE_POINTS = 1
MARCH_POINTS = 2
EUCHRED_POINTS = 2
# Set-back: a player who takes no trick is set back one (K).
NO_TRICK_POINTS = 1


@dataclass(frozen=True, slots=True)
class VariantResult:
    """How a deal ended.

    Attributes:
        dealer: the dealer's seat.
        outcome: `passed`, `made`, `march` (the makers took all five) or `euchred`.
        maker: the seat that made the trump (None when the deal passed).
        trump: the trump suit.
        bid: the tricks bid, in a bidding variant.
        tricks: tricks taken by each seat.
        points: what each side (partnerships) or each seat scores; see the module docstring.
        thrown: the seats that threw up their hands (set-back).
        declared: the maker declared all five (set-back).
        early: the deal ended before the fifth trick (Napoleon).
    """

    dealer: int
    outcome: str
    maker: int | None = None
    trump: str | None = None
    bid: int | None = None
    tricks: tuple[int, ...] = ()
    points: tuple[int, ...] = ()
    thrown: tuple[int, ...] = ()
    declared: bool = False
    early: bool = False


def outcome_of(maker_tricks: int, needed: int) -> str:
    """`march` for all five, `made` for `needed` or more, else `euchred`."""
    if maker_tricks == 5:
        return MARCH
    return MADE if maker_tricks >= needed else EUCHRED


def score_deal(deal: VariantDeal) -> VariantResult:
    """The result of a finished deal: its outcome and every side's or seat's points."""
    v = deal.variant
    maker = deal.maker
    tricks = tuple(deal.won)
    if maker is None or deal.trump is None:
        return VariantResult(deal.dealer, PASSED, tricks=tricks, points=(0,) * v.sides)
    side = v.side_of(maker)
    maker_tricks = sum(t for s, t in enumerate(tricks) if v.side_of(s) == side)
    bid = deal.bid
    outcome = outcome_of(maker_tricks, 3 if bid is None else bid)
    points = [0] * v.sides
    adversaries = deal.adversaries()
    if v.scoring == CHIPS:
        assert bid is not None
        _napoleon(points, maker, adversaries, bid, outcome != EUCHRED)
    elif v.scoring == SET_BACK:
        _set_back(deal, points, maker, outcome)
    elif bid is not None:
        # French and six-handed: the bid and no more when made; the bid to the adversaries when not.
        points[side if outcome != EUCHRED else 1 - side] = bid
    elif outcome == EUCHRED:
        # Two- and three-handed: a euchred maker gives each adversary two.
        for seat in adversaries:
            points[seat] = EUCHRED_POINTS
    else:
        points[maker] = MARCH_POINTS if outcome == MARCH else MADE_POINTS
    return VariantResult(
        dealer=deal.dealer,
        outcome=outcome,
        maker=maker,
        trump=deal.trump,
        bid=bid,
        tricks=tricks,
        points=tuple(points),
        thrown=tuple(deal.thrown),
        declared=deal.declared,
        early=deal.ended_early,
    )


def _napoleon(
    points: list[int], maker: int, adversaries: tuple[int, ...], bid: int, made: bool
) -> None:
    """One chip a trick bid from (or to) each opponent; a made Napoleon collects ten each."""
    each = NAPOLEON_CHIPS if made and bid == 5 else bid
    sign = 1 if made else -1
    for seat in adversaries:
        points[seat] -= sign * each
    points[maker] += sign * each * len(adversaries)


def _set_back(deal: VariantDeal, points: list[int], maker: int, outcome: str) -> None:
    v = deal.variant
    if deal.declared:
        # Declaring all five: made, the game is won outright (the score goes to 0); failed,
        # the declarer is set back by his whole score (K).
        standing = deal.standing[maker] if deal.standing else SET_BACK_START
        points[maker] = -standing if outcome == MARCH else standing
    elif outcome == EUCHRED:
        points[maker] = EUCHRED_POINTS
    else:
        points[maker] = -(MARCH_POINTS if outcome == MARCH else MADE_POINTS)
    playing = [s for s in range(v.players) if s not in deal.thrown]
    if outcome == EUCHRED and v.euchre_deducts:
        for seat in playing:
            if seat != maker:
                points[seat] -= EUCHRED_POINTS
    # Any player who takes no trick is set back one, unless he threw up his hand (K).
    for seat in playing:
        if deal.won[seat] == 0:
            points[seat] += NO_TRICK_POINTS
