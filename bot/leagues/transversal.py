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
- n = m t + u (Wilson's construction, 1974), where the product falls short (33 = 3 x 11 has
  no TD(5, 33) as a product, since 3 has none of five groups): a design of k + 1 groups of t,
  its last group cut down to u points, every point of the first k groups standing for m
  points. A block that missed the u points becomes a design of k groups of m on its points'
  copies; a block through one of them, y, a design of k groups of m + 1, the last point of
  each group being y's copy in that group, less the block of those copies; and one design of
  k groups of u on the copies of the u points. Two points of different groups met in one
  block of the first design, so they meet in exactly one of the new blocks; two copies of the
  u points meet in the last design only.
- A resolvable design of k groups is one of k + 1 groups less its last: the blocks through
  each point of that group take every other point once.
"""

from __future__ import annotations

from functools import cache

from bot.leagues.fields import field

Block = tuple[int, ...]
ParallelClass = list[Block]


def transversal_design(k: int, n: int) -> list[Block] | None:
    """The blocks of a transversal design of k groups of n points, or None when this module
    has none (neither a product of prime powers each at least k - 1, nor Wilson's
    construction from such designs)."""
    blocks = _design(k, n)
    return None if blocks is None else list(blocks)


def resolvable_transversal_design(k: int, n: int) -> list[ParallelClass] | None:
    """A transversal design of k groups of n points as n parallel classes of n blocks (each
    class takes every point once), or None when this module has none."""
    classes = _product_classes(k, n)
    if classes is not None:
        return classes
    wider = _design(k + 1, n)
    if wider is None:
        return None
    classes = [[] for _ in range(n)]
    for block in wider:
        classes[block[k]].append(block[:k])
    return classes


@cache
def _design(k: int, n: int) -> tuple[Block, ...] | None:
    blocks = _product_design(k, n)
    return tuple(blocks) if blocks is not None else _wilson(k, n)


def _product_design(k: int, n: int) -> list[Block] | None:
    blocks: list[Block] = [(0,) * k]
    for q in _prime_power_factors(n):
        part = _field_design(k, q)
        if part is None:
            return None
        blocks = [_product(b1, b2, q) for b1 in blocks for b2 in part]
    return blocks


def _product_classes(k: int, n: int) -> list[ParallelClass] | None:
    classes: list[ParallelClass] = [[(0,) * k]]
    for q in _prime_power_factors(n):
        if k > q:
            return None
        part = _field_classes(k, q)
        classes = [[_product(b1, b2, q) for b1 in c1 for b2 in c2] for c1 in classes for c2 in part]
    return classes


def _wilson(k: int, n: int) -> tuple[Block, ...] | None:
    """Wilson's construction for n = m t + u, 1 <= u <= t, the largest t first; None when
    no such split has all four smaller designs here."""
    for t in range(n - 1, 1, -1):
        for u in range(1, t + 1):
            m, rest = divmod(n - u, t)
            if rest or m < 1:
                continue
            wide, copies, more, cut = (
                _design(k + 1, t),
                _design(k, m),
                _design(k, m + 1),
                _design(k, u),
            )
            if wide is not None and copies is not None and more is not None and cut is not None:
                return _truncated(k, t, m, u, wide, copies, _with_last_block(k, m, more), cut)
    return None


def _with_last_block(k: int, m: int, blocks: tuple[Block, ...]) -> tuple[Block, ...]:
    """The design renamed, group by group, so that (m, ..., m) is one of its blocks."""
    first = blocks[0]

    def renamed(g: int, y: int) -> int:
        return m if y == first[g] else first[g] if y == m else y

    return tuple(tuple(renamed(g, y) for g, y in enumerate(block)) for block in blocks)


def _truncated(
    k: int,
    t: int,
    m: int,
    u: int,
    wide: tuple[Block, ...],
    copies: tuple[Block, ...],
    more: tuple[Block, ...],
    cut: tuple[Block, ...],
) -> tuple[Block, ...]:
    """Point a * m + z of a group is copy z of the wide design's point a; point m t + y is
    the copy of the last group's point y < u."""
    last = (m,) * k
    blocks: list[Block] = []
    for block in wide:
        y = block[k]
        if y >= u:
            blocks += [tuple(block[g] * m + c[g] for g in range(k)) for c in copies]
        else:
            blocks += [
                tuple(block[g] * m + c[g] if c[g] < m else m * t + y for g in range(k))
                for c in more
                if c != last
            ]
    blocks += [tuple(m * t + c[g] for g in range(k)) for c in cut]
    return tuple(blocks)


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
