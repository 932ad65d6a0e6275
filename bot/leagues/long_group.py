"""A group divisible design of blocks of five on 92 players with twenty groups of four and one
long group of twelve, on which `bot.leagues.whist_blocks` puts together the whist design for
93 players: with infinity added to every group, the groups are blocks of five and one of
thirteen, and Baker's closure with the designs for 5 and 13 gives a round for each player.

No design developed by a group of order 93 or 92 was found for 93 players (`whist_search`,
`whist_rotational`, `pbd`), and no pairwise balanced design with blocks of five only
(93 = 13 mod 20). This one has a single long block, which the counting allows: 5 divides
(93 x 92 - 13 x 12) / 2 pairs, and 4 divides 92 and 12.

The points are the elements of G = Z_2 x Z_40 (numbered as `bot.leagues.groups` numbers them)
and twelve more, X = {(i, c)}: three orbits i of four, c a coset of the subgroup K of index 4
(K = {(x, y): (x, y mod 8) in {(0, 0), (0, 4), (1, 2), (1, 6)}}; G / K is cyclic of order 4).
Adding g moves (i, c) to (i, c + g). The blocks:

- the groups: the cosets of H = {(0, 0), (0, 20), (1, 0), (1, 20)}, which holds every element
  of order two of G, and X;
- the translates of three blocks {(i, K), t_i1, ..., t_i4} (t_i1..t_i4 one in each coset of K):
  the translates by K keep (i, K) and move the t's over their four cosets, so (i, c) meets every
  element of G once;
- the translates of two blocks of five in G.

The 3 x 12 + 2 x 20 = 76 ordered differences of the base blocks' points in G (12 for each
block through X, 20 for each block of five) are the 76 elements of G outside H, each once: so
every two elements of different cosets of H meet in exactly one block, and no block holds two
of one coset or two of X. A counting argument over the 2-part of G (Z_16 with H = <4>) rules
out Z_80; Z_2 x Z_40 and Z_4 x Z_20 both have such blocks.

`find` finds the base blocks when they are first asked for, in about 0.5 s: it backtracks
over the transversals, each point tried in increasing order, and for each set of three looks
for the blocks of five as `bot.leagues.quintuples` does (the translate holding the smallest
difference not yet taken). The first found: transversals (0, 1, 6, 15), (0, 13, 2, 45),
(0, 33, 52, 49) and blocks (0, 4, 16, 46, 69), (0, 8, 18, 41, 62).
"""

from __future__ import annotations

from functools import cache

from bot.leagues.groups import Group, new_differences
from bot.leagues.quintuples import base_blocks

GROUP = Group((2, 40))
POINTS = 92  # the 80 elements of G, then X: (i, c) numbered 80 + 4 i + c
_ORBITS = 3  # orbits of X; each is G / K
_FIVES = 2  # base blocks of five in G


def _in_h(digits: tuple[int, ...]) -> bool:
    return digits[1] % 20 == 0


def _in_k(digits: tuple[int, ...]) -> bool:
    return (digits[0], digits[1] % 8) in {(0, 0), (0, 4), (1, 2), (1, 6)}


@cache
def _cosets_of_k() -> list[int]:
    """The coset of K of each element, numbered 0 (K itself) to 3 in order of first element."""
    add = GROUP.add_table()
    kernel = [g for g in range(GROUP.order) if _in_k(GROUP.digits(g))]
    coset = [-1] * GROUP.order
    number = 0
    for g in range(GROUP.order):
        if coset[g] < 0:
            for k in kernel:
                coset[add[g][k]] = number
            number += 1
    return coset


@cache
def find() -> tuple[list[tuple[int, ...]], list[tuple[int, ...]]] | None:
    """Three transversals of K's cosets (0, then a point of each of cosets 1, 2 and 3) and two
    blocks of five (`quintuples.base_blocks`) whose differences take every element outside H
    once; None when there are none."""
    sub = GROUP.sub_table()
    coset = _cosets_of_k()
    used = {h for h in range(GROUP.order) if _in_h(GROUP.digits(h))}
    transversals: list[list[int]] = [[0] for _ in range(_ORBITS)]
    fives: list[tuple[int, ...]] = []

    def extend(i: int) -> bool:
        if i == _ORBITS:
            found = base_blocks(GROUP, used, _FIVES)
            fives.extend(found or [])
            return found is not None
        block = transversals[i]
        if len(block) == 4:
            return extend(i + 1)
        for x in range(1, GROUP.order):
            if coset[x] != len(block):
                continue
            differences = new_differences(sub, block, x, used)
            if differences is None:
                continue
            used.update(differences)
            block.append(x)
            if extend(i):
                return True
            block.pop()
            used.difference_update(differences)
        return False

    if not extend(0):
        return None
    return [tuple(t) for t in transversals], fives


def group_divisible(points: int) -> tuple[list[list[int]], list[list[int]]] | None:
    """The groups (twenty of four, then X) and blocks of five of the design on `points` = 92
    players; None for any other number."""
    found = find() if points == POINTS else None
    if found is None:
        return None
    transversals, fives = found
    add = GROUP.add_table()
    coset = _cosets_of_k()
    order = GROUP.order
    h = [g for g in range(order) if _in_h(GROUP.digits(g))]
    groups = sorted({tuple(sorted(add[x][y] for y in h)) for x in range(order)})
    long = list(range(order, POINTS))
    through_x = [
        [order + 4 * i + coset[g], *(add[t][g] for t in transversal)]
        for i, transversal in enumerate(transversals)
        for g in range(order)
    ]
    translates = [[add[x][g] for x in five] for five in fives for g in range(order)]
    return [list(g) for g in groups] + [long], through_x + translates
