"""Whist designs for q + w players that hold a design for w of them, the pieces that
`bot.leagues.whist_blocks` puts on the groups of a transversal design with a hole.

Players 0..q-1 are the elements of Z_q and players q..q+w-1 are w fixed players, W; w is a
multiple of 4 that divides q, and H is the subgroup of Z_q of order w (the multiples of q / w).

- q rounds are developed from one starting round: round g adds g to every player of Z_q, and
  the fixed players stay. In the starting round fixed player i partners a_i against b_i and
  c_i; the rest of Z_q sit at tables of their own.
- w - 1 rounds seat W by a design for w (its round r in round r), and every coset x + H by the
  same design (its player j being x + j q / w).

Why every two players partner once and oppose twice: adding g keeps the difference of two
players, so a pair of the starting round at difference +-d meets, over the q rounds, every pair
at difference +-d once (no d lies in H, and H holds q / 2, the one element of order two, so
no pair meets itself twice). The rounds of the cosets meet every pair at a difference in H as
the design for w does, and W's pairs meet in W's design only. So among the pairs of Z_q in the
starting round each class {d, -d} outside H is a partnership once and an opposition twice,
and no class in H appears. Fixed player i partners a_i + g in round g, every player of Z_q
once, and opposes b_i + g and c_i + g, each twice.

In the q developed rounds the fixed players sit at different tables; in the w - 1 others W and
Z_q sit apart. That is what the construction with a hole needs: it takes W's tables from one
design for w, and each group's from its own copy.

`solve` finds a starting round with an exact solver (OR-Tools CP-SAT, the optional `search`
extra); ``python -m bot.leagues.whist_sub --q 16 --w 4 --write`` adds it to
`data/whist_sub.json`, with its seed and seconds.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from functools import cache
from pathlib import Path

from bot.leagues.cpsat import solved
from bot.leagues.rounds import Round, Table

DATA = Path(__file__).with_name("data") / "whist_sub.json"

# The starting round: each fixed player's [a, b, c] (partner a against b and c), then the
# other tables [a, b, c, d] ((a, b) against (c, d)).
Starting = tuple[list[list[int]], list[list[int]]]


@cache
def _shipped() -> dict[str, dict[str, object]]:
    data: dict[str, dict[str, object]] = json.loads(DATA.read_text(encoding="utf-8"))
    return data


def shipped_sizes() -> list[tuple[int, int]]:
    """The (q, w) for which a starting round ships."""
    return sorted(tuple(int(x) for x in key.split("+")) for key in _shipped())  # type: ignore[misc]


def shipped_starting(q: int, w: int) -> Starting | None:
    """The shipped starting round for q + w players, or None."""
    entry = _shipped().get(f"{q}+{w}")
    if entry is None:
        return None
    fixed, tables = entry["fixed"], entry["tables"]
    assert isinstance(fixed, list) and isinstance(tables, list)
    return fixed, tables


def developed_rounds(q: int, w: int, starting: Starting) -> list[list[Table]]:
    """The q developed rounds, round g adding g to the players of Z_q."""
    fixed, tables = starting
    rounds = []
    for g in range(q):

        def moved(x: int) -> int:
            return (x + g) % q  # noqa: B023 -- used at once, in this round

        seated: list[Table] = [
            ((q + i, moved(a)), (moved(b), moved(c))) for i, (a, b, c) in enumerate(fixed)
        ]
        seated += [((moved(a), moved(b)), (moved(c), moved(d))) for a, b, c, d in tables]
        rounds.append(seated)
    return rounds


def coset_rounds(q: int, w: int, small: list[Round]) -> list[list[Table]]:
    """The w - 1 rounds of the cosets of H, each seated by `small` (a design for w)."""
    step = q // w
    return [
        [
            ((x + a * step, x + b * step), (x + c * step, x + d * step))
            for x in range(step)
            for (a, b), (c, d) in rnd.tables
        ]
        for rnd in small
    ]


def design(q: int, w: int, starting: Starting, small: list[Round]) -> list[Round]:
    """The whole design for q + w players: the developed rounds, then the w - 1 in which W
    (seated by `small`) and the cosets sit apart."""
    rounds = [Round(tuple(tables)) for tables in developed_rounds(q, w, starting)]
    for rnd, cosets in zip(small, coset_rounds(q, w, small), strict=True):
        fixed = [((q + a, q + b), (q + c, q + d)) for (a, b), (c, d) in rnd.tables]
        rounds.append(Round(tuple(cosets + fixed)))
    return rounds


def solve(q: int, w: int, seconds: float = 600.0, seed: int = 0) -> Starting | None:
    """A starting round found by CP-SAT, or None when it finds none within `seconds`.

    Raises:
        ValueError: w is not a multiple of 4 dividing q, or q < 3 w (each fixed player needs
            three players of Z_q).
    """
    from ortools.sat.python import cp_model  # the `search` extra; the bot never needs it

    if w % 4 or q % w or q < 3 * w:
        raise ValueError(f"no starting round of this kind for q = {q}, w = {w}")
    step = q // w

    def kind(x: int) -> int:  # the class {x, -x}, by its smaller member
        x %= q
        return min(x, q - x)

    model = cp_model.CpModel()
    tables = (q - 3 * w) // 4
    slots = [model.new_int_var(0, q - 1, f"x{s}") for s in range(3 * w + 4 * tables)]
    model.add_all_different(slots)
    model.add(slots[0] == 0)  # a translate of any starting round is one too
    for i in range(w - 1):  # the fixed players' tables in the order of their partners
        model.add(slots[3 * i] < slots[3 * i + 3])
    partners, opponents = [], []
    for i in range(w):
        a, b, c = 3 * i, 3 * i + 1, 3 * i + 2
        partners.append((b, c))
        opponents += [(a, b), (a, c)]
    for j in range(tables):
        a, b, c, d = (3 * w + 4 * j + k for k in range(4))
        partners += [(a, b), (c, d)]
        opponents += [(a, c), (a, d), (b, c), (b, d)]
    allowed = [(x, y, kind(x - y)) for x in range(q) for y in range(q) if x != y]
    kinds = range(1, q // 2 + 1)

    def is_kind(pairs: list[tuple[int, int]]) -> list[dict[int, cp_model.IntVar]]:
        out = []
        for s, t in pairs:
            value = model.new_int_var(1, q // 2, f"k{s}_{t}")
            model.add_allowed_assignments([slots[s], slots[t], value], allowed)
            flags = {}
            for k in kinds:
                flags[k] = model.new_bool_var(f"k{s}_{t}={k}")
                model.add(value == k).only_enforce_if(flags[k])
                model.add(value != k).only_enforce_if(flags[k].Not())
            out.append(flags)
        return out

    partner_kinds, opponent_kinds = is_kind(partners), is_kind(opponents)
    for k in kinds:
        outside = k % step != 0  # differences in H meet in the rounds of the cosets
        model.add(sum(f[k] for f in partner_kinds) == (1 if outside else 0))
        model.add(sum(f[k] for f in opponent_kinds) == (2 if outside else 0))
    solver = solved(model, seconds, seed)
    if solver is None:
        return None
    values = [solver.value(x) for x in slots]
    return (
        [values[3 * i : 3 * i + 3] for i in range(w)],
        [values[3 * w + 4 * j : 3 * w + 4 * j + 4] for j in range(tables)],
    )


def main(argv: list[str] | None = None) -> int:
    """Find a starting round for q + w players; with --write, add it to the data file."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--q", type=int, required=True, help="the order of Z_q")
    parser.add_argument("--w", type=int, required=True, help="the fixed players")
    parser.add_argument("--seconds", type=float, default=600.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--write", action="store_true", help="add the round to the data file")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    found = solve(args.q, args.w, args.seconds, args.seed)
    seconds = round(time.perf_counter() - started, 1)
    if found is None:
        print(f"{args.q} + {args.w}: none found in {seconds} s")
        return 1
    print(f"{args.q} + {args.w}: found in {seconds} s: {json.dumps(found)}")
    if args.write:
        data = dict(_shipped())
        fixed, tables = found
        entry = {"fixed": fixed, "tables": tables, "method": "cp-sat", "seed": args.seed}
        data[f"{args.q}+{args.w}"] = entry | {"seconds": seconds}
        DATA.write_text(json.dumps(data, separators=(",", ":"), sort_keys=True), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
