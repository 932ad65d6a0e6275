"""What the hidden cards cost the expert: duels of an expert that is shown every hand.

    python bench/ceiling.py                             # bid, play, all v standard; all v easy
    python bench/ceiling.py --sees all --against easy --pairs 100

A "seeing" expert is the expert level with one change: at the decisions it is shown, it
searches the true deal (every hand and the kitty) instead of worlds sampled from what its
seat knows. `--sees bid` shows it the cards in the bidding only (it plays the cards as the
expert does), `--sees play` in the play only, `--sees all` in both. It cannot be a player at a
table: it is a yardstick. Its share of games against a level is the most any player could
win there by knowing more in that part of the deal, which puts the marks of `bench/ai.py` in
proportion. Duplicate deals as in `bench/ai.py`: each pack order is played twice, sides
swapped; the 95% interval comes from the spread over pack orders.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.ai.duel import DuelResult, describe, play_pairs, player
from bot.ai.expert import DEFAULT_BUDGET, ExpertPlayer
from bot.ai.knowledge import Knowledge
from bot.ai.sampling import World, true_world
from bot.engine.deal import PLAY
from bot.engine.match import Match
from bot.engine.rules import build_options

SEES = ("bid", "play", "all")


class SeeingExpert(ExpertPlayer):
    """The expert, shown the true deal (`self.match.deal`) at the decisions `sees` names."""

    def __init__(self, seed: int, budget: int | None, sees: str, match: Match) -> None:
        super().__init__(seed, budget)
        self.sees = sees
        self.match = match

    def worlds(self, k: Knowledge, count: int, rng: random.Random) -> list[World]:
        shown = self.sees == "all" or (self.sees == "play") == (k.phase == PLAY)
        if not shown:
            return super().worlds(k, count, rng)
        # (Where a dealer may throw out the turn-up, jerome, a seat counts it as held; the
        # bench plays modern and somerset, where he may not.)
        return [true_world(k, self.match.deal.hands)]


def _pairs(args: tuple[str, str, str, list[int], int, int | None]) -> DuelResult:
    sees, against, preset, indices, seed, budget = args

    def seat_players(swapped: bool, deck_seed: int, match: Match) -> list[ExpertPlayer]:
        a_side = 1 if swapped else 0
        return [
            SeeingExpert(deck_seed * 4 + s, budget, sees, match)
            if (s & 1) == a_side
            else player(against, deck_seed * 4 + s, budget)
            for s in range(4)
        ]

    return play_pairs(
        f"expert sees {sees}", against, build_options(preset), indices, seed, seat_players
    )


def duel(
    sees: str, against: str, preset: str, pairs: int, seed: int, budget: int | None, workers: int
) -> DuelResult:
    """`pairs` pack orders, each played twice, of a seeing expert against `against`."""
    indices = list(range(pairs))
    chunks = [indices[w :: workers * 4] for w in range(workers * 4)]
    jobs = [(sees, against, preset, c, seed, budget) for c in chunks if c]
    total = DuelResult(
        f"expert sees {sees}",
        against,
        preset,
        0,
        seed,
        preset_is_rubber=build_options(preset).is_rubber,
    )
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for part in pool.map(_pairs, jobs):
            total.merge(part)
    return total


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--sees",
        choices=SEES,
        action="append",
        help="where the expert is shown the cards (repeatable; default: each)",
    )
    parser.add_argument("--against", default="standard", help="the other side's level")
    parser.add_argument("--preset", default="modern")
    parser.add_argument("--pairs", type=int, default=200, help="pack orders, each played twice")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument(
        "--budget",
        type=int,
        default=None,
        help=f"worlds where it is not shown the cards (default {DEFAULT_BUDGET})",
    )
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--json", action="store_true", help="one JSON object per duel")
    args = parser.parse_args(argv)
    plans = [(s, args.against) for s in (args.sees or SEES)]
    if not args.sees and args.against == "standard":
        plans.append(("all", "easy"))
    for sees, against in plans:
        start = time.perf_counter()
        result = duel(sees, against, args.preset, args.pairs, args.seed, args.budget, args.workers)
        elapsed = time.perf_counter() - start
        if args.json:
            print(json.dumps({**result.to_dict(), "sees": sees, "seconds": round(elapsed, 1)}))
        else:
            print(f"== expert shown the cards in: {sees}; against {against} ({elapsed:.0f} s)")
            for line in describe(result):
                print("   " + line)
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
