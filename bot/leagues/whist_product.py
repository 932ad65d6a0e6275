"""Whist designs for u * v (or u * v + 1) players built from two smaller designs.

Take a design for u = 4a + 1 players over a group G1 (starting round S1, player 0 sitting out)
and a design over a group G2 of order v: either for v = 4b + 1 players (starting round S2, 0
sitting out) or for v + 1 players (S2 holds the fixed player, numbered v, partnering 0). The
product's group is G1 x G2, of order u * v; its starting round has three parts:

- S1 on the elements (x, 0): its partner and opponent differences are the (d, 0);
- S2 on the elements (0, y) (and the fixed player): the differences (0, e);
- for each table (a, b, c, d) of S1 and each y != 0 of G2, the table
  ((a, m1 y), (b, m2 y)) against ((c, m3 y), (d, m4 y)), where m1..m4 are four multipliers of
  G2 (automorphisms of the group) whose differences m_i - m_j are automorphisms too. The
  partners (a, m1 y), (b, m2 y) differ by (a - b, (m1 - m2) y): as y runs over G2's non-zero
  elements, so does (m1 - m2) y, and a - b runs over S1's partner differences, each non-zero
  element of G1 once; so these tables make every (d, e) with d, e != 0 a partner difference
  once, and likewise an opponent difference twice. Each element (x, z), x, z != 0, sits at
  one of them: x's table of S1, y = z / m.

So the product is a whist design for u * v players (the other player sits out each round) or
for u * v + 1 (the fixed player of S2 stays fixed). The multipliers exist when the order of
G2 is prime to 6 (multiplying by 1, 2, 3, 4) and for Z_p x ... x Z_p of order at least 5 (a
finite field: Z_3 x Z_3 and Z_3 x Z_3 x Z_3 are the fields of nine and 27 elements).
"""

from __future__ import annotations

import math

from bot.leagues.fields import field, prime_power
from bot.leagues.groups import Group

# A design's group and its starting round's tables, each [a, b, c, d]: (a, b) against (c, d).
Starter = list[list[int]]
Developed = tuple[Group, Starter]


def multipliers(group: Group) -> list[list[int]] | None:
    """Four automorphisms of `group`, each as the list of images of 0..order-1, whose pairwise
    differences are automorphisms too; None when this module knows none for the group."""
    if math.gcd(group.order, 6) == 1:
        # x -> kx for k = 1..4: k and the differences 1, 2, 3 are prime to every factor.
        return [
            [group.number(tuple(k * r for r in group.digits(x))) for x in range(group.order)]
            for k in range(1, 5)
        ]
    p = group.factors[0]
    if group.order >= 5 and prime_power(group.order) == (p, len(group.factors)):
        # Z_p x ... x Z_p is the additive group of the field of p^n elements, numbered alike
        # (`bot.leagues.fields`): multiplying by 1, 2, 3 and 4, four distinct elements, so their
        # differences are non-zero, so invertible.
        times = field(group.order).times
        return [list(times[m]) for m in range(1, 5)]
    return None


def product(first: Developed, second: Developed, fixed_player: bool) -> Developed:
    """The design over G1 x G2 made of `first` (u = 4a + 1 players) and `second`.

    Args:
        first: the group G1 (order u = 4a + 1) and the starting round of a design for u players.
        second: the group G2 (order v) and the starting round of a design for v + 1 players
            (`fixed_player`, v = 4b + 3) or v players (v = 4b + 1).
        fixed_player: whether `second` has a fixed player (numbered v).

    Returns:
        The group G1 x G2 and a starting round for u * v (+ 1 with the fixed player) players:
        element (x, y) is numbered x * v + y, the fixed player u * v.

    Raises:
        ValueError: `first` is not for 4a + 1 players, or G2 has no multipliers here.
    """
    (g1, s1), (g2, s2) = first, second
    u, v = g1.order, g2.order
    mult = multipliers(g2)
    if u % 4 != 1:
        raise ValueError(f"the first design must be for 4a + 1 players, not {u}")
    if mult is None:
        raise ValueError(f"no multipliers for the group {g2.factors}")
    fixed = u * v

    def mixed(x: int, y: int) -> int:
        return x * v + y

    tables = [[mixed(x, 0) for x in table] for table in s1]
    tables += [[fixed if y == v and fixed_player else mixed(0, y) for y in t] for t in s2]
    for table in s1:
        for y in range(1, v):
            tables.append([mixed(x, m[y]) for x, m in zip(table, mult, strict=True)])
    return Group(g1.factors + g2.factors), tables
