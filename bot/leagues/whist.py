"""Whist tournament designs: every two players partners once and opponents twice.

A design for n = 4m players has n - 1 rounds of m tables; for n = 4m + 1, n rounds of m tables
with one player sitting out each round (each once). Each design is developed from one starting
round by a group (see `bot.leagues.whist_search` for how, and why that gives the property):

- n a prime of the form 4m + 1: built here (`prime_starter`), for any size; likewise n = p^2
  for a prime p of the form 4k + 3 (`gaussian_starter`);
- other n: found once by the search and shipped in `data/whist.json` (where the search found
  one: `shipped_sizes()`; 136 = 5 * 27 + 1 ships as the product of the design for 5 and one for
  28 over Z_3 x Z_3 x Z_3, the field of 27), or else built from two smaller designs
  (`bot.leagues.whist_product`) where n - 1 or n factors as u * v with designs for u and v
  (or v + 1) players;
- n = 4m + 1 with none of those: a design of another kind where one ships
  (`bot.leagues.whist_rotational`: a round of cosets and a round developed over Z_4m);
- else smaller designs put together on the blocks of a transversal design
  (`bot.leagues.whist_blocks`): n = k q + 1 (k = 4a + 1, q = 4b), n = k q (k, q = 4a, 4b) or
  n = k q + w (k = 4a + 1, with a design for q + w holding one for w, `bot.leagues.whist_sub`);
- last, n = 4 q for a prime power q = 3 (mod 4): four copies of the field of q elements
  (`bot.leagues.field_orbits`), which gives 108.
"""

from __future__ import annotations

import json
import math
from functools import cache
from pathlib import Path

from bot.leagues import field_orbits
from bot.leagues.groups import Group
from bot.leagues.rounds import Round, Table
from bot.leagues.whist_blocks import block_design
from bot.leagues.whist_product import Developed, Starter, multipliers, product
from bot.leagues.whist_rotational import shipped_design as rotational_design

DATA = Path(__file__).with_name("data") / "whist.json"

__all__ = [
    "Developed",
    "Starter",
    "design",
    "develop",
    "modulus",
    "gaussian_starter",
    "prime_starter",
    "starter",
]


def modulus(players: int) -> int:
    """The order of the group that develops a whist design for `players` (4m or 4m + 1).

    Raises:
        ValueError: `players` is neither 4m nor 4m + 1.
    """
    if players >= 4 and players % 4 == 1:
        return players
    if players >= 4 and players % 4 == 0:
        return players - 1
    raise ValueError(f"no whist tournament for {players} players (it needs 4m or 4m + 1)")


def develop(players: int, group: Group, starter: Starter) -> list[Round]:
    """Every round of the design: round g adds the group element g to each player.

    For n = 4m the fixed player (numbered n - 1) stays n - 1 in every round; for n = 4m + 1
    the player absent from the starting round (0) is the one sitting out, so g sits out round g.
    """
    n = modulus(players)
    add = group.add_table()

    def moved(p: int, g: int) -> int:
        return p if p >= n else add[p][g]

    rounds = []
    for g in range(n):
        tables: list[Table] = [
            ((moved(a, g), moved(b, g)), (moved(c, g), moved(d, g))) for a, b, c, d in starter
        ]
        byes = (g,) if players % 4 == 1 else ()
        rounds.append(Round(tuple(tables), byes))
    return rounds


