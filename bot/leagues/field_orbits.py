"""Whist designs for o q players on o copies of the field of q elements, q = 3 (mod 4): 108 =
4 x 27, which no design developed by a group of order 107 and no design put together on
blocks reached (`whist_search`, `whist_blocks`).

The players are (x, i), x in GF(q) (numbered as `bot.leagues.fields` numbers it) and i one of
o orbits: player i q + x. Every map (x, i) -> (s x + g, i), s a non-zero square and g any
element, takes the design to itself. Its rounds:

- for each round r of a design for o and each g, the round (r, g): round r of the design for
  o on the players (g, 0), ..., (g, o - 1) (the "zero tables"), and the images s T + g, s a
  non-zero square, of o / 2 base tables T of round r. Those hold between them one square and
  one non-square of each orbit, so their images seat every other player once;
- for each of two fixed rounds and each square s, the round of the tables s T + g for every g,
  T one of its o / 4 tables, which hold one player of each orbit.

That is (o - 1) q + 2 (q - 1) / 2 = o q - 1 rounds.

Why every two players partner once and oppose twice. The maps take a pair of one orbit i to
every pair of that orbit exactly once: s (y - x) = y - x only for s = 1, and swapping the two
would need s = -1, a non-square since q = 3 (mod 4). They take a pair (x, i), (y, j) of two
orbits i < j to every pair of those orbits whose difference is, like y - x, a square, or a
non-square, or 0; the pairs at difference 0, (g, i) and (g, j), sit at the zero tables, which
seat them as the design for o does. So the base and fixed tables need, for each orbit, one
partnership and two oppositions of its own players; for each two orbits, one partnership and
two oppositions at a square difference and the same at a non-square; and no two players of
two orbits at difference 0. `classes` counts that.

For o = 4 the counts leave little choice (`search`): each orbit's own pairs come three times
(its square and non-square at one table in every base round), so each base round seats the
orbits two and two, {0, 1} {2, 3}, then {0, 2} {1, 3}, then {0, 3} {1, 2}; in one of those
rounds each orbit's two players are partners, and that round's two orbits at a table oppose
each other four times, so the fixed tables partner orbit 0 with 1 and 2 with 3. What is left
is which squares and non-squares: random choices with a fixed seed (1) meet the counts in
0.2 s for 108 (the 3,011th try), and in 0.6-6 s for q = 19, 23, 31, 43 and 47 (76, 92, 124,
172 and 188 players, which have other designs too); for q = 7 and 11 none of 10^6 tries does.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from functools import cache

from bot.leagues.fields import field, prime_power
from bot.leagues.rounds import Round, Table

# A player (x, i) of the search: x in GF(q), i its orbit; a table is (a, b) against (c, d).
Player = tuple[int, int]
FieldTable = tuple[tuple[Player, Player], tuple[Player, Player]]
# The base tables of each base round, and the fixed rounds' tables.
Tables = tuple[list[list[FieldTable]], list[list[FieldTable]]]

_TRIES = 1_000_000
_SEED = 1


def orbits_of(players: int) -> tuple[int, int] | None:
    """(q, 4) when `players` = 4 q for a prime power q = 3 (mod 4) above 3; None otherwise."""
    q, rest = divmod(players, 4)
    if rest or q < 7 or q % 4 != 3 or prime_power(q) is None:
        return None
    return q, 4


def design(players: int, designs: Callable[[int], list[Round] | None]) -> list[Round] | None:
    """The design for `players` = 4 q, from a design for 4 (`designs(4)`); None for other
    numbers, or when the search finds no tables."""
    shape = orbits_of(players)
    if shape is None:
        return None
    q, o = shape
    small, found = designs(o), search(q)
    if small is None or found is None:
        return None
    return rounds(q, o, small, found)


@cache
def _squares(q: int) -> tuple[list[int], list[int]]:
    """The non-zero squares and the non-squares of GF(q)."""
    times = field(q).times
    squares = sorted({times[x][x] for x in range(1, q)})
    return squares, [x for x in range(1, q) if x not in squares]


def _character(q: int, d: int) -> int:
    """1 for a non-zero square, -1 for a non-square, 0 for 0."""
    return 0 if d == 0 else (1 if d in _squares(q)[0] else -1)


def classes(q: int, tables: list[FieldTable]) -> Counter[tuple[object, ...]] | None:
    """How often the tables make each kind of pair partners (0) and opponents (1): (i, kind)
    for two players of orbit i, (i, j, character of y - x, kind) for (x, i) and (y, j), i < j;
    None when two players of different orbits are at difference 0."""
    f = field(q)
    negative = [next(y for y in range(q) if f.add[x][y] == 0) for x in range(q)]
    counts: Counter[tuple[object, ...]] = Counter()
    for partners, opponents in tables:
        pairs = [(*partners, 0), (*opponents, 0)]
        pairs += [(p, r, 1) for p in partners for r in opponents]
        for (x, i), (y, j), kind in pairs:
            if i == j:
                counts[(i, kind)] += 1
                continue
            if i > j:
                (x, i), (y, j) = (y, j), (x, i)
            character = _character(q, f.add[y][negative[x]])
            if character == 0:
                return None
            counts[(i, j, character, kind)] += 1
    return counts


def balanced(q: int, o: int, tables: list[FieldTable]) -> bool:
    """Whether the tables make each kind of pair partners once and opponents twice."""
    counts = classes(q, tables)
    if counts is None:
        return False
    wanted: Counter[tuple[object, ...]] = Counter()
    for i in range(o):
        wanted.update({(i, 0): 1, (i, 1): 2})
        for j in range(i + 1, o):
            for character in (1, -1):
                wanted.update({(i, j, character, 0): 1, (i, j, character, 1): 2})
    return counts == wanted


@cache
def search(q: int, seed: int = _SEED) -> Tables | None:
    """Base and fixed tables for 4 orbits of GF(q) by random choices (see the module's
    docstring); None when none of `_TRIES` meets the counts."""
    squares, others = _squares(q)
    rng = random.Random(seed)
    pairings = [((0, 1), (2, 3)), ((0, 2), (1, 3)), ((0, 3), (1, 2))]
    for _ in range(_TRIES):
        base: list[list[FieldTable]] = []
        for r, pairing in enumerate(pairings):
            square = {i: (rng.choice(squares), i) for i in range(4)}
            other = {i: (rng.choice(others), i) for i in range(4)}
            tables: list[FieldTable] = []
            for i, j in pairing:
                if r == 0:  # each orbit's square and non-square partners
                    tables.append(((square[i], other[i]), (square[j], other[j])))
                elif rng.random() < 0.5:
                    tables.append(((square[i], square[j]), (other[i], other[j])))
                else:
                    tables.append(((square[i], other[j]), (other[i], square[j])))
            base.append(tables)
        fixed: list[list[FieldTable]] = []
        for _ in range(2):
            b, c, d = rng.sample(range(1, q), 3)
            fixed.append([(((0, 0), (b, 1)), ((c, 2), (d, 3)))])
        if balanced(q, 4, [t for tables in base + fixed for t in tables]):
            return base, fixed
    return None


def rounds(q: int, o: int, small: list[Round], tables: Tables) -> list[Round]:
    """The o q - 1 rounds of the design (see the module's docstring), players numbered i q + x."""
    f = field(q)
    squares = _squares(q)[0]
    base, fixed = tables

    def player(seated: Player, s: int, g: int) -> int:  # (x, i) -> (s x + g, i)
        x, i = seated
        return i * q + f.add[f.times[s][x]][g]

    def moved(table: FieldTable, s: int, g: int) -> Table:
        (a, b), (c, d) = table
        return (player(a, s, g), player(b, s, g)), (player(c, s, g), player(d, s, g))

    out = []
    for zero, base_tables in zip(small, base, strict=True):
        for g in range(q):
            seated = [
                moved((((g, a), (g, b)), ((g, c), (g, d))), 1, 0) for (a, b), (c, d) in zero.tables
            ]
            seated += [moved(table, s, g) for table in base_tables for s in squares]
            out.append(Round(tuple(seated)))
    for fixed_tables in fixed:
        for s in squares:
            out.append(Round(tuple(moved(table, s, g) for table in fixed_tables for g in range(q))))
    return out
