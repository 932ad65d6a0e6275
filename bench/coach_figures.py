"""How steady and how close the hint's figures are: their spread across seeds on fixed positions.

For a few positions of each kind (the bidding, the dealer's discard, the first three tricks, the
fourth trick), the hint's "three tricks or more" share after the expert's choice is computed
with several seeds at the bot's budget, and compared with a reference: at the fourth trick the
count over every placement of the unseen cards, weighted as the coach weighs them and played out
by minimax (`tests/ai/test_coach_advice.exact_shares`); elsewhere the coach's own share over
3,000 worlds. It prints each position's shares, their standard deviation across seeds, the
error against the reference, the margin the hint states (its `spread`), and the CPU time of a
hint. `--resampled` gives the figures as they were before the coach weighed every world (the
expert's worlds, resampled), for a before-and-after.

Run from the repository root (not part of the test run); a kind takes a minute or two:

    python bench/coach_figures.py late
    python bench/coach_figures.py bid --seeds 8 --resampled
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

# Run as `python bench/coach_figures.py` from the repository root without installing.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import bot.ai.coach as coach
from bot.ai.expert import ExpertPlayer
from bot.ai.sampling import sample_worlds
from bot.engine.deal import PLAY
from bot.engine.match import Match, MatchView
from bot.engine.rules import build_options
from tests.ai.test_coach_advice import exact_shares, late_positions

PHASES = {"bid": ("round_one", "round_two"), "discard": ("discard",), "early": (PLAY,)}


def positions(kind: str, seed: int, count: int) -> list[MatchView]:
    """`count` decisions of `kind` with a choice to make, from random `modern` deals."""
    if kind == "late":
        return [v for s in range(seed, seed + 6) for v in late_positions(s, 3)]
    rng = random.Random(seed)
    out: list[MatchView] = []
    for n in range(400):
        match = Match(build_options("modern"), rng.randrange(4), rng=random.Random(seed * 991 + n))
        deal = match.deals[0]
        stop = rng.randrange(0, 9)
        for i in range(40):
            if deal.is_over:
                break
            v = match.view_for(match.to_act)
            d = v.deal
            if d.phase in PHASES[kind] and len(d.legal) > 1 and i >= stop:
                out.append(v)
                break
            if d.phase == PLAY and (kind != "early" or len(d.tricks) >= 2):
                break
            match.apply(rng.choice(list(d.legal)), match.to_act)
        if len(out) == count:
            break
    return out


def reference(kind: str, v: MatchView, choice: str) -> float:
    """The share to compare with: counted exactly at the fourth trick, else over 3,000 worlds."""
    if kind == "late":
        return exact_shares(v, choice)[0]
    expert = ExpertPlayer(12345, budget=1500)
    expert.choose = lambda view: choice  # type: ignore[method-assign]
    return coach.analyse(expert, v).makes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("kind", choices=("bid", "discard", "early", "late"))
    parser.add_argument("--seeds", type=int, default=8, help="seeds a position (default 8)")
    parser.add_argument("--positions", type=int, default=6, help="positions (default 6)")
    parser.add_argument("--seed", type=int, default=1, help="which positions (default 1)")
    parser.add_argument("--resampled", action="store_true", help="the figures as they were")
    args = parser.parse_args()
    views = positions(args.kind, args.seed, args.positions)
    refs = {}
    for v in views:
        choice = coach.analyse(ExpertPlayer(0), v).choice
        refs[id(v)] = (reference(args.kind, v, choice), choice)
    if args.kind == "late":  # the positions whose share is not a certainty
        views = [v for v in views if 0.02 < refs[id(v)][0] < 0.98][: args.positions]
    if args.resampled:
        coach.BIDDING_FIGURES = coach.PLAY_FIGURES = coach.LATE_FIGURES = 1
        coach.weighted_worlds = lambda k, n, rng, even=False: sample_worlds(k, n, rng)  # type: ignore[assignment]
    errors: list[float] = []
    sds: list[float] = []
    spreads: list[float] = []
    times: list[float] = []
    for v in views:
        ref, choice = refs[id(v)]
        shares = []
        for seed in range(args.seeds):
            start = time.process_time()
            a = coach.analyse(ExpertPlayer(seed), v)
            times.append(time.process_time() - start)
            shares.append(a.makes)
            spreads.append(a.spread)
            if a.choice == choice:
                errors.append(abs(a.makes - ref))
        sds.append(statistics.pstdev(shares))
        print(
            f"reference {ref:.2f} ({choice}): {' '.join(f'{s:.2f}' for s in shares)};"
            f" sd {sds[-1]:.3f}"
        )
    print(
        f"{args.kind}: sd across seeds mean {statistics.mean(sds):.3f}, max {max(sds):.3f};"
        f" error mean {statistics.mean(errors):.3f}, max {max(errors):.2f},"
        f" over 0.15 in {sum(e > 0.15 for e in errors)} of {len(errors)};"
        f" stated spread mean {statistics.mean(spreads):.3f}"
    )
    print(
        f"CPU a hint: median {statistics.median(times) * 1000:.0f} ms,"
        f" max {max(times) * 1000:.0f} ms"
    )


if __name__ == "__main__":
    main()
