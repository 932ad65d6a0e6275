"""Small abelian groups Z_a x Z_b x ..., whose elements are numbered 0..order-1.

The whist designs (`bot.leagues.whist`) are developed from one starting round by adding a group
element to every player; an element is a tuple of residues, numbered in mixed radix (the last
factor varies fastest) so that a player is a plain int.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property


@dataclass(frozen=True)
class Group:
    """The group Z_f1 x Z_f2 x ... for `factors` (f1, f2, ...)."""

    factors: tuple[int, ...]

    @property
    def order(self) -> int:
        """The number of elements."""
        return math.prod(self.factors)

    def digits(self, x: int) -> tuple[int, ...]:
        """The residues of element `x`, one per factor."""
        out = []
        for f in reversed(self.factors):
            x, r = divmod(x, f)
            out.append(r)
        return tuple(reversed(out))

    def number(self, digits: tuple[int, ...]) -> int:
        """The element with these residues."""
        x = 0
        for f, r in zip(self.factors, digits, strict=True):
            x = x * f + r % f
        return x

    @cached_property
    def _add(self) -> list[list[int]]:
        d = [self.digits(x) for x in range(self.order)]
        return [
            [
                self.number(tuple(a + b for a, b in zip(d[x], d[y], strict=True)))
                for y in range(self.order)
            ]
            for x in range(self.order)
        ]

    def generated(self, x: int) -> list[int]:
        """The subgroup x generates: 0, x, 2x, ... in that order."""
        multiples = [0]
        while (y := self._add[multiples[-1]][x]) != 0:
            multiples.append(y)
        return multiples

    def add_table(self) -> list[list[int]]:
        """`add_table()[x][y]` is x + y."""
        return self._add

    def sub_table(self) -> list[list[int]]:
        """`sub_table()[x][y]` is x - y."""
        n = self.order
        sub = [[0] * n for _ in range(n)]
        for x in range(n):
            for y in range(n):
                sub[self._add[x][y]][y] = x
        return sub


def whist_groups(order: int) -> list[Group]:
    """The groups the search tries for a design of this order: the cyclic group first, then
    products of cyclic groups of prime order (Z_3 x Z_3 for 9, ...)."""
    groups = [Group((order,))]
    for p in (2, 3, 5, 7):
        k, rest = 0, order
        while rest % p == 0:
            rest //= p
            k += 1
        if k >= 2 and rest == 1:
            groups.append(Group((p,) * k))
    return groups


def new_differences(
    sub: list[list[int]], block: list[int], x: int, used: set[int]
) -> list[int] | None:
    """The differences x - y and y - x that adding x to `block` makes (sub: the subtraction
    table), or None when two of them are equal or one is in `used`: the test of the
    backtracking searches for blocks whose differences take each element once."""
    differences = [sub[x][y] for y in block] + [sub[y][x] for y in block]
    if len(set(differences)) < len(differences) or used.intersection(differences):
        return None
    return differences
