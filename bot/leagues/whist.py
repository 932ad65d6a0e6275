"""Whist tournament designs: every two players partners once and opponents twice.

A design for n = 4m players has n - 1 rounds of m tables; for n = 4m + 1, n rounds of m tables
with one player sitting out each round (each once). Each design is developed from one starting
round by a group (see `bot.leagues.whist_search` for how, and why that gives the property):

- n a prime of the form 4m + 1: built here (`prime_starter`), for any size;
- other n up to 64: found once by the search and shipped in `data/whist.json` (where the search
  found one: `shipped_sizes()`).
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from bot.leagues.groups import Group
from bot.leagues.rounds import Round, Table

DATA = Path(__file__).with_name("data") / "whist.json"

# The starting round's tables, each [a, b, c, d]: (a, b) against (c, d).
Starter = list[list[int]]


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
    if p < 5 or p % 4 != 1 or any(p % d == 0 for d in range(2, int(p**0.5) + 1)):
        raise ValueError(f"{p} is not a prime of the form 4m + 1")
    m = (p - 1) // 4
    x = next(g for g in range(2, p) if all(pow(g, (p - 1) // q, p) != 1 for q in _primes_of(p - 1)))
    power = [pow(x, e, p) for e in range(4 * m)]
    return [[power[i], power[i + 2 * m], power[i + m], power[i + 3 * m]] for i in range(m)]


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
    try:
        return develop(players, Group((players,)), prime_starter(players))
    except ValueError:
        return shipped_design(players)


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
