"""Whist designs for q + w players that hold a design for w of them, the pieces that
`bot.leagues.whist_blocks` puts on the groups of a transversal design with a hole.

Players 0..q-1 are the elements of an abelian group G of order q (Z_q, or Z_a x Z_b), and
players q..q+w-1 are w fixed players, W; w is a multiple of 4, and H is a subgroup of G of
order w that holds every element of order two (in Z_q: the multiples of q / w).

- q rounds are developed from one starting round: round g adds g to every player of G, and
  the fixed players stay. In the starting round fixed player i partners a_i against b_i and
  c_i; the rest of G sit at tables of their own.
- w - 1 rounds seat W by a design for w (its round r in round r), and every coset x + H by the
  same design (its player j being x + H[j]).

Why every two players partner once and oppose twice: adding g keeps the difference of two
players, so a pair of the starting round at difference +-d meets, over the q rounds, every pair
at difference +-d once (no d lies in H, and H holds every element of order two, so no pair
meets itself twice). The rounds of the cosets meet every pair at a difference in H as the
design for w does, and W's pairs meet in W's design only. So among the pairs of G in the
starting round each class {d, -d} outside H is a partnership once and an opposition twice,
and no class in H appears. Fixed player i partners a_i + g in round g, every player of G once,
and opposes b_i + g and c_i + g, each twice.

In the q developed rounds the fixed players sit at different tables; in the w - 1 others W and
G sit apart. That is what the construction with a hole needs: it takes W's tables from one
design for w, and each group's from its own copy.

`solve` finds a starting round with an exact solver (OR-Tools CP-SAT, the optional `search`
extra); ``python -m bot.leagues.whist_sub --group 16 --w 4 --write`` adds it to
`data/whist_sub.json` with its group, subgroup, seed and seconds (16 + 4: 1.5 s; 20 + 4:
8.7 s; 32 + 8: 9.7 s). 32 + 4 took another group: none over Z_32 (600 s with seed 0, 900 s
with each of seeds 1-3, seed 4 stopped after about 600 s), nor over Z_2 x Z_16 or Z_4 x Z_8
in 900 s with seed 0; then over Z_4 x Z_8 with seed 1 in 134 s (``--group 4 8 --w 4 --seed 1``).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from bot.leagues.cpsat import solved
from bot.leagues.groups import Group
from bot.leagues.rounds import Round, Table

DATA = Path(__file__).with_name("data") / "whist_sub.json"


@dataclass(frozen=True)
class Starting:
    """The starting round of a design for q + w players over `group` (of order q), with
    `subgroup` H (its w elements, 0 first): each fixed player's [a, b, c] (partner a against b
    and c), then the other tables [a, b, c, d] ((a, b) against (c, d))."""

    group: Group
    subgroup: tuple[int, ...]
    fixed: list[list[int]]
    tables: list[list[int]]


@cache
def _shipped() -> dict[str, dict[str, Any]]:
    data: dict[str, dict[str, Any]] = json.loads(DATA.read_text(encoding="utf-8"))
    return data


def shipped_sizes() -> list[tuple[int, int]]:
    """The (q, w) for which a starting round ships."""
    return sorted((int(q), int(w)) for q, w in (key.split("+") for key in _shipped()))


def shipped_starting(q: int, w: int) -> Starting | None:
    """The shipped starting round for q + w players, or None."""
    entry = _shipped().get(f"{q}+{w}")
    if entry is None:
        return None
    group = Group(tuple(entry["group"]))
    return Starting(group, tuple(entry["subgroup"]), entry["fixed"], entry["tables"])


def developed_rounds(start: Starting) -> list[list[Table]]:
    """The q developed rounds, round g adding g to the players of the group."""
    q, add = start.group.order, start.group.add_table()
    rounds = []
    for g in range(q):
        moved = [add[x][g] for x in range(q)]
        seated: list[Table] = [
            ((q + i, moved[a]), (moved[b], moved[c])) for i, (a, b, c) in enumerate(start.fixed)
        ]
        seated += [((moved[a], moved[b]), (moved[c], moved[d])) for a, b, c, d in start.tables]
        rounds.append(seated)
    return rounds


def coset_rounds(start: Starting, small: list[Round]) -> list[list[Table]]:
    """The w - 1 rounds of the cosets of H, each seated by `small` (a design for w, its player
    j being x + H[j] in the coset of x)."""
    add, seen, cosets = start.group.add_table(), set(), []
    for x in range(start.group.order):
        if x not in seen:
            cosets.append([add[x][h] for h in start.subgroup])
            seen.update(cosets[-1])
    return [
        [((c[a], c[b]), (c[e], c[d])) for c in cosets for (a, b), (e, d) in rnd.tables]
        for rnd in small
    ]


def design(start: Starting, small: list[Round]) -> list[Round]:
    """The whole design for q + w players: the developed rounds, then the w - 1 in which W
    (seated by `small`) and the cosets sit apart."""
    q = start.group.order
    rounds = [Round(tuple(tables)) for tables in developed_rounds(start)]
    for rnd, cosets in zip(small, coset_rounds(start, small), strict=True):
        fixed = [((q + a, q + b), (q + c, q + d)) for (a, b), (c, d) in rnd.tables]
        rounds.append(Round(tuple(cosets + fixed)))
    return rounds


def subgroup_for(group: Group, w: int) -> tuple[int, ...] | None:
    """A subgroup of order w holding every element of order two (so that no difference
    outside it is its own negative), 0 first; None when there is none. It is generated by
    two elements at most, which is all this needs (the groups here are Z_a x Z_b)."""
    add, q = group.add_table(), group.order
    involutions = {x for x in range(1, q) if add[x][x] == 0}
    for a in range(q):
        for b in range(a, q):
            span, frontier = {0}, [0]
            while frontier:
                x = frontier.pop()
                for y in (add[x][a], add[x][b]):
                    if y not in span:
                        span.add(y)
                        frontier.append(y)
            if len(span) == w and involutions <= span:
                return (0, *sorted(span - {0}))
    return None


def solve(group: Group, w: int, seconds: float = 600.0, seed: int = 0) -> Starting | None:
    """A starting round over `group` for its order q + w players found by CP-SAT, or None
    when it finds none within `seconds`.

    Raises:
        ValueError: w is not a multiple of 4 with a subgroup of order w holding every element
            of order two, or q < 3 w (each fixed player needs three players of the group).
    """
    from ortools.sat.python import cp_model  # the `search` extra; the bot never needs it

    q = group.order
    subgroup = subgroup_for(group, w) if w % 4 == 0 and q >= 3 * w else None
    if subgroup is None:
        raise ValueError(f"no starting round of this kind over {group.factors} for w = {w}")
    sub = group.sub_table()

    def kind(d: int) -> int:  # the class {d, -d}, by its smaller member
        return min(d, sub[0][d])

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
    allowed = [(x, y, kind(sub[x][y])) for x in range(q) for y in range(q) if x != y]
    kinds = sorted({kind(d) for d in range(1, q)})

    def is_kind(pairs: list[tuple[int, int]]) -> list[dict[int, cp_model.IntVar]]:
        out = []
        for s, t in pairs:
            value = model.new_int_var(1, q - 1, f"k{s}_{t}")
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
        outside = k not in subgroup  # differences in H meet in the rounds of the cosets
        model.add(sum(f[k] for f in partner_kinds) == (1 if outside else 0))
        model.add(sum(f[k] for f in opponent_kinds) == (2 if outside else 0))
    solver = solved(model, seconds, seed)
    if solver is None:
        return None
    values = [solver.value(x) for x in slots]
    fixed = [values[3 * i : 3 * i + 3] for i in range(w)]
    others = [values[3 * w + 4 * j : 3 * w + 4 * j + 4] for j in range(tables)]
    return Starting(group, subgroup, fixed, others)


def main(argv: list[str] | None = None) -> int:
    """Find a starting round for q + w players; with --write, add it to the data file."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--group", type=int, nargs="+", required=True, help="the group's factors (32, or 4 8)"
    )
    parser.add_argument("--w", type=int, required=True, help="the fixed players")
    parser.add_argument("--seconds", type=float, default=600.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--write", action="store_true", help="add the round to the data file")
    args = parser.parse_args(argv)
    group = Group(tuple(args.group))
    started = time.perf_counter()
    found = solve(group, args.w, args.seconds, args.seed)
    seconds = round(time.perf_counter() - started, 1)
    size = f"{group.order} + {args.w} over {group.factors}"
    if found is None:
        print(f"{size}: none found in {seconds} s")
        return 1
    print(f"{size}: found in {seconds} s: {json.dumps([found.fixed, found.tables])}")
    if args.write:
        data = dict(_shipped())
        data[f"{group.order}+{args.w}"] = {
            "group": list(group.factors),
            "subgroup": list(found.subgroup),
            "fixed": found.fixed,
            "tables": found.tables,
            "method": "cp-sat",
            "seed": args.seed,
            "seconds": seconds,
        }
        DATA.write_text(json.dumps(data, separators=(",", ":"), sort_keys=True), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
