"""Fuzz every record reader with a hundred thousand inputs: none may end in a traceback.

    python bench/fuzz_records.py                       # 100,000 inputs, seed 1; about 10 minutes
    python bench/fuzz_records.py --inputs 5000 --seed 7

Each input is read as `python -m bot replay` reads a file (`read_record`, then both outputs
written): mutations of the real example files and of records the bot writes (EGN, EMN, the
bot's own record; `tests/support/record_fuzz.py`), structures generated at random under each
kind's header, and condensed deal strings of random bits. Every input must be replayed or refused
with a `RecordError`. Prints the inputs, the seconds, the results by kind, and for any other
exception its type, where it was raised and the input's number (the same seed gives the same
inputs, so `--first N --inputs 1` reproduces input N). Exits 1 if there was any.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
import traceback
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.engine.egn import FILE_TYPE, MATCH_FILE_TYPE
from bot.engine.records import RECORD_FORMAT
from tests.support.record_fuzz import condensed, mutate, random_json, replay_kind, sources

# What each generated structure is put under, so the readers get past the header.
HEADERS: tuple[dict[str, Any], ...] = (
    {"fileType": FILE_TYPE, "version": "1.4"},
    {"fileType": MATCH_FILE_TYPE, "version": "1.0"},
    {"format": RECORD_FORMAT, "version": 1},
    {},
)
FIELDS = ("metadata", "deals", "games", "options", "players", "first_dealer", "final_score")


def make_input(rng: random.Random) -> tuple[str, Any]:
    """One input, and where it came from."""
    roll = rng.random()
    if roll < 0.7:
        name, document = rng.choice(sources())
        return f"mutation of {name}", mutate(document, rng, rng.randrange(1, 5))
    if roll < 0.85:
        header = rng.choice(HEADERS)
        body = {rng.choice(FIELDS): random_json(rng, 4) for _ in range(rng.randrange(1, 5))}
        return "generated structure", {**header, **body}
    deals = [condensed(rng) for _ in range(rng.randrange(1, 4))]
    metadata = {"players": ["a", "b", "c", "d"], "initialScore": [0, 0]}
    return "condensed deals", {**HEADERS[0], "metadata": metadata, "deals": deals}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--inputs", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--first", type=int, default=0, help="skip this many inputs first")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    results: Counter[str] = Counter()
    by_origin: Counter[str] = Counter()
    failures: list[str] = []
    start = time.perf_counter()
    for number in range(args.first + args.inputs):
        origin, data = make_input(rng)
        if number < args.first:
            continue
        by_origin[origin.split(" of ")[0]] += 1
        try:
            results[replay_kind(data)] += 1
        except Exception as exc:  # the point of the run: count what should never happen
            results[f"traceback: {type(exc).__name__}"] += 1
            where = traceback.extract_tb(exc.__traceback__)[-1]
            failures.append(
                f"input {number} ({origin}): {type(exc).__name__} at "
                f"{Path(where.filename).name}:{where.lineno}: {str(exc)[:120]}"
            )
    seconds = time.perf_counter() - start
    print(f"inputs: {args.inputs:,} (seed {args.seed}) in {seconds:.1f} s", end="")
    print(f", {args.inputs / seconds:,.0f} a second")
    print("by origin: " + ", ".join(f"{k} {v:,}" for k, v in sorted(by_origin.items())))
    print("results:   " + ", ".join(f"{k} {v:,}" for k, v in sorted(results.items())))
    print(f"tracebacks: {len(failures)}")
    for line in failures[:20]:
        print(f"  {line}")
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
