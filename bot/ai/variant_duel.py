"""Duplicate duels of two levels at a variant, for the CLI and the benchmark.

Where each plays for himself there is no opposing partnership to swap with, so a duel
substitutes: each pack order (a seeded sequence of shuffles) is played twice, once with level
`a` in the tested seats and level `b` everywhere else, and once with `b` everywhere. The tested
seats are one partnership, or one player (a different seat for each pack order). Over the pair
the cards are the same, so the difference in the tested seats' result is the level's doing: a
pair scores 1 when `a` did better there, 0 when worse, one half when the same. Better is
winning the game, then a larger lead over the best of the others (chips for Napoleon, points
counted down for set-back).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from bot.ai.variants import make_variant_player
from bot.engine.variants.match import VariantDealFactory, VariantMatch, VariantMatchView
from bot.engine.variants.rules import SET_BACK, Variant

Chooser = Callable[[VariantMatchView], str]
# A bound on a game's deals: set-back between players who seldom make a trump may take long.
MAX_DEALS = 500


@dataclass
class VariantDuelResult:
    """What a duel found: each pair's score (see the module docstring) and counts."""

    variant: str
    players: int
    a: str
    b: str
    pairs: int
    seed: int
    scores: list[float] = field(default_factory=list)
    a_wins: int = 0  # games the tested seats won with level a
    b_wins: int = 0  # ... with level b
    unfinished: int = 0

    @property
    def share(self) -> float:
        """The mean pair score: above one half when `a` does better than `b` in those seats."""
        return sum(self.scores) / len(self.scores) if self.scores else 0.0

    def confidence(self) -> tuple[float, float]:
        """A 95% interval for the share, from the spread of the pair scores."""
        n = len(self.scores)
        if n < 2:
            return (0.0, 1.0)
        mean = self.share
        var = sum((x - mean) ** 2 for x in self.scores) / (n - 1)
        half = 1.96 * math.sqrt(var / n)
        return (max(0.0, mean - half), min(1.0, mean + half))

    def to_dict(self) -> dict[str, object]:
        low, high = self.confidence()
        return {
            "variant": self.variant,
            "players": self.players,
            "a": self.a,
            "b": self.b,
            "pairs": self.pairs,
            "seed": self.seed,
            "share": round(self.share, 4),
            "interval95": [round(low, 4), round(high, 4)],
            "a_wins": self.a_wins,
            "b_wins": self.b_wins,
            "unfinished": self.unfinished,
        }


def tested_seats(variant: Variant, pair: int) -> tuple[int, ...]:
    """The seats the tested level takes for a pack order: side 0, or one seat in turn."""
    if variant.partners:
        return tuple(range(0, variant.players, 2))
    return (pair % variant.players,)


def play_game(
    variant: Variant,
    seed: str,
    choosers: Sequence[Chooser],
    max_deals: int = MAX_DEALS,
    deal_factory: VariantDealFactory | None = None,
) -> VariantMatch:
    """One game to its end (or `max_deals` deals): the seed shuffles and cuts for the deal
    (or `deal_factory` deals, as a table does from a seed of each deal's own)."""
    rng = random.Random(seed)
    match = VariantMatch(
        variant, rng.randrange(variant.players), random.Random(rng.random()), deal_factory
    )
    while not match.over and len(match.deals) <= max_deals:
        seat = match.to_act
        assert seat is not None
        match.apply(choosers[seat](match.view_for(seat)), seat)
    return match


def _standing(match: VariantMatch, seats: tuple[int, ...]) -> tuple[int, int]:
    """(won the game, the lead over the best other score) for the tested seats."""
    v = match.variant
    side = v.side_of(seats[0])
    scores = match.scores
    best_other = max(s for i, s in enumerate(scores) if i != side)
    lead = scores[side] - best_other
    if v.scoring == SET_BACK:
        best_other = min(s for i, s in enumerate(scores) if i != side)
        lead = best_other - scores[side]  # counting down: lower is better
    return (1 if match.winner == side else 0, lead)


def run_variant_duel(
    variant: Variant, a: str, b: str, pairs: int, seed: int = 0
) -> VariantDuelResult:
    """Play `pairs` pack orders twice each (see the module docstring).

    Raises:
        ValueError: an unknown level.
    """
    result = VariantDuelResult(variant.name, variant.players, a, b, pairs, seed)
    for pair in range(pairs):
        seats = tested_seats(variant, pair)
        with_a = [
            make_variant_player(a if s in seats else b, seed).choose for s in range(variant.players)
        ]
        with_b = [make_variant_player(b, seed).choose for _ in range(variant.players)]
        games = [play_game(variant, f"{seed}/{pair}", choosers) for choosers in (with_a, with_b)]
        result.unfinished += sum(not g.over for g in games)
        first, second = (_standing(g, seats) for g in games)
        result.a_wins += first[0]
        result.b_wins += second[0]
        result.scores.append(1.0 if first > second else 0.0 if first < second else 0.5)
    return result
