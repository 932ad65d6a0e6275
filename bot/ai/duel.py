"""Duplicate matches between two levels of computer player, for `simulate` and the benchmark.

Partnership A sits at seats 0 and 2, partnership B at seats 1 and 3. Each pack order (a seeded
sequence of shuffles) is played twice, the second time with the sides swapped, so both sides
hold the same cards over the pair and luck of the deal mostly cancels out. Nothing here prints:
the CLI and the benchmark render a `DuelResult`.
"""

from __future__ import annotations

import logging
import math
import random
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from typing import Any

from bot.ai import LEVELS, make_player
from bot.ai.common import seeded_rng
from bot.engine.match import Match, MatchView
from bot.engine.rules import Options, options_from_dict

log = logging.getLogger(__name__)

DUEL_LEVELS = (*LEVELS, "random")


@dataclass
class SideStats:
    """What one partnership did over a duel."""

    games: int = 0  # games won
    matches: int = 0  # matches (single games or rubbers) won
    rubber_points: int = 0
    points: int = 0  # points scored in hands
    made: int = 0  # trumps made by this side
    made_good: int = 0  # ... and not euchred
    lone: int = 0  # lone hands played by this side
    lone_good: int = 0  # ... and not euchred
    lone_marches: int = 0


@dataclass
class DuelResult:
    """The result of a duplicate duel between levels `a` and `b`.

    `pairs` is the number of pack orders, each played twice (2 * pairs matches in all).
    """

    a: str
    b: str
    preset: str
    pairs: int
    seed: int
    hands: int = 0
    games: int = 0
    matches: int = 0
    side_a: SideStats = field(default_factory=SideStats)
    side_b: SideStats = field(default_factory=SideStats)
    preset_is_rubber: bool = False
    pair_shares: list[float] = field(default_factory=list)  # A's share of the games in each pair
    decisions: dict[str, list[float]] = field(default_factory=dict)

    @property
    def a_share(self) -> float:
        """The fraction of all games won by side A."""
        return self.side_a.games / self.games if self.games else 0.0

    def confidence(self) -> tuple[float, float]:
        """A 95% confidence interval for A's share of games, from the spread over pairs."""
        n = len(self.pair_shares)
        if n < 2:
            return (0.0, 1.0)
        mean = sum(self.pair_shares) / n
        var = sum((x - mean) ** 2 for x in self.pair_shares) / (n - 1)
        half = 1.96 * math.sqrt(var / n)
        return (max(0.0, self.a_share - half), min(1.0, self.a_share + half))

    def merge(self, other: DuelResult) -> None:
        self.pairs += other.pairs
        self.hands += other.hands
        self.games += other.games
        self.matches += other.matches
        for mine, theirs in ((self.side_a, other.side_a), (self.side_b, other.side_b)):
            for name in asdict(mine):
                setattr(mine, name, getattr(mine, name) + getattr(theirs, name))
        self.pair_shares += other.pair_shares
        for level, times in other.decisions.items():
            self.decisions.setdefault(level, []).extend(times)

    def to_dict(self) -> dict[str, Any]:
        """Plain data for `--json`: the counts, A's share with its interval, per-side rates."""
        low, high = self.confidence()
        out: dict[str, Any] = {
            "a": self.a,
            "b": self.b,
            "levels": [self.a, self.b],
            "preset": self.preset,
            "pairs": self.pairs,
            "matches": self.matches,
            "games": self.games,
            "hands": self.hands,
            "seed": self.seed,
            "a_share": round(self.a_share, 4),
            "a_share_95": [round(low, 4), round(high, 4)],
        }
        for name, s in (("side_a", self.side_a), ("side_b", self.side_b)):
            out[name] = {
                **asdict(s),
                "points_per_hand": round(s.points / self.hands, 4) if self.hands else 0.0,
                "makers_success": round(s.made_good / s.made, 4) if s.made else None,
                "lone_success": round(s.lone_good / s.lone, 4) if s.lone else None,
            }
        return out


def _seat_players(a: str, b: str, swapped: bool, seed: int, budget: int | None) -> list[Any]:
    levels = [b, a, b, a] if swapped else [a, b, a, b]
    return [player(levels[s], seed * 4 + s, budget) for s in range(4)]


def player(level: str, seed: int, budget: int | None = None) -> Any:
    """A player of one of `DUEL_LEVELS`: the computer levels, or `random`."""
    if level == "random":
        return RandomPlayer(seed)
    return make_player(level, seed, budget=budget)


def play_out(
    match: Match, players: list[Any], timings: dict[int, list[float]] | None = None
) -> Match:
    """Play `match` to its end, each seat's decisions by `players[seat]`.

    `timings`, when given, collects the seconds of each decision that had a choice, by seat.
    """
    import time

    while not match.over:
        seat = match.to_act
        assert seat is not None  # someone is to act until the match is over
        view = match.view_for(seat)
        if timings is not None and len(view.deal.legal) > 1:
            start = time.perf_counter()
            action = players[seat].choose(view)
            timings.setdefault(seat, []).append(time.perf_counter() - start)
        else:
            action = players[seat].choose(view)
        match.apply(action, seat)
    return match