def prime_starter(p: int) -> Starter:
    """The starting round of a cyclic whist design for a prime p = 4m + 1.

    With x a primitive root modulo p, table i (0 <= i < m) is (x^i, x^(i+2m)) against
    (x^(i+m), x^(i+3m)). As x^(2m) = -1, the partner differences are +-2x^i and +-2x^(i+m),
    each power of x once; with j = x^m (a square root of -1) the opponent differences are
    x^i times +-(1 - j) and +-(1 + j), twice each, and (1 + j) / (1 - j) = j, so they too cover
    every power of x, twice.

    Raises:
        ValueError: p is not a prime of the form 4m + 1.
    """
    if p < 5 or p % 4 != 1 or not _is_prime(p):
        raise ValueError(f"{p} is not a prime of the form 4m + 1")
    x = next(g for g in range(2, p) if all(pow(g, (p - 1) // q, p) != 1 for q in _primes_of(p - 1)))
    return _cyclotomic_starter([pow(x, e, p) for e in range(p - 1)])


def gaussian_starter(p: int) -> Starter:
    """The starting round of a whist design for p^2 players, p a prime of the form 4k + 3, over
    Z_p x Z_p: the field Z_p[i] (i^2 = -1, which has no square root modulo such a p), whose
    element a + bi is numbered a * p + b. The tables are those of `prime_starter`, with x a
    generator of the field's multiplicative group: its proof uses only that x has order p^2 - 1.

    Raises:
        ValueError: p is not a prime of the form 4k + 3.
    """
    if p < 3 or p % 4 != 3 or not _is_prime(p):
        raise ValueError(f"{p} is not a prime of the form 4k + 3")
    order = p * p - 1

    def times(x: tuple[int, int], y: tuple[int, int]) -> tuple[int, int]:
        (a, b), (c, d) = x, y
        return (a * c - b * d) % p, (a * d + b * c) % p

    def power(x: tuple[int, int], e: int) -> tuple[int, int]:
        out = (1, 0)
        for _ in range(e):
            out = times(out, x)
        return out

    x = next(
        g
        for g in ((a, b) for a in range(p) for b in range(1, p))
        if all(power(g, order // q) != (1, 0) for q in _primes_of(order))
    )
    powers, y = [], (1, 0)
    for _ in range(order):
        powers.append(y[0] * p + y[1])
        y = times(y, x)
    return _cyclotomic_starter(powers)


def _cyclotomic_starter(power: list[int]) -> Starter:
    """Tables (x^i, x^(i+2m)) against (x^(i+m), x^(i+3m)), 0 <= i < m, from the powers
    x^0..x^(4m-1) of a generator of a field's multiplicative group (see `prime_starter`)."""
    m = len(power) // 4
    return [[power[i], power[i + 2 * m], power[i + m], power[i + 3 * m]] for i in range(m)]


def _is_prime(n: int) -> bool:
    return n > 1 and all(n % d for d in range(2, int(n**0.5) + 1))


def _primes_of(n: int) -> list[int]:
    primes, d = [], 2
    while d * d <= n:
        if n % d == 0:
            primes.append(d)
            while n % d == 0:
                n //= d
        d += 1
    return primes + ([n] if n > 1 else [])


def design(players: int) -> list[Round] | None:
    """A whist design for `players`, or None when this module has none for that number."""
    found = starter(players)
    if found is not None:
        return develop(players, *found)
    if players % 4 == 1 and (rounds := rotational_design(players)) is not None:
        return rounds
    return block_design(players, design) or field_orbits.design(players, design)


@cache
def starter(players: int) -> Developed | None:
    """The group and starting round of a whist design for `players`, or None when there is
    none here: the prime construction, else the shipped design, else the field of p^2
    (`gaussian_starter`), else a product of two smaller designs."""
    if players < 4 or players % 4 not in (0, 1):
        return None
    try:
        return Group((players,)), prime_starter(players)
    except ValueError:
        pass
    entry = _shipped().get(str(players))
    if entry is not None:
        factors, rows = entry["group"], entry["starter"]
        assert isinstance(factors, list) and isinstance(rows, list)
        return Group(tuple(factors)), rows
    root = math.isqrt(players)
    if root * root == players and root % 4 == 3 and _is_prime(root):
        return Group((root, root)), gaussian_starter(root)
    return _product_starter(players)


def _product_starter(players: int) -> Developed | None:
    """A product (`whist_product.product`) of designs for u and v (4m + 1 players: u * v = n)
    or u and v + 1 (4m players: u * v = n - 1), u = 4a + 1; None when no factoring has both."""
    fixed_player = players % 4 == 0
    order = modulus(players)
    for u in range(5, order // 3 + 1, 4):
        if order % u:
            continue
        v = order // u
        first, second = starter(u), starter(v + 1 if fixed_player else v)
        if first is not None and second is not None and multipliers(second[0]) is not None:
            return product(first, second, fixed_player)
    return None


@cache
def _shipped() -> dict[str, dict[str, object]]:
    data: dict[str, dict[str, object]] = json.loads(DATA.read_text(encoding="utf-8"))
    return data


def shipped_sizes() -> list[int]:
    """The numbers of players for which a design ships."""
    return sorted(int(n) for n in _shipped())


def shipped_design(players: int) -> list[Round] | None:
    """The shipped whist design for `players`, or None when none ships for that number."""
    entry = _shipped().get(str(players))
    if entry is None:
        return None
    factors = entry["group"]
    starter = entry["starter"]
    assert isinstance(factors, list) and isinstance(starter, list)
    return develop(players, Group(tuple(factors)), starter)
