"""The variants: random deals per second, the rules checked over many seeded deals, and duels.

    python bench/variants.py rates [--seconds 2]        # random full deals/s, every table
    python bench/variants.py check [--deals 100000]     # audit that many seeded deals per variant
    python bench/variants.py duel [--pairs 200] [--variant NAME]   # standard against easy

`rates` plays random full deals exactly as a playout would (shuffle, auction, play, score), on
one core, for every variant and seat count; the target is 10,000 deals/s. `check` plays seeded
random deals and runs `variants.audit` on each (every card in one place, whole tricks, the hand
size but for Napoleon's early end, chips summing to zero, set-back's moves, no maker above his
bid); at every step it also tries an action that is not legal and one out of turn, which must be
refused and change nothing; it prints how many failed (0 expected). `duel` runs `bot.ai.variant_duel` (standard in
the tested seats, easy around them, against easy everywhere on the same cards) and prints the
share with its 95% interval.

Run from the repository root; not part of the test run.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter

from bot.ai.variant_duel import run_variant_duel
from bot.engine.variants import VariantDeal, make_variant, seats_allowed
from bot.engine.variants.audit import EVERY_ACTION, deal_problems, refusal_problem
from bot.engine.variants.rules import NAMES, Variant

TARGET = 10_000
DUEL_TABLES = (
    ("two-handed", 2),
    ("three-handed", 3),
    ("french", 4),
    ("napoleon", 4),
    ("six-handed", 6),
    ("set-back", 3),
)


def tables() -> list[tuple[str, int]]:
    """Every variant at every seat count it allows."""
    return [(n, p) for n in NAMES for p in range(seats_allowed(n)[0], seats_allowed(n)[1] + 1)]


def timed_run(variant: Variant, seconds: float, seed: int) -> tuple[float, float]:
    """Random full deals per second over about `seconds`: by the wall clock, and by this
    process's CPU time (which other work on a shared machine disturbs less)."""
    rng = random.Random(seed)
    r = rng.random
    shuffled = VariantDeal.shuffled
    n = variant.players
    deals = 0
    start, cpu = time.perf_counter(), time.process_time()
    end = start + seconds
    while True:
        for i in range(64):
            d = shuffled(variant, i % n, rng)
            while not d.is_over:
                acts = d.legal_actions()
                d.apply(acts[int(r() * len(acts))])
        deals += 64
        now = time.perf_counter()
        if now >= end:
            return deals / (now - start), deals / max(time.process_time() - cpu, 1e-9)


def rates(seconds: float, runs: int) -> None:
    print(
        f"random full deals/s on one core, best of {runs} runs of {seconds:g} s (target {TARGET:,})"
    )
    for name, players in tables():
        variant = make_variant(name, players)
        timed_run(variant, 0.2, 0)
        measured = [timed_run(variant, seconds, k) for k in range(runs)]
        best = max(wall for wall, _ in measured)
        best_cpu = max(cpu for _, cpu in measured)
        verdict = "met" if max(best, best_cpu) >= TARGET else "NOT met"
        print(
            f"  {name:<13} {players} players  wall {best:>9,.0f}  by CPU time {best_cpu:>9,.0f}"
            f"  {verdict}"
        )


def check(deals: int) -> None:
    print(f"{deals:,} seeded random deals per variant, each audited")
    for name in NAMES:
        low, high = seats_allowed(name)
        options = {"declare_all": True, "euchre_deducts": True} if name == "set-back" else {}
        variants = [make_variant(name, p, **options) for p in range(low, high + 1)]
        problems: Counter[str] = Counter()
        early = passed = 0
        start = time.perf_counter()
        for seed in range(deals):
            rng = random.Random(seed)
            variant = variants[seed % len(variants)]
            d = VariantDeal.shuffled(variant, rng.randrange(variant.players), rng)
            while not d.is_over:
                acts = d.legal_actions()
                seat = d.to_act
                assert seat is not None
                tried = [a for a in rng.sample(EVERY_ACTION, 3) if a not in acts][:1]
                refusals = [refusal_problem(d, a, seat) for a in tried]
                refusals.append(refusal_problem(d, acts[0], (seat + 1) % variant.players))
                problems.update(p for p in refusals if p)
                d.apply(acts[int(rng.random() * len(acts))], seat)
            problems.update(deal_problems(d))
            assert d.result is not None
            early += d.result.early
            passed += d.result.maker is None
        took = time.perf_counter() - start
        print(
            f"  {name:<13} {sum(problems.values())} problems; {passed:,} passed, "
            f"{early:,} ended early ({took:.0f} s)"
        )
        for problem, count in problems.most_common():
            print(f"      {count} x {problem}")


def duel(pairs: int, seed: int, only: list[str] | None) -> None:
    print(f"standard against easy: {pairs} pack orders each, seed {seed}")
    for name, players in DUEL_TABLES:
        if only and name not in only:
            continue
        start = time.perf_counter()
        result = run_variant_duel(make_variant(name, players), "standard", "easy", pairs, seed)
        low, high = result.confidence()
        verdict = "above 50%" if low > 0.5 else "NOT above 50%"
        print(
            f"  {name:<13} {players} players  share {result.share:.1%}  95% interval "
            f"{low:.1%} to {high:.1%} ({verdict}); games won {result.a_wins} against "
            f"{result.b_wins}, unfinished {result.unfinished} ({time.perf_counter() - start:.0f} s)"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("what", choices=("rates", "check", "duel"))
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--deals", type=int, default=100_000)
    parser.add_argument("--pairs", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--variant", action="append", choices=NAMES, help="duel only these (repeatable)"
    )
    args = parser.parse_args(argv)
    if args.what == "rates":
        rates(args.seconds, args.runs)
    elif args.what == "check":
        check(args.deals)
    else:
        duel(args.pairs, args.seed, args.variant)
    return 0


if __name__ == "__main__":
    sys.exit(main())
