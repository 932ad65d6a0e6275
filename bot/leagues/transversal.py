"""Transversal designs: k groups of n points, and blocks that take one point of each group so
that every two points of different groups lie in exactly one block.

A block is given by its point in each group, `block[g]` in 0..n-1 (point y of group g). Some
whist designs are built from these (`bot.leagues.whist_blocks`).

- n a prime power q: the lines of the plane over the field of q elements. Block (a, b) takes
  a * e_g + b in group g (e_g the g-th element) and, for k = q + 1, a in the last group; two
  points y, z of groups g, h fix a = (y - z) / (e_g - e_h), then b. For k <= q the blocks with
  the same a take every point once: they resolve into q parallel classes.
- n a product: the product of designs for its prime-power factors (MacNeish), block (B1, B2)
  taking (B1[g], B2[g]) in group g; the product of parallel classes is a parallel class.
"""

from __future__ import annotations

from bot.leagues.fields import field

Block = tuple[int, ...]
ParallelClass = list[Block]


def transversal_design(k: int, n: int) -> list[Block] | None:
    """The blocks of a transversal design of k groups of n points, or None when this module
    has none (n's prime-power factors must each be at least k - 1)."""
    blocks: list[Block] = [(0,) * k]
    for q in _prime_power_factors(n):
        part = _field_design(k, q)
        if part is None:
            return None
        blocks = [_product(b1, b2, q) for b1 in blocks for b2 in part]
    return blocks


def resolvable_transversal_design(k: int, n: int) -> list[ParallelClass] | None:
    """A transversal design of k groups of n points as n parallel classes of n blocks (each
    class takes every point once), or None when this module has none (n's prime-power factors
    must each be at least k)."""
    classes: list[ParallelClass] = [[(0,) * k]]
    for q in _prime_power_factors(n):
        if k > q:
            return None
        part = _field_classes(k, q)
        classes = [[_product(b1, b2, q) for b1 in c1 for b2 in c2] for c1 in classes for c2 in part]
    return classes


def _product(first: Block, second: Block, q: int) -> Block:
    """The block taking (first[g], second[g]), numbered first[g] * q + second[g], in group g."""
    return tuple(y * q + z for y, z in zip(first, second, strict=True))


def _prime_power_factors(n: int) -> list[int]:
    factors, d = [], 2
    while n > 1:
        power = 1
        while n % d == 0:
            n //= d
            power *= d
        if power > 1:
            factors.append(power)
        d += 1
    return factors


def _field_classes(k: int, q: int) -> list[ParallelClass]:
    """The blocks (a, b) of the plane over GF(q), k <= q groups, class by class (a)."""
    f = field(q)
    return [[tuple(f.add[f.times[a][g]][b] for g in range(k)) for b in range(q)] for a in range(q)]


def _field_design(k: int, q: int) -> list[Block] | None:
    if k > q + 1:
        return None
    if k <= q:
        return [block for cls in _field_classes(k, q) for block in cls]
    # The last group takes the slope a: it is the point at infinity of the lines of slope a.
    return [(*block, a) for a, cls in enumerate(_field_classes(q, q)) for block in cls]
