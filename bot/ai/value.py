"""What a hand's points are worth at the current score: the expert plays to the match, not the hand.

A point at 0-0 of a game to ten is worth little; the same point at 9-9 wins the game. The
expert therefore values each possible end of a deal by what it does to the side's prospects:

- a single game: the probability of winning it, from the score after the hand;
- a rubber: the expected difference of rubber points (games at one or two, two for the rubber)
  from the state after the hand, divided by ten, the most a rubber is worth.

Both come from a small table over scores, worked out once per set of options by a Markov
chain on the points of a hand. The chain's hand outcomes are rough frequencies measured from
computer play; they only need to put the outcomes in the right proportion.
"""

from __future__ import annotations

import functools
import logging

from bot.engine.match import MatchView
from bot.engine.rules import Options

log = logging.getLogger(__name__)

# How often each kind of hand ends, among hands where a trump is made (from simulated play of
# the standard level; lone hands are rare, euchres about one hand in four).
_OUTCOMES = (
    ("made_points", 0.50),
    ("march_points", 0.14),
    ("euchred_points", 0.25),
    ("lone_made_points", 0.04),
    ("lone_march_points", 0.05),
    ("lone_euchred_points", 0.02),
)
_RUBBER_SCALE = 10.0


def _hand_points(options: Options) -> list[tuple[int, float]]:
    """(points, probability) of one side scoring, for a hand that scores at all."""
    items = [(getattr(options, name), p) for name, p in _OUTCOMES]
    items = [(pts, p) for pts, p in items if pts > 0]
    total = sum(p for _, p in items)
    return [(pts, p / total) for pts, p in items] if total else []


@functools.lru_cache(maxsize=64)
def _game_table(
    points: int, outcomes: tuple[tuple[int, float], ...]
) -> tuple[tuple[float, ...], ...]:
    """P(side 0 wins a single game) for each score (a, b) below `points`."""
    v = [[0.5] * points for _ in range(points)]

    def at(a: int, b: int) -> float:
        if a >= points:
            return 1.0
        if b >= points:
            return 0.0
        return v[a][b]

    for a in range(points - 1, -1, -1):
        for b in range(points - 1, -1, -1):
            if outcomes:
                v[a][b] = sum(p * 0.5 * (at(a + pts, b) + at(a, b + pts)) for pts, p in outcomes)
    return tuple(tuple(row) for row in v)


@functools.lru_cache(maxsize=64)
def _rubber_table(
    points: int, outcomes: tuple[tuple[int, float], ...], lap: bool, double_game: bool
) -> dict[tuple[int, int, int, int, int], float]:
    """Expected future rubber points of side 0 less side 1, by (games played, wins 0, wins 1, a, b)."""
    table: dict[tuple[int, int, int, int, int], float] = {}

    def bonus(w0: int, w1: int) -> float:
        return 2.0 if w0 >= 2 else -2.0 if w1 >= 2 else 0.0

    def game_over(g: int, w0: int, w1: int, winner: int, final: int, loser: int) -> float:
        worth = 2 if double_game and loser == 0 else 1
        carried = min(final - points, points - 1) if lap else 0
        if g < 3:
            w0, w1 = (w0 + 1, w1) if winner == 0 else (w0, w1 + 1)
        played = g + 1
        here = worth if winner == 0 else -worth
        if played == 4 or (played == 3 and carried == 0):
            return here + bonus(w0, w1)
        a, b = (carried, 0) if winner == 0 else (0, carried)
        return here + table[(played, w0, w1, a, b)]

    def at(g: int, w0: int, w1: int, a: int, b: int) -> float:
        if a >= points:
            return game_over(g, w0, w1, 0, a, b)
        if b >= points:
            return game_over(g, w0, w1, 1, b, a)
        return table[(g, w0, w1, a, b)]

    for g in (3, 2, 1, 0):
        for w0 in range(min(g, 3) + 1):
            for w1 in range(min(g, 3) - w0 + 1):
                if g <= 3 and w0 + w1 != min(g, 3):
                    continue
                for a in range(points - 1, -1, -1):
                    for b in range(points - 1, -1, -1):
                        table[(g, w0, w1, a, b)] = (
                            sum(
                                p * 0.5 * (at(g, w0, w1, a + pts, b) + at(g, w0, w1, a, b + pts))
                                for pts, p in outcomes
                            )
                            if outcomes
                            else 0.0
                        )
    return table


class ScoreValue:
    """The worth to side 0 of each way the current deal may end, at the view's score.

    `of(points0, points1)` is on one scale for every match kind: a probability of winning the
    game (0 to 1), or a rubber's expected rubber-point difference divided by ten (-1 to 1).
    """

    def __init__(self, view: MatchView) -> None:
        options = view.options
        self.options = options
        self.points = options.points
        self.outcomes = tuple(_hand_points(options))
        self.scores = (min(view.scores[0], self.points - 1), min(view.scores[1], self.points - 1))
        self.rubber = options.is_rubber
        if self.rubber:
            self.table = _rubber_table(self.points, self.outcomes, options.lap, options.double_game)
            games = view.games
            self.g = min(len(games), 3)
            wins = [0, 0]
            for game in games[:3]:
                wins[game.winner] += 1
            self.wins = (wins[0], wins[1])
        else:
            self.game = _game_table(self.points, self.outcomes)
        self._memo: dict[tuple[int, int], float] = {}

    def of(self, points0: int, points1: int) -> float:
        """Side 0's prospects if the deal ends giving these points."""
        key = (points0, points1)
        got = self._memo.get(key)
        if got is not None:
            return got
        a, b = self.scores[0] + points0, self.scores[1] + points1
        if self.rubber:
            got = self._rubber(a, b)
        else:
            got = 1.0 if a >= self.points else 0.0 if b >= self.points else self.game[a][b]
        self._memo[key] = got
        return got

    def _rubber(self, a: int, b: int) -> float:
        p, table, g = self.points, self.table, self.g
        w0, w1 = self.wins
        if a < p and b < p:
            return table[(g, w0, w1, a, b)] / _RUBBER_SCALE
        winner = 0 if a >= p else 1
        final, loser = (a, b) if winner == 0 else (b, a)
        worth = 2 if self.options.double_game and loser == 0 else 1
        carried = min(final - p, p - 1) if self.options.lap else 0
        if g < 3:
            w0, w1 = (w0 + 1, w1) if winner == 0 else (w0, w1 + 1)
        played = g + 1
        here = worth if winner == 0 else -worth
        if played >= 4 or (played == 3 and carried == 0):
            bonus = 2.0 if w0 >= 2 else -2.0 if w1 >= 2 else 0.0
            return (here + bonus) / _RUBBER_SCALE
        na, nb = (carried, 0) if winner == 0 else (0, carried)
        return (here + table[(played, w0, w1, na, nb)]) / _RUBBER_SCALE

    def game_swing(self) -> float:
        """What winning the game in play, rather than losing it, is worth now (1 in a single
        game; in a rubber, the difference it makes to the rubber points to come)."""
        # Just reaching the game's points, so that no lap is carried into the next game.
        return self.of(self.points - self.scores[0], 0) - self.of(0, self.points - self.scores[1])

    def for_side(self, side: int, points0: int, points1: int) -> float:
        """The worth of the ending to `side` (the other side's loss is its gain)."""
        v = self.of(points0, points1)
        if side == 0:
            return v
        return 1.0 - v if not self.rubber else -v