def _tally(result: DuelResult, match: Match, a_side: int) -> int:
    """Add one match to the result; return the games side A won in it."""
    sides = {a_side: result.side_a, 1 - a_side: result.side_b}
    for hand in match.hand_results:
        result.hands += 1
        for s in (0, 1):
            sides[s].points += hand.points[s]
        if hand.maker is None:
            continue
        makers = sides[hand.maker & 1]
        good = hand.outcome != "euchred"
        makers.made += 1
        makers.made_good += good
        if hand.alone is not None:
            makers.lone += 1
            makers.lone_good += good
            makers.lone_marches += hand.outcome == "march"
    a_games = 0
    for game in match.games:
        result.games += 1
        sides[game.winner].games += 1
        a_games += game.winner == a_side
    result.matches += 1
    winner = match.winner
    if winner is not None:
        sides[winner].matches += 1
    rp = match.rubber_points
    sides[0].rubber_points += rp[0]
    sides[1].rubber_points += rp[1]
    return a_games


def _run_pairs(
    args: tuple[str, str, dict[str, Any], list[int], int, int | None, bool],
) -> DuelResult:
    a, b, options_dict, indices, seed, budget, timed = args

    def seat_players(swapped: bool, deck_seed: int, match: Match) -> list[Any]:
        return _seat_players(a, b, swapped, deck_seed, budget)

    return play_pairs(a, b, options_from_dict(options_dict), indices, seed, seat_players, timed)


def play_pairs(
    a: str,
    b: str,
    options: Options,
    indices: list[int],
    seed: int,
    seat_players: Callable[[bool, int, Match], list[Any]],
    timed: bool = False,
) -> DuelResult:
    """Play the pack orders `indices` of a duel twice each, the second time with sides swapped.

    `seat_players(swapped, deck_seed, match)` gives the four seats' players for one match (A
    at seats 0 and 2 unless `swapped`); it is handed the new match, which a yardstick player
    may look into (`bench/ceiling.py`).
    """
    result = DuelResult(a, b, options.preset, 0, seed, preset_is_rubber=options.is_rubber)
    for i in indices:
        deck_seed = seed * 1_000_003 + i
        games_in_pair = 0
        a_games = 0
        for swapped in (False, True):
            match = Match(options, i % 4, random.Random(deck_seed))
            players = seat_players(swapped, deck_seed, match)
            timings: dict[int, list[float]] | None = {} if timed else None
            play_out(match, players, timings)
            a_side = 1 if swapped else 0
            a_games += _tally(result, match, a_side)
            games_in_pair += len(match.games)
            if timings:
                for seat, times in timings.items():
                    level = a if (seat & 1) == a_side else b
                    result.decisions.setdefault(level, []).extend(times)
        result.pairs += 1
        result.pair_shares.append(a_games / games_in_pair if games_in_pair else 0.5)
    return result


def run_duel(
    a: str,
    b: str,
    options: Options,
    pairs: int,
    seed: int = 0,
    workers: int = 1,
    budget: int | None = None,
    timed: bool = False,
) -> DuelResult:
    """Play `pairs` pack orders twice each (sides swapped) between levels `a` and `b`.

    Args:
        a: the level of partnership A (seats 0 and 2 in the first match of each pair).
        b: the level of partnership B.
        options: the table's options (a preset with overrides).
        pairs: how many pack orders; 2 * pairs matches are played.
        seed: the seed of the pack orders and of the players.
        workers: processes to spread the pairs over (1 plays in this process).
        budget: the expert's search budget (None: the table default).
        timed: collect each decision's time by level (in `DuelResult.decisions`).
    """
    for level in (a, b):
        if level not in DUEL_LEVELS:
            raise ValueError(f"unknown level {level!r}: choose {', '.join(DUEL_LEVELS)}")
    result = DuelResult(a, b, options.preset, 0, seed, preset_is_rubber=options.is_rubber)
    indices = list(range(pairs))
    if workers <= 1 or pairs < 2:
        result.merge(_run_pairs((a, b, options.to_dict(), indices, seed, budget, timed)))
        return result
    chunks = [indices[w :: workers * 4] for w in range(workers * 4)]
    jobs = [(a, b, options.to_dict(), c, seed, budget, timed) for c in chunks if c]
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for part in pool.map(_run_pairs, jobs):
            result.merge(part)
    return result


class RandomPlayer:
    """Any legal action, drawn from the seed and the view (a baseline for duels)."""

    level = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed

    def choose(self, view: MatchView) -> str:
        return seeded_rng(self.seed, view, "random").choice(view.deal.legal)


def describe(result: DuelResult) -> list[str]:
    """The duel's figures as lines of text (side A's share of games with its 95% interval,
    points per hand, makers' success and lone hands for each side)."""
    low, high = result.confidence()
    a, b = result.side_a, result.side_b
    lines = [
        f"{result.matches} match{'es' if result.matches != 1 else ''} ({result.pairs} pack"
        f" order{'s' if result.pairs != 1 else ''}, each played twice with the sides swapped),"
        f" preset {result.preset}, seed {result.seed}",
        f"A ({result.a}) won {a.games} of {result.games} games ({result.a_share:.1%}, 95% CI "
        f"{low:.1%}-{high:.1%}); B ({result.b}) won {b.games}",
    ]
    if result.matches and any(m for m in (a.matches, b.matches)):
        lines.append(
            f"Matches won: A {a.matches}, B {b.matches}"
            + (
                f"; rubber points A {a.rubber_points}, B {b.rubber_points}"
                if result.preset_is_rubber
                else ""
            )
        )
    for name, s in (("A", a), ("B", b)):
        pph = s.points / result.hands if result.hands else 0.0
        made = f"{s.made_good}/{s.made} ({s.made_good / s.made:.1%})" if s.made else "0/0"
        lone = f"{s.lone_good}/{s.lone} made, {s.lone_marches} marches" if s.lone else "none"
        lines.append(
            f"{name}: {pph:.3f} points per hand; makers' success {made}; lone hands {lone}"
        )
    return lines
