"""Designs of blocks of five: v points, blocks of five, every two points in exactly one block;
and the group divisible designs made from them, on which whist designs are put together
(`bot.leagues.whist_blocks`: a block of five is a design for five, one player sitting out
each round).

A design on v = 5 (mod 20) points is developed by an abelian group G of order v holding a
subgroup S of order 5: its blocks are the cosets of S and the translates B + g of (v - 5) / 20
base blocks whose 20 differences each take every element of G outside S exactly once (a pair
{x, y} of one coset of S lies in that coset, any other in the one translate holding x - y).
The base blocks are found by backtracking, over the group `_GROUPS` names for the size.

Taking a point p out of such a design leaves a group divisible design: the blocks through p,
without p, are (v - 1) / 4 groups of four points, and every two points of different groups lie
in exactly one of the other blocks. Weighting each point by m (a transversal design of 5
groups of m on each block) gives groups of 4m points and blocks of five again.
"""

from __future__ import annotations

from functools import cache

from bot.leagues.groups import Group, new_differences
from bot.leagues.transversal import Block, transversal_design

# The group that develops each design here: Z_45 has none with the cosets of its subgroup
# of order 5 (the backtracking ends with none), Z_3 x Z_15 has one at once.
_GROUPS = {45: Group((3, 15))}


def sizes() -> list[int]:
    """The numbers of points this module has a design of blocks of five for."""
    return sorted(_GROUPS)


@cache
def steiner_quintuples(points: int) -> list[Block] | None:
    """The blocks of a design of blocks of five on `points` points, or None when this module
    has none."""
    group = _GROUPS.get(points)
    if group is None:
        return None
    add = group.add_table()
    subgroup = next(s for x in range(1, points) if len(s := group.generated(x)) == 5)
    bases = base_blocks(group, set(subgroup), (points - 5) // 20)
    if bases is None:
        return None
    cosets = {tuple(sorted(add[x][y] for y in subgroup)) for x in range(points)}
    translates = {tuple(sorted(add[x][g] for x in base)) for base in bases for g in range(points)}
    return sorted(cosets | translates)


def group_divisible(points: int, weight: int) -> tuple[list[list[int]], list[list[int]]] | None:
    """The groups (of 4 * weight points) and blocks (of five) left by taking one point out of
    the design on `points` points, each point weighted by `weight`; None when either is missing.
    The point taken out is the last, so point x of the design with weight i is numbered
    x * weight + i."""
    blocks = steiner_quintuples(points)
    spread = transversal_design(5, weight)
    if blocks is None or spread is None:
        return None
    gone = points - 1
    groups = [
        [x * weight + i for x in block if x != gone for i in range(weight)]
        for block in blocks
        if gone in block
    ]
    kept = [block for block in blocks if gone not in block]
    weighted = [
        [x * weight + i for x, i in zip(block, small, strict=True)]
        for block in kept
        for small in spread
    ]
    return groups, weighted


def base_blocks(group: Group, taken: set[int], count: int) -> list[Block] | None:
    """`count` blocks of five, each holding 0, whose differences take each element of `group`
    not in `taken` (which holds 0) exactly once; None when there are none."""
    sub = group.sub_table()
    order = group.order
    used = set(taken)
    blocks: list[Block] = []

    def extend(block: list[int]) -> bool:
        if len(block) == 5:
            blocks.append(tuple(block))
            if start():
                return True
            blocks.pop()
            return False
        # The points after 0 and the first difference rise, so each block is tried once.
        for x in range(block[-1] + 1 if len(block) > 2 else 1, order):
            if x in block:
                continue
            differences = new_differences(sub, block, x, used)
            if differences is None:
                continue
            used.update(differences)
            if extend([*block, x]):
                return True
            used.difference_update(differences)
        return False

    def start() -> bool:
        if len(blocks) == count:
            return True
        # The smallest difference not yet taken, d, is d - 0 in one translate of a base block:
        # that translate holds 0 and d.
        free = min(d for d in range(1, order) if d not in used)
        pair = [free, sub[0][free]]
        used.update(pair)
        if extend([0, free]):
            return True
        used.difference_update(pair)
        return False

    return blocks if start() else None
