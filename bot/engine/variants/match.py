"""A variant's match: deals in a row, the deal passing to the left, to the end of the game.

It has the surface of the four-handed `Match` (`to_act`, `legal_actions()`, `apply(action,
seat)`, `view_for(seat)`, `public_view()`, `over`, `winner`, `deals`, `hand_results`), so a
table can drive any variant as it drives the regular game; seats are numbers from 0 and
`scores` are by side (partnerships) or by seat.

How a match ends (RULES.md §7-§8):
- points to a game (two- and three-handed 5, French 15, six-handed 25): the first to reach the
  game wins. Should two players of three-handed reach it in one deal (a euchre gives each
  adversary two), the higher score wins, and on equal scores the one nearer the dealer's left.
- Napoleon's chips: each player deals `rounds` times; the most chips wins, and a tie at the top
  ends the match with no winner.
- set-back: everyone starts at 5 and the first down to 0 wins (no score goes below 0). Should
  several reach 0 in one deal (the `euchre_deducts` option), the maker wins if he is one of
  them, else the one nearest the dealer's left.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bot.engine.errors import IllegalAction
from bot.engine.variants.deal import VariantDeal, VariantDealView
from bot.engine.variants.rules import CHIPS, SET_BACK, SET_BACK_START, Variant
from bot.engine.variants.scoring import VariantResult

VariantDealFactory = Callable[[Variant, int], VariantDeal]


@dataclass(frozen=True, slots=True)
class VariantMatchView:
    """A seat's (or the public's) view of the match: the deal's view and the scores."""

    deal: VariantDealView
    variant: Variant
    scores: tuple[int, ...]
    deal_number: int
    over: bool
    winner: int | None


class VariantMatch:
    """One game of a variant, deal by deal.

    Args:
        variant: the rules and the number of players.
        first_dealer: the seat that deals first.
        rng: the shuffle's generator; None uses a strong system generator.
        deal_factory: makes each deal from (variant, dealer) instead of shuffling; records use
            it to replay recorded hands.
    """

    def __init__(
        self,
        variant: Variant,
        first_dealer: int = 0,
        rng: random.Random | None = None,
        deal_factory: VariantDealFactory | None = None,
    ) -> None:
        if not 0 <= first_dealer < variant.players:
            raise IllegalAction(f"the first dealer must be a seat from 0 to {variant.players - 1}")
        self.variant = variant
        self.first_dealer = first_dealer
        self._rng = rng
        self._factory = deal_factory
        start = SET_BACK_START if variant.scoring == SET_BACK else 0
        self.scores = [start] * variant.sides
        self.deals: list[VariantDeal] = []
        self.over = False
        self.winner: int | None = None
        self._start_deal(first_dealer)

    @property
    def deal(self) -> VariantDeal:
        return self.deals[-1]

    @property
    def to_act(self) -> int | None:
        return None if self.over else self.deal.to_act

    def legal_actions(self) -> Sequence[str]:
        return () if self.over else self.deal.legal_actions()

    def apply(self, action: str, seat: int | None = None) -> VariantResult | None:
        """Take one action in the current deal; when it ends the deal, score it and deal again.

        Returns:
            The deal's result when this action ended it, else None.

        Raises:
            IllegalAction: the action is not open to that seat now.
        """
        if self.over:
            raise IllegalAction("this game is over")
        deal = self.deal
        deal.apply(action, seat)
        result = deal.result
        if result is None:
            return None
        self._score(result)
        if not self.over:
            self._start_deal((deal.dealer + 1) % self.variant.players)
        return result

    def _start_deal(self, dealer: int) -> None:
        if self._factory is not None:
            deal = self._factory(self.variant, dealer)
        else:
            deal = VariantDeal.shuffled(self.variant, dealer, self._rng)
        deal.standing = tuple(self.scores)
        self.deals.append(deal)

    def _score(self, result: VariantResult) -> None:
        v = self.variant
        scores = self.scores
        for i, change in enumerate(result.points):
            scores[i] += change
        # Ties are settled from the dealer's left: the order of the seats (or sides) from there.
        order = [(result.dealer + k) % v.players for k in range(1, v.players + 1)]
        sides = list(dict.fromkeys(v.side_of(s) for s in order))
        if v.scoring == SET_BACK:
            for i in range(len(scores)):
                scores[i] = max(0, scores[i])
            out = [s for s in sides if scores[s] == 0]
            if out:
                maker = result.maker
                self._end(maker if maker in out else out[0])
        elif v.scoring == CHIPS:
            if len(self.deals) == v.rounds * v.players:
                best = max(scores)
                leaders = [s for s in sides if scores[s] == best]
                self._end(leaders[0] if len(leaders) == 1 else None)
        else:
            reached = [s for s in sides if scores[s] >= v.game]
            if reached:
                self._end(max(reached, key=lambda s: scores[s]))  # max keeps the first of equals

    def _end(self, winner: int | None) -> None:
        self.over, self.winner = True, winner

    @property
    def hand_results(self) -> list[VariantResult]:
        return [d.result for d in self.deals if d.result is not None]

    def view_for(self, seat: int) -> VariantMatchView:
        return self._view(self.deal.view_for(seat))

    def public_view(self) -> VariantMatchView:
        return self._view(self.deal.public_view())

    def _view(self, deal_view: VariantDealView) -> VariantMatchView:
        return VariantMatchView(
            deal=deal_view,
            variant=self.variant,
            scores=tuple(self.scores),
            deal_number=len(self.deals),
            over=self.over,
            winner=self.winner,
        )
