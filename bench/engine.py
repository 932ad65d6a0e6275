"""How fast the rules engine plays random full deals: the computer players' playout loop.

A "random full deal" is what one playout of a computer player does through the public API:
shuffle a fresh pack with a seeded `random.Random`, both rounds of bidding, the discard, the
play and the score, each action chosen at random among the legal ones:

    d = Deal.shuffled(options, dealer, rng)
    while not d.is_over:
        acts = d.legal_actions()
        d.apply(acts[int(r() * len(acts))])

The figure is deals per second on one core (Python runs this on a single thread), best of
several runs of a few seconds each and their median: the machine is shared, and the best run
is the one least disturbed by others. It also prints the mean cost of one `legal_actions` +
`apply` pair, a breakdown of a deal's time (set-up and shuffle, bidding, play), and the ratio
to the issue's reference: OpenSpiel's C++ euchre driven from Python the same way, about 10,500
deals per second on these machines. OpenSpiel is not installed here, so that figure is a stated
constant, not measured.

Run from the repository root (not part of the test run):

    python bench/engine.py                       # every preset, about 40 seconds
    python bench/engine.py --preset somerset --seconds 2 --runs 7
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import time

from bot.engine.deal import PLAY, Deal
from bot.engine.rules import Options, build_options

# The scale: OpenSpiel's C++ euchre driven from Python, deals per second here.
OPENSPIEL_CPP_DEALS_PER_SECOND = 10_500
# What the computer players need (issue 2).
TARGET_DEALS_PER_SECOND = 20_000

PRESETS = ("somerset", "modern", "somerset+joker")


def options_for(name: str) -> Options:
    """Options from a preset name, with `+joker` to add the Joker (`somerset+joker`)."""
    preset, _, extra = name.partition("+")
    if extra not in ("", "joker"):
        raise SystemExit(f"unknown preset {name!r}: use a preset name, optionally with +joker")
    return build_options(preset, joker=True) if extra else build_options(preset)


def timed_run(options: Options, seconds: float, seed: int) -> tuple[int, float]:
    """Play random full deals for about `seconds`, exactly as a playout does.

    Returns:
        (deals, elapsed seconds).
    """
    rng = random.Random(seed)
    r = rng.random
    shuffled = Deal.shuffled
    perf = time.perf_counter
    deals = 0
    start = perf()
    end = start + seconds
    while True:
        # Check the clock every 64 deals only, so the clock does not weigh on the figure.
        for i in range(64):
            d = shuffled(options, i & 3, rng)
            while not d.is_over:
                acts = d.legal_actions()
                d.apply(acts[int(r() * len(acts))])
        deals += 64
        now = perf()
        if now >= end:
            return deals, now - start


def breakdown(options: Options, deals: int, seed: int) -> dict[str, float]:
    """Time each part of a deal separately: set-up and shuffle, bidding (with discard), play.

    The clock is read around each part, so this run is a little slower than the timed ones;
    it gives the shares, and the per-action cost of the loop body.
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


def bench_preset(name: str, seconds: float, runs: int) -> float:
    """Measure and print one preset; returns the best deals per second."""
    options = options_for(name)
    timed_run(options, min(seconds, 0.5), 0)  # warm up caches and the specialising interpreter
    rates = []
    for k in range(runs):
        deals, elapsed = timed_run(options, seconds, 1 + k)
        rates.append(deals / elapsed)
    best, median = max(rates), statistics.median(rates)
    parts = breakdown(options, 20_000, 12345)
    total = parts["setup_us"] + parts["bidding_us"] + parts["play_us"]
    verdict = "meets" if best >= TARGET_DEALS_PER_SECOND else "BELOW"
    print(f"\n{name}: {options.pack}-card pack{', Joker' if options.joker else ''}")
    print(f"  deals/s on one core: best {best:,.0f}   median {median:,.0f}   "
          f"({runs} runs of {seconds:g} s: {', '.join(f'{x:,.0f}' for x in rates)})")
    print(f"  target {TARGET_DEALS_PER_SECOND:,}: {verdict};  "
          f"vs OpenSpiel C++ reference {OPENSPIEL_CPP_DEALS_PER_SECOND:,}/s (stated, not measured): "
          f"x{best / OPENSPIEL_CPP_DEALS_PER_SECOND:.2f}")
    actions = parts["bid_actions"] + parts["play_actions"]
    print(f"  per deal: {1e6 / best:.1f} us at best; {actions:.1f} actions on average")
    print(f"  legal_actions + apply: {parts['action_us']:.2f} us per action (mean, timed breakdown run)")
    print(f"  breakdown per deal ({total:.1f} us with the clock read around each part):")
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
    parser.add_argument("--preset", action="append",
                        help="somerset, jerome or modern, optionally +joker; repeatable "
                             "(default: somerset, modern, somerset+joker)")
    parser.add_argument("--seconds", type=float, default=2.0, help="length of each run (default 2)")
    parser.add_argument("--runs", type=int, default=5, help="runs per preset (default 5)")
    args = parser.parse_args(argv)
    if args.seconds <= 0 or args.runs < 1:
        parser.error("--seconds must be positive and --runs at least 1")
    print(f"Python {platform.python_version()} ({platform.python_implementation()}) "
          f"on {platform.machine()}; one core, single thread")
    for name in args.preset or PRESETS:
        bench_preset(name, args.seconds, args.runs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
