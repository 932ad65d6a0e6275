"""Pairwise balanced designs developed from base blocks by Z_p acting on several orbits, on
which whist designs are put together (`bot.leagues.whist_blocks`): for 4m + 1 players on the
design itself, and for 4m players on the design less its infinity, with a hole.

A pairwise balanced design puts every two points in exactly one block. When each block's size
k has a whist design of its own (k = 5, 9, 13, 17: one player sitting out each round), Baker's
closure puts those designs together into a whist design on all the points.

The designs here: the points are (x, i) for x in Z_p and i in 0..o-1 (numbered i * p + x) and,
with `infinity`, one more point. The blocks are the translates B + t (adding t to every x) of
base blocks B, and with infinity the blocks {infinity} + (t + H) x {0, ..., o - 1} for the
subgroup H of Z_p of order h (`subgroup`; h = 1 by default: {infinity, (t, 0), ..., (t, o - 1)}).
Two points (x, i), (y, j) meet once when, over the base blocks, the differences y - x between
a point of orbit i and one of orbit j take every value once (but d in H: d = 0 for i = j, and
with infinity d in H for i != j too, as infinity's blocks hold those pairs). The base blocks
are searched by simulated annealing or tabu search in C (`pbd_anneal.c`; ``python -m
bot.leagues.pbd --players 93 --p 23 --orbits 4 --infinity --sizes 9 5 ... --write``) or by
randomized backtracking with restarts (`pbd_backtrack.c`, ``--backtrack NODES``, needed for
``--subgroup``), and ship in `data/pbd.json` with how they were found, the seed and seconds.

129 ships: Z_128 and infinity with the cosets of the subgroup of order 8 (16 blocks of nine)
and six base blocks of five whose 120 differences are Z_128 less the multiples of 16 (a
relative difference family), found by ``python -m bot.leagues.pbd --players 129 --p 128
--orbits 1 --infinity --subgroup 8 --sizes 5 5 5 5 5 5 --backtrack 200000 --seed 1 --seconds
300 --write`` in its 26th run, 105 s (key "129/8": the size and the order of infinity's
subgroup). 145 ships for its groups: Z_144 and infinity with the cosets of the subgroup of
order 24 and six base blocks of five (``--players 145 --p 144 --orbits 1 --infinity
--subgroup 24 --sizes 5 5 5 5 5 5 --backtrack 200000 --seed 1``, 487 s on a shared core;
the same family as an earlier version of the search found); less infinity, six groups
of 24 and blocks of five, which with a hole of 8 give 152 = 6 x 24 + 8 (`whist_blocks`).
With ``--multiplier M Q...`` the search asks for base
blocks that come with their images under (x, i) -> (M x, Q[i]) (the differences are taken a
class of the multiplier at a time).

What found nothing (77 has since a whist design over Z_77 itself, `whist_search`): a group of
order n fails for 77 = 7 x 11, 93 = 3 x 31 and 129 = 3 x 43 (no cyclic design of blocks of five
and nine; for 93, Z_93 with one base block of nine and one of
five, the only sizes whose differences add up, was searched to the end), and Z_76 or Z_92
with infinity by counting (but 77 with a relative difference set of nine in Z_76 or Z_2 x
Z_38, which does not exist). Over a smaller Z_p, annealing (300 s) and tabu search (240 s) and
CP-SAT (300 s) all failed for 93 = Z_23 x 4 + infinity (9 + 14 x 5; best costs 10 and 8),
129 = Z_43 x 3 (9, 9 + 12 x 5; best 12 and 10), 129 = Z_16 x 8 + infinity (48 x 5; best 39),
77 = Z_7 x 11 (9, 9, 9 + 31 x 5; best 33) and 77 = Z_19 x 4 + infinity (four 9s; CP-SAT).
The backtracking proved there is none (searched to the end) for 77 = Z_38 x 2 + infinity with
the subgroup of order 2 (9 + 9; 10 s), 93 = Z_46 x 2 + infinity with the subgroup of order 2
(13 + 5; 28 s), 93 = Z_31 x 3 with multiplier (x, i) -> (5 x, i + 1) (9, 9, 9 + 5, 5, 5; 79 s)
and 93 = Z_23 x 4 + infinity with multiplier (x, i) -> (x, i ^ 1) (13, 13 + 5, 5; 24 s), and
77 = Z_19 x 4 + infinity with (x, i) -> (x, i ^ 1) (four 9s), (x, i + 1) or (-x, i + 1) (each
one 9 and its images; within 10 s), and
found none for 93 = Z_31 x 3 with (x, i) -> (x, i + 1) (9 + 5; seed 1, 10^5 nodes a run, 120
s; seed 2, 10^6 nodes, 200 s; 100 s with no limit), 93 = Z_23 x 4 + infinity (17 + 4 x 5 or
13, 13, 5, 5; 10^5 nodes, 110 s each) or 77 = Z_19 x 4 + infinity (13, 9 + 3 x 5, 170 s, or
four 9s, 140 s; 2 x 10^5 nodes), nor for 129 on Z_128 and infinity with the subgroup of
order 16 (9 + 5 + 5, whose groups of 16 less infinity would give 132 = 8 x 16 + 4; seed 1,
800 s; seed 2, 1,300 s), nor 93 = Z_31 x 3 with (x, i) -> (x, i + 1) again (9 + 5; seed 3,
10^6 nodes a run, 1,300 s). For Z_31 x 3, Z_23 x 4 + infinity and Z_19 x 4 + infinity
the other multipliers fail by counting or fix or reverse a difference (worked by hand).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from itertools import combinations
from pathlib import Path

DATA = Path(__file__).with_name("data") / "pbd.json"


@dataclass(frozen=True)
class Family:
    """Base blocks of points (x, i) developed by Z_p over `orbits` orbits, with infinity or not."""

    p: int
    orbits: int
    infinity: bool
    bases: tuple[tuple[tuple[int, int], ...], ...]
    subgroup: int = 1  # the order h of the subgroup H of Z_p in infinity's blocks

    @property
    def points(self) -> int:
        return self.p * self.orbits + int(self.infinity)

    def blocks(self) -> list[list[int]]:
        """Every block, its points numbered i * p + x and infinity p * orbits."""
        p = self.p
        blocks = [[i * p + (x + t) % p for x, i in base] for base in self.bases for t in range(p)]
        if self.infinity:
            step = p // self.subgroup
            blocks += [
                [i * p + t + s * step for i in range(self.orbits) for s in range(self.subgroup)]
                + [p * self.orbits]
                for t in range(step)
            ]
        return blocks


def less_infinity(points: int) -> Iterator[tuple[list[list[int]], list[list[int]]]]:
    """For each design with infinity that ships for `points`, the groups and blocks left by
    taking infinity out: its blocks through infinity, less infinity, are the groups, and every
    two points of different groups lie in one of the other blocks."""
    infinity = points - 1
    for family in families(points):
        if family.infinity:
            blocks = family.blocks()
            groups = [[x for x in block if x != infinity] for block in blocks if infinity in block]
            yield groups, [block for block in blocks if infinity not in block]


def is_pairwise_balanced(points: int, blocks: list[list[int]]) -> bool:
    """Every two of the points in exactly one block."""
    met = Counter(frozenset(pair) for block in blocks for pair in combinations(block, 2))
    return len(met) == points * (points - 1) // 2 and set(met.values()) == {1}


@cache
def _shipped() -> dict[str, dict[str, object]]:
    if not DATA.exists():
        return {}
    loaded: dict[str, dict[str, object]] = json.loads(DATA.read_text())
    return loaded


def shipped(points: int) -> Family | None:
    """The first family that ships for this number of points, or None."""
    return next(iter(families(points)), None)


def sizes() -> list[int]:
    """The numbers of points that have a shipped family."""
    return sorted({int(key.split("/")[0]) for key in _shipped()})


def families(points: int) -> list[Family]:
    """The families that ship for this number of points: keyed by it, or by it and the order of
    the subgroup in infinity's blocks ("129/16")."""
    found = []
    for key, entry in _shipped().items():
        if int(key.split("/")[0]) != points:
            continue
        bases = entry["bases"]
        assert isinstance(bases, list)
        found.append(
            Family(
                int(str(entry["p"])),
                int(str(entry["orbits"])),
                bool(entry["infinity"]),
                tuple(tuple((x, i) for x, i in base) for base in bases),
                int(str(entry.get("subgroup", 1))),
            )
        )
    return found


