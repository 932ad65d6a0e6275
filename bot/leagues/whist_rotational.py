"""Whist designs for 4m + 1 players from a round of cosets and a round developed over Z_4m.

The designs of `bot.leagues.whist` for n = 4m + 1 are developed by a group of order n. Where n
is a product of two primes of the form 4k + 3 (93, 129, 141, 161, 177) no such design has
been found (77 has one over Z_77, found later: `bot.leagues.whist_search`). This module builds designs another way, with a group of order N = n - 1 = 4m, and
`whist.design` uses one where no design developed by a group of order n ships (57, found
here first, has one over Z_57 too):

- players 0..N-1 are the elements of Z_N, and player N (here "the fixed player") stays put;
- one round is the cosets of the subgroup {0, h, 2h, 3h} (h = N / 4): table x is x and x + 2h
  against x + h and x + 3h, and the fixed player sits out;
- N rounds are developed from one starting round R0 (in which 0 sits out and the fixed player
  plays): round g adds g to every player of R0, so g sits out round g.

Why that gives every two players one partnership and two oppositions: adding g keeps the
difference of two players, so a pair of R0 at difference +-d meets, over the N rounds, every
pair at difference +-d once, except that a pair at the difference N / 2 (the one element of
order two) meets each such pair twice. The round of cosets partners every pair at N / 2 once
and opposes every pair at +-h once. So R0 must hold, among its pairs of players of Z_N:

- as partners, each class {d, -d} once, but none at N / 2;
- as opponents, each class twice, but the class of h once and one pair at N / 2 (which counts
  twice);

and the fixed player partners and opposes each player the right number of times whatever R0
is. Every size 4m + 1 has the group Z_4m, so every one of them can be searched this way.

Two searches find R0:

- `solve_rotational`, an exact solver (OR-Tools CP-SAT, the optional `search` extra), asks for
  a round invariant under a multiplier x -> ux of odd order where one helps: the fixed points
  of u (with the fixed player) then form a smaller design of this kind, and the other players
  come in orbits, so only a share of the tables are searched (`--special K`: K orbits of full
  length may sit with the fixed points too).
  ``python -m bot.leagues.whist_rotational --only 57 --multiplier 9 --write`` found 57 over Z_56
  (u = 9, of order 3, fixing the multiples of 7) in 13 s on an idle core (39-47 s on a loaded
  machine), the shipped design again. Without a multiplier it finds 9 to
  29 within a minute (25 took 46 s) and no 33 in 60 s. It proved there is none invariant under
  37 or 5 for 45, 17 or 9 for 129, or 101 for 161 (within 20-65 s each).
- `match_c` (``--match``), the two stages of `whist_match.c` with the counts of this kind: the
  fixed player's partner and a starter at random, then its partnerships seated by the
  backtracking of `whist_seat.h`. Seed 1, 10^5 nodes a starter: 9 to 45 within 2 s each (45: 18
  starters, 1.4 s); 10^6 nodes: 49 in 6 s, 53 in 2 s; none (in runs before `whist_seat.h`
  halved its time, the same search) for 57 (120 s, 66 starters), 69 (900 s of CPU, 364
  starters), 93 (600 s, 160) or 141 (400 s, 59), every starter past its limit. The exact
  solver found no 177 invariant under 49 (of order 5, fixing a design of this kind for 17) in
  1,800 s on a loaded machine and 1,150 s on an idle core, nor 141 under 81 (of order 3,
  fixing one for 21) in about 1,000 s loaded and 1,150 s idle.

Each design found ships in `data/whist_rotational.json` with its method, seed and seconds.
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

DATA = Path(__file__).with_name("data") / "whist_rotational.json"

# The starting round R0: its tables as [a, b, c, d], a and b partners against c and d, the fixed
# player numbered N.
Starter = list[list[int]]


def _order(players: int) -> int:
    if players < 5 or players % 4 != 1:
        raise ValueError(f"the rotational construction is for 4m + 1 players, not {players}")
    return players - 1


def coset_round(players: int) -> Round:
    """The round of the cosets of {0, h, 2h, 3h}: x and x + 2h against x + h and x + 3h."""
    n = _order(players)
    h = n // 4
    tables: tuple[Table, ...] = tuple(((x, x + 2 * h), (x + h, x + 3 * h)) for x in range(h))
    return Round(tables, (n,))


def develop_rotational(players: int, starter: Starter) -> list[Round]:
    """Every round: R0 plus g for each g of Z_N (g sits out), then the round of cosets."""
    n = _order(players)

    def moved(p: int, g: int) -> int:
        return p if p == n else (p + g) % n

    rounds = [
        Round(
            tuple(
                ((moved(a, g), moved(b, g)), (moved(c, g), moved(d, g))) for a, b, c, d in starter
            ),
            (g,),
        )
        for g in range(n)
    ]
    return [*rounds, coset_round(players)]


@cache
def _shipped() -> dict[str, dict[str, object]]:
    data: dict[str, dict[str, object]] = json.loads(DATA.read_text(encoding="utf-8"))
    return data


def shipped_sizes() -> list[int]:
    """The numbers of players for which a design of this kind ships."""
    return sorted(int(n) for n in _shipped())


def shipped_starter(players: int) -> Starter | None:
    """The starting round R0 shipped for `players`, or None."""
    entry = _shipped().get(str(players))
    if entry is None:
        return None
    starter = entry["starter"]
    assert isinstance(starter, list)
    return starter


def shipped_design(players: int) -> list[Round] | None:
    """The shipped design of this kind for `players`, or None."""
    starter = shipped_starter(players)
    return None if starter is None else develop_rotational(players, starter)


def solve_rotational(
    players: int, seconds: float = 600.0, seed: int = 0, multiplier: int = 1, special: int = 0
) -> Starter | None:
    """A starting round R0 found by CP-SAT, or None when none is found within `seconds`.

    The model: the fixed player's partner is one player; each class {d, -d} but N / 2 chooses
    the one partnership {x, x + d} that has it; every player of Z_N but 0 sits at one of the m
    tables (the fixed player at table 0), each partnership at one table; and for each class,
    the pairs {x, x + d} seated at one table number three (a partnership and two oppositions),
    two for the class of h, and two ordered pairs (one pair) at N / 2. A `multiplier` u asks
    that multiplying by u maps R0's partnerships and pairs at a table onto themselves, but for
    the tables of its shorter orbits (its fixed points) and of `special` orbits of full length
    the solver picks, which sit at tables of their own with the fixed player.
    """
    from ortools.sat.python import cp_model  # the `search` extra; the bot never needs it

    n = _order(players)
    h, half, tables = n // 4, n // 2, n // 4
    seated = list(range(1, n))
    classes = list(range(1, half))
    model = cp_model.CpModel()

    fixed_partner = {x: model.new_bool_var(f"f{x}") for x in seated}
    model.add_exactly_one(fixed_partner.values())
    memberships = {x: [fixed_partner[x]] for x in seated}
    partnership: dict[tuple[int, int], cp_model.IntVar] = {}
    for d in classes:
        row = []
        for x in seated:
            y = (x + d) % n
            if y:
                v = partnership[d, x] = model.new_bool_var(f"p{d}_{x}")
                row.append(v)
                memberships[x].append(v)
                memberships[y].append(v)
        model.add_exactly_one(row)
    for x in seated:
        model.add_exactly_one(memberships[x])

    seat = {x: [model.new_bool_var(f"s{x}_{t}") for t in range(tables)] for x in seated}
    for x in seated:
        model.add_exactly_one(seat[x])
        model.add_implication(fixed_partner[x], seat[x][0])
    for t in range(tables):
        model.add(sum(seat[x][t] for x in seated) == (3 if t == 0 else 4))
    for (d, x), v in partnership.items():
        for t in range(tables):
            model.add_bool_or([v.Not(), seat[x][t].Not(), seat[(x + d) % n][t]])

    together: dict[tuple[int, int], cp_model.IntVar] = {}
    for d in [*classes, half]:
        terms = []
        for x in seated:
            y = (x + d) % n
            if y:
                both = together[d, x] = model.new_bool_var(f"t{d}_{x}")
                for t in range(tables):
                    model.add_bool_or([seat[x][t].Not(), seat[y][t].Not(), both])
                    model.add_bool_or([both.Not(), seat[x][t].Not(), seat[y][t]])
                terms.append(both)
        model.add(sum(terms) == (2 if d in (h, half) else 3))

    if multiplier != 1:

        def image(d: int, x: int) -> tuple[int, int]:
            """The pair {x, x + d} multiplied by u, as (its class's d, its first player)."""
            e, y = multiplier * d % n, multiplier * x % n
            if e == half:
                return half, y if (half, y) in together else (y + half) % n
            return (e, y) if e < half else (n - e, (y + e) % n)

        if not special:  # the whole round invariant (fixed points sit among themselves)
            for x in seated:
                model.add(fixed_partner[x] == fixed_partner[multiplier * x % n])
            for variables in (partnership, together):
                for key, v in variables.items():
                    w = variables.get(image(*key))
                    model.add(v == w if w is not None else v == 0)
        else:
            # The players of u's shorter orbits (its fixed points) and `special` orbits of
            # full length, which the solver picks, are "free": they sit at tables of their
            # own, with the fixed player, that need not be invariant.
            orbit = {x: min(x * multiplier**k % n for k in range(n)) for x in seated}
            length = {o: sum(1 for x in seated if orbit[x] == o) for o in set(orbit.values())}
            longest = max(length.values())
            free = {o: model.new_bool_var(f"o{o}") for o in length}
            for o, size in length.items():
                if size < longest:
                    model.add(free[o] == 1)
            model.add(sum(free[o] for o, size in length.items() if size == longest) == special)
            for x in seated:
                model.add_implication(fixed_partner[x], free[orbit[x]])
            for variables in (partnership, together):
                for (d, x), v in variables.items():
                    fx, fy = free[orbit[x]], free[orbit[(x + d) % n]]
                    model.add(fx == fy).only_enforce_if(v)  # free players sit together
                    w = variables.get(image(d, x))
                    model.add(v == w if w is not None else v == 0).only_enforce_if(fx.Not())

    solver = solved(model, seconds, seed)
    if solver is None:
        return None
    partner = {x: n for x in seated if solver.value(fixed_partner[x])}
    partner[n] = next(iter(partner))
    for (d, x), v in partnership.items():
        if solver.value(v):
            y = (x + d) % n
            partner[x], partner[y] = y, x
    starter: Starter = []
    for t in range(tables):
        at_table = [x for x in seated if solver.value(seat[x][t])] + ([n] if t == 0 else [])
        first = min(at_table)
        others = [p for p in at_table if p not in (first, partner[first])]
        starter.append([first, partner[first], *others])
    return starter


def match_c(
    players: int, seed: int = 0, seconds: float = 600.0, limit: int = 1_000_000
) -> Starter | None:
    """A starting round R0 found as a starter and a matching of its partnerships
    (`whist_rotational_match.c`, the two stages of `whist_match.c` with the counts of this
    kind: the fixed player's partner and a starter at random, then its partnerships seated by
    backtracking, a new starter after `limit` nodes), or None within `seconds`."""
    from bot.leagues.whist_search import _found, _run_c  # which imports this module

    args = [str(_order(players)), str(seed), str(seconds), str(limit)]
    found = _found(_run_c("whist_rotational_match.c", args, [], "-lm"), told=True)
    return None if found is None else found[0]


def main(argv: list[str] | None = None) -> int:
    from bot.leagues.progressive import is_whist  # imports bot.leagues.whist, which imports this

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", type=int, required=True, help="players (4m + 1)")
    parser.add_argument("--multiplier", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=600.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--special", type=int, default=0, help="free orbits of the multiplier")
    parser.add_argument("--match", action="store_true", help="the C search (match_c)")
    parser.add_argument("--limit", type=int, default=1_000_000, help="match_c's nodes a starter")
    parser.add_argument("--write", action="store_true", help="add the design to the data file")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    if args.match:
        method = f"a starter, then its matching in C, backtracking to {args.limit} nodes"
        starter = match_c(args.only, args.seed, args.seconds, args.limit)
    else:
        method = f"cp-sat, multiplier {args.multiplier}" + (
            f", {args.special} free orbits" if args.special else ""
        )
        starter = solve_rotational(
            args.only, args.seconds, args.seed, args.multiplier, args.special
        )
    seconds = round(time.perf_counter() - start, 1)
    if starter is None:
        print(f"{args.only}: none found in {seconds} s")
        return 1
    if not is_whist(args.only, develop_rotational(args.only, starter)):
        print(f"{args.only}: the solver's round is not a whist design (a bug)")
        return 2
    print(f"{args.only}: found in {seconds} s: {json.dumps(starter)}")
    if args.write:
        data = json.loads(DATA.read_text(encoding="utf-8")) if DATA.exists() else {}
        data[str(args.only)] = {
            "group": [args.only - 1],
            "method": method,
            "seconds": seconds,
            "seed": args.seed,
            "starter": starter,
        }
        DATA.write_text(json.dumps(data, separators=(",", ":"), sort_keys=True), encoding="utf-8")
        _shipped.cache_clear()
    return 0


if __name__ == "__main__":
    sys.exit(main())
