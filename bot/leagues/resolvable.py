"""Resolvable designs of blocks of four: v points, blocks of four points, every two points in
exactly one block, and the blocks split into parallel classes that each take every point once.

Some whist designs stand on them (`bot.leagues.whist_blocks`): a class of blocks of four is
three rounds of the design for four on every block at once.

They are built 1-rotationally, for v = 3t + 1 (v = 4 mod 12, so t = 1 mod 4): the points are
the elements of an abelian group G of order 3t and infinity (numbered 3t), H = {0, h, 2h} a
subgroup of order 3, and one starting class R, fixed by adding h, made of

- the block {infinity} + H, and
- the H-orbits B, B + h, B + 2h of s = (t - 1) / 4 base blocks B_1..B_s whose 4s points take
  each coset of H but H itself once (so R takes every point once), and whose 12s = 3t - 3
  differences x - y take every element of G outside H once.

The classes are R + c for c one element of each coset of H. Infinity meets every point in the
blocks {infinity} + H + c, which also hold every pair whose difference is in H; every other
pair {x, y} lies in the one translate B_i + g holding the difference x - y, and that translate
is in one class. The base blocks are found by backtracking, coset by coset, over the cyclic
group first: Z_39 for 40 points (about a second), Z_3 x Z_3 x Z_3 for 28 (Z_27 and Z_3 x Z_9
have none).
"""

from __future__ import annotations

from functools import cache

from bot.leagues.groups import Group, new_differences, whist_groups
from bot.leagues.transversal import Block, ParallelClass


@cache
def resolvable_quadruples(points: int) -> list[ParallelClass] | None:
    """A resolvable design of blocks of four on `points` points as (points - 1) / 3 parallel
    classes, or None when this module finds none (points must be 4 modulo 12)."""
    if points < 4 or points % 12 != 4:
        return None
    for group in whist_groups(points - 1):
        found = _rotational_classes(group)
        if found is not None:
            return found
    return None


def _rotational_classes(group: Group) -> list[ParallelClass] | None:
    """The classes R + c developed from the starting class R over `group`, or None when the
    backtracking finds no base blocks there."""
    add = group.add_table()
    subgroup = next(s for x in range(1, group.order) if len(s := tuple(group.generated(x))) == 3)
    bases = _base_blocks(group, subgroup)
    if bases is None:
        return None
    infinity = group.order
    first = [(infinity, *subgroup)] + [
        tuple(add[x][y] for x in block) for block in bases for y in subgroup
    ]
    cosets = _cosets(group, subgroup)
    return [
        [tuple(x if x == infinity else add[x][coset[0]] for x in block) for block in first]
        for coset in cosets
    ]


def _cosets(group: Group, subgroup: tuple[int, ...]) -> list[list[int]]:
    """The cosets of `subgroup`, each led by its smallest element, the subgroup first."""
    add = group.add_table()
    seen: set[int] = set()
    cosets = []
    for x in range(group.order):
        if x not in seen:
            coset = [add[x][y] for y in subgroup]
            seen.update(coset)
            cosets.append(coset)
    return cosets


def _base_blocks(group: Group, subgroup: tuple[int, ...]) -> list[Block] | None:
    """(t - 1) / 4 blocks taking one element of each coset of `subgroup` but the subgroup,
    whose differences take each element outside the subgroup once; None when there are none."""
    sub = group.sub_table()
    cosets = _cosets(group, subgroup)
    coset_of = {x: c for c, coset in enumerate(cosets) for x in coset}
    used_cosets = {0}
    used_differences = set(subgroup)
    blocks: list[Block] = []

    def extend(block: list[int]) -> bool:
        if len(block) == 4:
            blocks.append(tuple(block))
            if place():
                return True
            blocks.pop()
            return False
        # The cosets of a block rise, so each block is tried in one order only.
        for c in range(coset_of[block[-1]] + 1, len(cosets)):
            if c in used_cosets:
                continue
            for x in cosets[c]:
                differences = new_differences(sub, block, x, used_differences)
                if differences is None:
                    continue
                used_cosets.add(c)
                used_differences.update(differences)
                if extend([*block, x]):
                    return True
                used_cosets.discard(c)
                used_differences.difference_update(differences)
        return False

    def place() -> bool:
        free = [c for c in range(len(cosets)) if c not in used_cosets]
        if not free:
            return True
        # The block holding the first free coset; adding an element of the subgroup to a base
        # block gives the same H-orbit, so it starts with the coset's first element.
        used_cosets.add(free[0])
        if extend([cosets[free[0]][0]]):
            return True
        used_cosets.discard(free[0])
        return False

    return blocks if place() else None
