"""How fast the rules engine plays random full deals: the computer players' playout loop.

A "random full deal" is what one playout of a computer player does through the public API:
shuffle a fresh pack with a seeded `random.Random`, both rounds of bidding, the discard, the
play and the score, each action chosen at random among the legal ones:

    d = Deal.shuffled(options, dealer, rng)
    while not d.is_over:
        acts = d.legal_actions()
        d.apply(acts[int(r() * len(acts))])

The figure is deals per second on one core (Python runs this on a single thread): best of
several runs of a few seconds each, and their median. The machine is shared, so the best run
is the one least disturbed by other work; the same runs are also given by the process's CPU
time, which other processes disturb less. It also prints the mean cost of one
`legal_actions` + `apply` pair, with the cost of the loop itself (the random choice and two
calls, measured on a stand-in deal that does nothing), a breakdown of a deal's time (set-up
and shuffle, bidding, play), and the ratio to the issue's reference: OpenSpiel's C++ euchre
driven from Python the same way, about 10,500 deals per second on these machines. OpenSpiel
is not installed here, so that figure is a stated constant, not measured.

Run from the repository root (not part of the test run):

    python bench/engine.py                       # somerset, modern, somerset+joker: ~40 s
    python bench/engine.py --preset somerset --seconds 3 --runs 7
    python bench/engine.py --preset napoleon:5   # a variant (bot.engine.variants), players after ':'
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import time

from bot.engine.deal import PLAY, Deal
from bot.engine.errors import OptionsError
from bot.engine.rules import Options, build_options
from bot.engine.variants import VARIANT_NAMES, Variant, VariantDeal, make_variant

# The scale: OpenSpiel's C++ euchre driven from Python, deals per second here.
OPENSPIEL_CPP_DEALS_PER_SECOND = 10_500
# What the computer players need (issue 2).
TARGET_DEALS_PER_SECOND = 20_000

PRESETS = ("somerset", "modern", "somerset+joker")
_BATCH = 64  # deals between two readings of the clock


def options_for(name: str) -> Options:
    """Options from a preset name, with `+joker` to add the Joker (`somerset+joker`)."""
    preset, _, extra = name.partition("+")
    if extra not in ("", "joker"):
        raise SystemExit(f"unknown preset {name!r}: use a preset name, optionally with +joker")
    try:
        return build_options(preset, joker=True) if extra else build_options(preset)
    except OptionsError as exc:
        raise SystemExit(str(exc)) from None


def variant_for(name: str) -> Variant | None:
    """The variant a preset name stands for (`napoleon` or `napoleon:5`), or None for a preset."""
    variant, _, players = name.partition(":")
    if variant not in VARIANT_NAMES:
        return None
    try:
        return make_variant(variant, int(players) if players else None)
    except (OptionsError, ValueError) as exc:
        raise SystemExit(str(exc)) from None


def variant_run(variant: Variant, seconds: float, seed: int) -> tuple[int, float]:
    """Random full deals of a variant for about `seconds`, as `timed_run` plays the presets.

    Returns:
        (deals, elapsed wall-clock seconds).
    """
    rng = random.Random(seed)
    r = rng.random
    shuffled = VariantDeal.shuffled
    n = variant.players
    deals = 0
    start = time.perf_counter()
    end = start + seconds
    while True:
        for i in range(_BATCH):
            d = shuffled(variant, i % n, rng)
            while not d.is_over:
                acts = d.legal_actions()
                d.apply(acts[int(r() * len(acts))])
        deals += _BATCH
        now = time.perf_counter()
        if now >= end:
            return deals, now - start


def bench_variant(variant: Variant, seconds: float, runs: int) -> float:
    """Measure and print one variant; returns the best deals per second."""
    variant_run(variant, min(seconds, 0.5), 0)
    rates = []
    for k in range(runs):
        deals, wall = variant_run(variant, seconds, 1 + k)
        rates.append(deals / wall)
    best = max(rates)
    print(f"\n{variant.name}: {variant.players} players, {len(variant.pack)}-card pack")
    print(
        f"  deals/s on one core: best {best:,.0f}   median {statistics.median(rates):,.0f}   "
        f"({runs} runs of {seconds:g} s)"
    )
    return best


def timed_run(options: Options, seconds: float, seed: int) -> tuple[int, float, float]:
    """Play random full deals for about `seconds`, exactly as a playout does.

    Returns:
        (deals, elapsed wall-clock seconds, CPU seconds of this process).
    """
    rng = random.Random(seed)
    r = rng.random
    shuffled = Deal.shuffled
    perf, cpu = time.perf_counter, time.process_time
    deals = 0
    start, cpu_start = perf(), cpu()
    end = start + seconds
    while True:
        # The clock is read once per batch, so it does not weigh on the figure.
        for i in range(_BATCH):
            d = shuffled(options, i & 3, rng)
            while not d.is_over:
                acts = d.legal_actions()
                d.apply(acts[int(r() * len(acts))])
        deals += _BATCH
        now = perf()
        if now >= end:
            return deals, now - start, cpu() - cpu_start


class _StandIn:
    """A deal that does nothing: twenty actions of three choices, to time the loop alone."""

    __slots__ = ("is_over", "_left")
    _ACTIONS = ("a", "b", "c")

    def __init__(self) -> None:
        self.is_over = False
        self._left = 20

    def legal_actions(self) -> tuple[str, ...]:
        return self._ACTIONS

    def apply(self, action: str, seat: int | None = None) -> None:
        self._left -= 1
        if not self._left:
            self.is_over = True


def loop_cost(actions: int = 400_000) -> float:
    """Microseconds per action of the playout loop itself, on the stand-in (best of three)."""
    best = float("inf")
    for _ in range(3):
        rng = random.Random(0)
        r = rng.random
        start = time.perf_counter()
        for _ in range(actions // 20):
            d = _StandIn()
            while not d.is_over:
                acts = d.legal_actions()
                d.apply(acts[int(r() * len(acts))])
        best = min(best, time.perf_counter() - start)
    return best / actions * 1e6


def breakdown(options: Options, deals: int, seed: int) -> dict[str, float]:
    """Time each part of a deal separately: set-up and shuffle, bidding (with discard), play.

    The clock is read around each part, so this run is a little slower than the timed ones;
    it gives the shares, and the mean cost of an action.
    """
    rng = random.Random(seed)
    r = rng.random
    perf = time.perf_counter
    setup = bidding = play = 0.0
    bid_actions = play_actions = 0
    for i in range(deals):
        t0 = perf()
        d = Deal.shuffled(options, i & 3, rng)
        t1 = perf()
        while d.phase != PLAY and not d.is_over:
            acts = d.legal_actions()
            d.apply(acts[int(r() * len(acts))])
            bid_actions += 1
        t2 = perf()
        while not d.is_over:
            acts = d.legal_actions()
            d.apply(acts[int(r() * len(acts))])
            play_actions += 1
        t3 = perf()
        setup += t1 - t0
        bidding += t2 - t1
        play += t3 - t2
    return {
        "setup_us": setup / deals * 1e6,
        "bidding_us": bidding / deals * 1e6,
        "play_us": play / deals * 1e6,
        "bid_actions": bid_actions / deals,
        "play_actions": play_actions / deals,
        "action_us": (bidding + play) / (bid_actions + play_actions) * 1e6,
    }


def bench_preset(name: str, seconds: float, runs: int, loop_us: float) -> float:
    """Measure and print one preset; returns the best deals per second."""
    options = options_for(name)
    timed_run(options, min(seconds, 0.5), 0)  # warm up the caches and the specialising interpreter
    walls, cpus = [], []
    for k in range(runs):
        deals, wall, cpu = timed_run(options, seconds, 1 + k)
        walls.append(deals / wall)
        cpus.append(deals / cpu if cpu > 0 else float("nan"))
    best, median = max(walls), statistics.median(walls)
    parts = breakdown(options, 20_000, 12345)
    total = parts["setup_us"] + parts["bidding_us"] + parts["play_us"]
    actions = parts["bid_actions"] + parts["play_actions"]
    verdict = "met" if best >= TARGET_DEALS_PER_SECOND else "NOT met"
    print(f"\n{name}: {options.pack}-card pack{', Joker' if options.joker else ''}")
    print(
        f"  deals/s on one core: best {best:,.0f}   median {median:,.0f}   "
        f"({runs} runs of {seconds:g} s: {', '.join(f'{x:,.0f}' for x in walls)})"
    )
    print(f"  by CPU time:         best {max(cpus):,.0f}   median {statistics.median(cpus):,.0f}")
    print(
        f"  target {TARGET_DEALS_PER_SECOND:,} (best run): {verdict};   ratio to OpenSpiel C++ "
        f"reference {OPENSPIEL_CPP_DEALS_PER_SECOND:,}/s (stated, not measured): "
        f"x{best / OPENSPIEL_CPP_DEALS_PER_SECOND:.2f}"
    )
    print(f"  per deal: {1e6 / best:.1f} us at the best rate; {actions:.1f} actions on average")
    print(
        f"  legal_actions + apply: {parts['action_us']:.2f} us per action, with the random "
        f"choice; the loop alone costs {loop_us:.2f} of it"
    )
    print(f"  breakdown per deal ({total:.1f} us, the clock read around each part):")
    for label, key, count in (
        ("set-up and shuffle", "setup_us", None),
        ("bidding and discard", "bidding_us", "bid_actions"),
        ("play", "play_us", "play_actions"),
    ):
        extra = f"  ({parts[count]:.1f} actions)" if count else ""
        print(f"    {label:<20} {parts[key]:6.1f} us  {parts[key] / total:5.1%}{extra}")
    return best


def main(argv: list[str] | None = None) -> int:
    """Parse the arguments, run the benchmark for each preset asked, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--preset",
        action="append",
        help="somerset, jerome or modern, optionally +joker, or a variant (napoleon:5); repeatable "
        "(default: somerset, modern, somerset+joker)",
    )
    parser.add_argument("--seconds", type=float, default=2.0, help="length of each run (default 2)")
    parser.add_argument("--runs", type=int, default=5, help="runs per preset (default 5)")
    args = parser.parse_args(argv)
    if args.seconds <= 0 or args.runs < 1:
        parser.error("--seconds must be positive and --runs at least 1")
    names = args.preset or list(PRESETS)
    for name in names:
        if variant_for(name) is None:
            options_for(name)  # refuse a bad name before a minute of measuring
    print(
        f"Python {platform.python_version()} ({platform.python_implementation()}) "
        f"on {platform.machine()}; one core, single thread"
    )
    loop_us = loop_cost()
    results = {}
    for name in names:
        variant = variant_for(name)
        if variant is None:
            results[name] = bench_preset(name, args.seconds, args.runs, loop_us)
        else:
            results[name] = bench_variant(variant, args.seconds, args.runs)
    print("\nbest deals/s: " + ";  ".join(f"{name} {rate:,.0f}" for name, rate in results.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