def anneal(
    p: int, orbits: int, infinity: bool, sizes: list[int], seed: int, seconds: float
) -> Family | None:
    """Base blocks of these sizes found by `pbd_anneal.c` within `seconds` of CPU, or None."""
    from bot.leagues.whist_search import _run_c  # the C runner of the whist searches

    lines = [
        f"{p} {orbits} {int(infinity)} {seed} {seconds} {len(sizes)}",
        " ".join(map(str, sizes)),
    ]
    run = _run_c("pbd_anneal.c", [], lines, "-lm")
    if run.returncode != 0:
        return None
    bases = _bases(run.stdout)
    return Family(p, orbits, infinity, tuple(bases))


def backtrack(
    p: int,
    orbits: int,
    infinity: bool,
    sizes: list[int],
    seed: int,
    seconds: float,
    subgroup: int = 1,
    nodes: int = 200_000,
    multiplier: tuple[int, list[int]] | None = None,
) -> Family | None:
    """Base blocks of these sizes found by `pbd_backtrack.c` (randomized backtracking, restarted
    after `nodes` steps) within `seconds` of CPU, or None; with infinity, its blocks hold the
    cosets of the subgroup of order `subgroup` of Z_p. With a `multiplier` (m, q), the base
    blocks are `sizes` and their images under (x, i) -> (m x, q[i])."""
    from bot.leagues.whist_search import _run_c  # the C runner of the whist searches

    lines = [
        f"{p} {orbits} {int(infinity)} {subgroup} {seed} {seconds} {nodes} {len(sizes)}",
        " ".join(map(str, sizes)),
    ]
    if multiplier is not None:
        lines.append(" ".join(map(str, [multiplier[0], *multiplier[1]])))
    run = _run_c("pbd_backtrack.c", [], lines)
    if run.returncode != 0:
        return None
    bases = _bases(run.stdout)
    if multiplier is not None:
        bases = _images(bases, p, *multiplier)
    return Family(p, orbits, infinity, tuple(bases), subgroup)


