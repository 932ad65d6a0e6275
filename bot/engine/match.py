"""Games and rubbers: deals in a row, the dealer moving left, points to a game, games to a rubber.

A single game ends the moment a side reaches the game's points. A rubber (S.1, S.7) is three
games, all played even when one side wins the first two, and a fourth when the third game laps;
each game counts one, or two when the losers scored nothing, and the side that wins two games
adds two more. With lap on, points beyond a game are carried into the next (S.1 glossary).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bot.engine.deal import SEATS, Deal, DealView, HandResult
from bot.engine.errors import IllegalAction
from bot.engine.rules import Options

RUBBER_BONUS = 2

DealFactory = Callable[[Options, int], Deal]


@dataclass(frozen=True, slots=True)
class GameResult:
    """One finished game: the final score, who won, what it counts, and any lap carried."""

    scores: tuple[int, int]
    winner: int
    value: int
    carried: int = 0

    @property
    def double(self) -> bool:
        return self.value == 2


@dataclass(frozen=True, slots=True)
class MatchView:
    """A seat's (or the public's) view of the match: the deal's view and the scores."""

    deal: DealView
    options: Options
    scores: tuple[int, int]
    game_number: int
    games: tuple[GameResult, ...]
    rubber_points: tuple[int, int]
    is_rubber: bool
    over: bool
    winner: int | None


class Match:
    """A single game or a rubber, deal by deal.

    Args:
        options: the table's options.
        first_dealer: the seat that deals first (from the cut, S.11).
        rng: the shuffle's generator; None uses a strong system generator.
        deal_factory: makes each deal from (options, dealer) instead of shuffling; records use
            it to replay recorded hands.
    """

    def __init__(
        self,
        options: Options,
        first_dealer: int = 0,
        rng: random.Random | None = None,
        deal_factory: DealFactory | None = None,
    ) -> None:
        self.options = options
        self.first_dealer = first_dealer
        self._rng = rng
        self._factory = deal_factory
        self.scores = [0, 0]
        self.games: list[GameResult] = []
        self.deals: list[Deal] = []  # every deal, the current one last
        self.game_of_deal: list[int] = []  # the game number of each deal
        self.over = False
        self._start_deal(first_dealer)

    # -- the current deal -----------------------------------------------------------------

    @property
    def deal(self) -> Deal:
        return self.deals[-1]

    @property
    def to_act(self) -> int | None:
        return None if self.over else self.deal.to_act

    @property
    def game_number(self) -> int:
        """The game being played (0 for the first), or the last one when the match is over."""
        return self.game_of_deal[-1]

    def legal_actions(self) -> Sequence[str]:
        return () if self.over else self.deal.legal_actions()

    def apply(self, action: str, seat: int | None = None) -> HandResult | None:
        """Take one action in the current deal; when it ends the deal, score it and deal again.

        Returns:
            The hand's result when this action ended a deal, else None.

        Raises:
            IllegalAction: the action is not open to that seat now.
        """
        if self.over:
            raise IllegalAction("this match is over")
        deal = self.deal
        deal.apply(action, seat)
        if deal.result is None:
            return None
        self._score(deal.result)
        if not self.over:
            self._start_deal((deal.dealer + 1) % SEATS)
        return deal.result

    def _start_deal(self, dealer: int) -> None:
        if self._factory is not None:
            deal = self._factory(self.options, dealer)
        else:
            deal = Deal.shuffled(self.options, dealer, self._rng)
        self.deals.append(deal)
        self.game_of_deal.append(len(self.games))

    # -- scoring --------------------------------------------------------------------------

    def _score(self, result: HandResult) -> None:
        points = self.options.points
        self.scores[0] += result.points[0]
        self.scores[1] += result.points[1]
        if max(self.scores) < points:
            return
        winner = 0 if self.scores[0] >= points else 1
        loser_score = self.scores[1 - winner]
        value = 2 if self.options.double_game and loser_score == 0 else 1
        carried = self.scores[winner] - points if self.options.lap else 0
        self.games.append(GameResult((self.scores[0], self.scores[1]), winner, value, carried))
        if self._match_over():
            self.over = True
            return
        self.scores = [0, 0]
        self.scores[winner] = carried

    def _match_over(self) -> bool:
        if not self.options.is_rubber:
            return True
        played = len(self.games)
        if played < 3:
            return False
        # A lap in the third game is played out in a fourth (S.1).
        return played == 4 or self.games[2].carried == 0

    @property
    def rubber_winner(self) -> int | None:
        """The side that won two of the rubber's first three games, once it has."""
        wins = [0, 0]
        for game in self.games[:3]:
            wins[game.winner] += 1
            if wins[game.winner] == 2:
                return game.winner
        return None

    @property
    def rubber_points(self) -> tuple[int, int]:
        """Each side's rubber points so far: games won at one or two, and two for the rubber (S.7)."""
        points = [0, 0]
        for game in self.games:
            points[game.winner] += game.value
        winner = self.rubber_winner
        if self.over and winner is not None and self.options.is_rubber:
            points[winner] += RUBBER_BONUS
        return points[0], points[1]

    @property
    def winner(self) -> int | None:
        """The side that won the match (the rubber, or the single game), once it is over."""
        if not self.over:
            return None
        if self.options.is_rubber:
            return self.rubber_winner
        return self.games[-1].winner

    @property
    def hand_results(self) -> list[HandResult]:
        return [d.result for d in self.deals if d.result is not None]

    # -- views ----------------------------------------------------------------------------

    def view_for(self, seat: int) -> MatchView:
        return self._view(self.deal.view_for(seat))

    def public_view(self) -> MatchView:
        return self._view(self.deal.public_view())

    def _view(self, deal_view: DealView) -> MatchView:
        return MatchView(
            deal=deal_view,
            options=self.options,
            scores=(self.scores[0], self.scores[1]),
            game_number=self.game_number,
            games=tuple(self.games),
            rubber_points=self.rubber_points,
            is_rubber=self.options.is_rubber,
            over=self.over,
            winner=self.winner,
        )