def _bases(printed: str) -> list[tuple[tuple[int, int], ...]]:
    """The base blocks a C search printed, a line each of "x i x i ..."."""
    bases = []
    for line in printed.split("\n"):
        numbers = [int(v) for v in line.split()]
        if numbers:
            bases.append(tuple(zip(numbers[::2], numbers[1::2], strict=True)))
    return bases


def _images(
    bases: list[tuple[tuple[int, int], ...]], p: int, m: int, q: list[int]
) -> list[tuple[tuple[int, int], ...]]:
    """The base blocks and their images under (x, i) -> (m x, q[i]) until they come back."""
    images = []
    for base in bases:
        block = base
        while True:
            images.append(block)
            block = tuple((m * x % p, q[i]) for x, i in block)
            if block == base:
                break
    return images


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.leagues.pbd", description=__doc__)
    parser.add_argument("--players", type=int, required=True)
    parser.add_argument("--p", type=int, required=True)
    parser.add_argument("--orbits", type=int, required=True)
    parser.add_argument("--infinity", action="store_true")
    parser.add_argument("--sizes", type=int, nargs="+", required=True)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=300.0)
    parser.add_argument(
        "--subgroup", type=int, default=1, help="infinity's blocks: cosets of this order of Z_p"
    )
    parser.add_argument(
        "--backtrack",
        type=int,
        metavar="NODES",
        help="search by backtracking (pbd_backtrack.c), restarting after NODES steps",
    )
    parser.add_argument(
        "--multiplier",
        type=int,
        nargs="+",
        metavar="M Q",
        help="with --backtrack: base blocks come with their images under (x, i) -> (M x, Q[i])",
    )
    parser.add_argument("--write", action="store_true", help="ship what is found in data/pbd.json")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    if args.backtrack:
        family = backtrack(
            args.p,
            args.orbits,
            args.infinity,
            args.sizes,
            args.seed,
            args.seconds,
            args.subgroup,
            args.backtrack,
            (args.multiplier[0], args.multiplier[1:]) if args.multiplier else None,
        )
    elif args.subgroup != 1 or args.multiplier:
        parser.error("--subgroup and --multiplier need --backtrack")
    else:
        family = anneal(args.p, args.orbits, args.infinity, args.sizes, args.seed, args.seconds)
    if family is None or family.points != args.players:
        print("none found")
        return 1
    if not is_pairwise_balanced(family.points, family.blocks()):
        print("found blocks that are not balanced", file=sys.stderr)
        return 2
    print(json.dumps([list(map(list, base)) for base in family.bases]))
    if args.write:
        data = dict(_shipped())
        key = str(args.players) if args.subgroup == 1 else f"{args.players}/{args.subgroup}"
        data[key] = {
            "p": args.p,
            "orbits": args.orbits,
            "infinity": args.infinity,
            "bases": [list(map(list, base)) for base in family.bases],
            **({"subgroup": args.subgroup} if args.subgroup != 1 else {}),
            **({"multiplier": args.multiplier} if args.multiplier else {}),
            "search": f"backtrack {args.backtrack}" if args.backtrack else "anneal",
            "seed": args.seed,
            "seconds": round(time.perf_counter() - started, 1),
        }
        ordered = sorted(data.items(), key=lambda kv: [int(n) for n in kv[0].split("/")])
        DATA.write_text(json.dumps(dict(ordered)) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
