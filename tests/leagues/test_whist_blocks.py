"""Whist designs put together on the blocks of other designs, and what they stand on: finite
fields, transversal designs, resolvable designs of blocks of four, designs of blocks of five,
and the shipped pairwise balanced designs with their searches."""

from __future__ import annotations

import shutil
from collections import Counter
from itertools import combinations

import pytest

from bot.leagues import long_group, pbd, whist_sub
from bot.leagues.fields import field, prime_power
from bot.leagues.groups import Group
from bot.leagues.progressive import is_whist, schedule
from bot.leagues.quintuples import group_divisible, steiner_quintuples
from bot.leagues.resolvable import resolvable_quadruples
from bot.leagues.transversal import resolvable_transversal_design, transversal_design
from bot.leagues.whist import design, starter
from bot.leagues.whist_blocks import block_design


@pytest.mark.parametrize("q", [2, 3, 4, 5, 7, 8, 9, 16, 25, 27, 32, 49])
def test_a_field_adds_and_multiplies_as_a_field_does(q):
    f = field(q)
    elements = range(q)
    assert all(f.add[0][x] == x and f.times[1][x] == x and f.times[0][x] == 0 for x in elements)
    for x in elements:
        # Every element has a negative; every non-zero one an inverse.
        assert 0 in f.add[x]
        assert x == 0 or 1 in f.times[x]
    for x, y, z in [(x, y, z) for x in elements for y in elements for z in (0, 1, q - 1)]:
        assert f.add[x][y] == f.add[y][x] and f.times[x][y] == f.times[y][x]
        assert f.times[x][f.add[y][z]] == f.add[f.times[x][y]][f.times[x][z]]
        assert f.add[f.add[x][y]][z] == f.add[x][f.add[y][z]]
        assert f.times[f.times[x][y]][z] == f.times[x][f.times[y][z]]


def test_there_is_a_field_only_of_a_prime_power_order():
    assert prime_power(32) == (2, 5) and prime_power(49) == (7, 2) and prime_power(13) == (13, 1)
    assert prime_power(12) is None and prime_power(1) is None
    with pytest.raises(ValueError, match="not a prime power"):
        field(28)


def _covers_pairs_of_groups_once(k: int, n: int, blocks) -> None:
    assert len(blocks) == n * n
    assert all(len(block) == k and all(0 <= y < n for y in block) for block in blocks)
    met = Counter(
        ((g, block[g]), (h, block[h])) for block in blocks for g, h in combinations(range(k), 2)
    )
    assert len(met) == k * (k - 1) // 2 * n * n  # every pair of points of two groups...
    assert set(met.values()) == {1}  # ...in exactly one block


# k = n + 1 (the slopes make a group), 6 = 2 * 3 and 28 = 4 * 7 (products), fields of 32 and 16;
# by Wilson's construction, where 3 is too small a factor for a product: 33 = 4 * 8 + 1,
# 21 and 48, and 22 = 2 * 11 (2 is too small for four groups).
@pytest.mark.parametrize(
    "k, n",
    [
        (5, 4),
        (8, 7),
        (3, 6),
        (5, 28),
        (5, 32),
        (4, 20),
        (12, 16),
        (5, 33),
        (5, 21),
        (5, 48),
        (4, 22),
    ],
)
def test_a_transversal_design_puts_every_two_points_of_two_groups_in_one_block(k, n):
    _covers_pairs_of_groups_once(k, n, transversal_design(k, n))


# 33 and 48: a design of five groups less its last (Wilson's), the others products of fields.
@pytest.mark.parametrize("k, n", [(4, 20), (4, 32), (12, 16), (3, 15), (4, 33), (4, 48)])
def test_a_resolved_transversal_design_comes_in_classes_that_take_every_point_once(k, n):
    classes = resolvable_transversal_design(k, n)
    assert classes is not None and len(classes) == n
    for cls in classes:
        assert len(cls) == n
        assert all(sorted(block[g] for block in cls) == list(range(n)) for g in range(k))
    _covers_pairs_of_groups_once(k, n, [block for cls in classes for block in cls])


def test_no_transversal_design_is_made_where_a_factor_of_the_group_size_is_too_small():
    assert transversal_design(5, 6) is None  # 6 = 2 * 3, and 5 groups need fields of 4 or more
    assert transversal_design(4, 6) is None  # nor does any m t + u (a design of 2 is needed)
    assert transversal_design(6, 33) is None  # 33 = 4 * 8 + 1 would need one of 6 groups of 4
    assert resolvable_transversal_design(5, 4) is None  # in classes, 5 groups need 5 or more


@pytest.mark.parametrize("players", [141, 161])
def test_a_design_for_kq_plus_1_players_sits_each_out_once_and_is_whist(players):
    """141 = 5 * 28 + 1 and 161 = 5 * 32 + 1: designs for 5 on the blocks and for 29 or 33
    on each group with infinity."""
    assert starter(players) is None  # no design developed by a group is known
    rounds = block_design(players, design)
    assert rounds is not None and len(rounds) == players
    assert [r.byes for r in rounds] == [(x,) for x in range(players)]
    assert all(
        sorted(r.players()) == [p for p in range(players) if p not in r.byes] for r in rounds
    )
    assert is_whist(players, rounds)


@pytest.mark.parametrize("players", [80, 128, 192])
def test_a_design_for_kq_players_from_classes_of_blocks_seats_everyone_and_is_whist(players):
    """80 = 4 * 20, 128 = 4 * 32 and 192 = 4 * 48 (48's classes from Wilson's design)."""
    _seats_everyone_and_is_whist(players)


def test_a_design_for_4_x_33_players_seats_the_groups_byes_at_one_table_and_is_whist():
    """132 = 4 * 33, 33 = 4 * 8 + 1: in each of the first 33 rounds every group of 33 plays its
    design's round in which one of them sits out, and those four (one from each group) play at
    one table; every other table of the round is within a group."""
    _seats_everyone_and_is_whist(132)
    rounds = block_design(132, design)
    assert rounds is not None
    group = {p: p // 33 for p in range(132)}
    for rnd in rounds[:33]:
        mixed = [t for t in rnd.tables if len({group[p] for pair in t for p in pair}) > 1]
        assert len(mixed) == 1 and sorted(group[p] for pair in mixed[0] for p in pair) == [
            0,
            1,
            2,
            3,
        ]
    # The rest are whole classes of blocks of four, one player from each group at every table.
    for rnd in rounds[33:]:
        assert all(sorted(group[p] for pair in t for p in pair) == [0, 1, 2, 3] for t in rnd.tables)


def test_a_euchre_night_of_132_players_is_perfect():
    plan = schedule(132)
    assert plan.perfect and plan.repeated_partnerships == 0 and len(plan.rounds) == 131


def test_a_euchre_night_of_192_players_is_perfect():
    plan = schedule(192)
    assert plan.perfect and plan.repeated_partnerships == 0 and len(plan.rounds) == 191


@pytest.mark.parametrize("points", [16, 28, 40, 52])
def test_a_resolvable_design_of_quadruples_puts_every_two_points_in_one_block(points):
    """1-rotational: 28 over Z_3 x Z_3 x Z_3 and infinity, the others over the cyclic group."""
    classes = resolvable_quadruples(points)
    assert classes is not None and len(classes) == (points - 1) // 3
    for cls in classes:
        assert sorted(x for block in cls for x in block) == list(range(points))
    met = Counter(
        frozenset(pair) for cls in classes for block in cls for pair in combinations(block, 2)
    )
    assert len(met) == points * (points - 1) // 2 and set(met.values()) == {1}


@pytest.mark.parametrize("points", [8, 12, 20, 27, 29])
def test_no_resolvable_design_of_quadruples_but_on_4_modulo_12_points(points):
    assert resolvable_quadruples(points) is None


@pytest.mark.parametrize("players", [140, 200])
def test_a_design_on_a_resolvable_design_weighted_by_a_transversal_design_is_whist(players):
    """140 = 28 * 5 and 200 = 40 * 5: each point of a resolvable design of quadruples on 28 or 40
    points weighs 5, each block a resolved transversal design of 4 groups of 5, and the blocks of
    one class of the master make the groups of 20 (a design for 20 on each)."""
    _seats_everyone_and_is_whist(players)


def test_a_design_of_blocks_of_five_on_45_points_puts_every_two_points_in_one_block():
    blocks = steiner_quintuples(45)
    assert blocks is not None and len(blocks) == 45 * 44 // 20
    assert all(len(set(block)) == 5 and all(0 <= x < 45 for x in block) for block in blocks)
    met = Counter(frozenset(pair) for block in blocks for pair in combinations(block, 2))
    assert len(met) == 45 * 44 // 2 and set(met.values()) == {1}
    assert steiner_quintuples(44) is None and steiner_quintuples(25) is None


@pytest.mark.parametrize("weight", [1, 4])
def test_a_design_of_blocks_of_five_less_a_point_weighted_is_group_divisible(weight):
    """44 points in 11 groups of four, each point weighted: groups of 4 * weight, and every two
    players of different groups in exactly one block of five."""
    groups, blocks = group_divisible(45, weight)
    assert len(groups) == 11 and all(len(group) == 4 * weight for group in groups)
    assert sorted(x for group in groups for x in group) == list(range(44 * weight))
    group_of = {x: g for g, group in enumerate(groups) for x in group}
    met = Counter(frozenset(pair) for block in blocks for pair in combinations(block, 2))
    assert all(len(block) == 5 for block in blocks)
    assert all(len({group_of[x] for x in pair}) == 2 for pair in met)
    assert set(met.values()) == {1} and len(met) == (44 * weight) * (40 * weight) // 2


def test_designs_on_blocks_of_five_give_177_and_180_players():
    """177 = 16 * 11 + 1: the blocks of five and each group of 16 with infinity (designs for 5
    and 17); 180 = 16 * 11 + 4: the blocks, and on each group of 16 with the 4 of the hole the
    design for 16 + 4."""
    _seats_everyone_and_is_whist(180)
    assert starter(177) is None
    rounds = block_design(177, design)
    assert rounds is not None and [r.byes for r in rounds] == [(x,) for x in range(177)]
    assert is_whist(177, rounds)


def test_the_shipped_pairwise_balanced_design_on_129_points_gives_129_players():
    """129 = 128 + 1: six base blocks of five over Z_128, whose differences take every residue
    once but the multiples of 16, and infinity with the cosets of the subgroup of order 8
    (blocks of nine): Baker's closure on designs for 5 and 9."""
    family = pbd.shipped(129)
    assert family is not None and family.points == 129
    blocks = family.blocks()
    assert sorted(Counter(map(len, blocks)).items()) == [(5, 6 * 128), (9, 16)]
    assert pbd.is_pairwise_balanced(129, blocks)
    rounds = block_design(129, design)
    assert rounds is not None and len(rounds) == 129 and is_whist(129, rounds)


@pytest.mark.parametrize("points", pbd.sizes())
def test_every_shipped_pairwise_balanced_design_puts_every_two_points_in_one_block(points):
    for family in pbd.families(points):
        assert family.points == points and pbd.is_pairwise_balanced(points, family.blocks())


def test_a_design_with_a_hole_on_a_pairwise_balanced_design_less_infinity_gives_152():
    """152 = 6 * 24 + 8: the design on Z_144 and infinity, less infinity, leaves six groups of
    24 and blocks of five; on each group with the 8 of the hole, the design for 24 + 8 (over
    Z_2 x Z_12)."""
    groups, blocks = next(pbd.less_infinity(145))
    assert sorted(map(len, groups)) == [24] * 6 and {len(b) for b in blocks} == {5}
    _seats_everyone_and_is_whist(152)


@pytest.mark.skipif(shutil.which("cc") is None, reason="the C searches need a C compiler")
def test_the_c_searches_find_a_design_of_blocks_of_five_on_41_points():
    """Two base blocks of five over Z_41 whose differences take every non-zero residue once,
    by backtracking and by annealing (each within a second or so)."""
    for family in (
        pbd.backtrack(41, 1, False, [5, 5], seed=1, seconds=60),
        pbd.anneal(41, 1, False, [5, 5], seed=1, seconds=60),
    ):
        assert family is not None and family.points == 41
        assert pbd.is_pairwise_balanced(41, family.blocks())


def test_groups_of_four_and_one_of_twelve_give_93_players():
    """93 = 4 x 20 + 12 + 1: blocks of five on 92 points whose groups are the twenty cosets of
    H in Z_2 x Z_40 and the twelve points X; with infinity on every group, every two of the 93
    points lie in one block, of five or (X and infinity) of thirteen. Baker's closure on
    designs for 5 and 13 gives each player a round to sit out."""
    found = long_group.group_divisible(92)
    assert found is not None
    groups, blocks = found
    assert sorted(Counter(map(len, groups)).items()) == [(4, 20), (12, 1)]
    assert {len(b) for b in blocks} == {5} and len(blocks) == 5 * 80
    assert sorted(x for g in groups for x in g) == list(range(92))
    assert pbd.is_pairwise_balanced(93, [*blocks, *([*g, 92] for g in groups)])
    assert long_group.group_divisible(96) is None
    rounds = block_design(93, design)
    assert rounds is not None and [r.byes for r in rounds] == [(x,) for x in range(93)]
    assert is_whist(93, rounds)


def test_the_long_groups_transversals_take_one_point_of_each_coset_of_k():
    """Each block through a point (i, c) of X holds one element of each coset of K, so that its
    translates by K, which keep (i, c), meet every element of G once."""
    found = long_group.find()
    assert found is not None
    transversals, fives = found
    coset = long_group._cosets_of_k()
    assert len(transversals) == 3 and len(fives) == 2
    for t in transversals:
        assert [coset[x] for x in t] == [0, 1, 2, 3]
    assert Counter(coset) == {0: 20, 1: 20, 2: 20, 3: 20}


def test_a_family_with_a_subgroup_puts_its_cosets_with_infinity():
    """Infinity with the points (t, i) of every orbit i, or with (t + H, i) for a subgroup H."""
    assert pbd.Family(5, 2, True, ()).blocks() == [[t, 5 + t, 10] for t in range(5)]
    assert pbd.Family(6, 2, True, (), 3).blocks() == [
        [0, 2, 4, 6, 8, 10, 12],
        [1, 3, 5, 7, 9, 11, 12],
    ]


def test_a_multiplier_adds_the_images_of_the_base_blocks():
    """(x, i) -> (5 x, i + 1) on Z_31 x 3 is of order 3."""
    images = pbd._images([((0, 0), (1, 1))], 31, 5, [1, 2, 0])
    assert images == [((0, 0), (1, 1)), ((0, 1), (5, 2)), ((0, 2), (25, 0))]


@pytest.mark.parametrize("players", [77, 108, 30])
def test_no_block_design_where_no_factoring_fits(players):
    """77 - 1 = 4 * 19 (no k = 4a + 1 > 1 divides it with q = 4b, and it is not 44 m); 108 is
    neither 16 a b, nor k q + w or 44 m + w with a hole that ships, nor v m with v = 4 (mod 12)
    and m at least 4 (its design is on copies of a field, `field_orbits`); 30 is neither 4m
    nor 4m + 1."""
    assert block_design(players, design) is None


@pytest.mark.parametrize("players", [84, 104, 164, 168])
def test_a_design_for_kq_plus_w_players_with_a_hole_seats_everyone_and_is_whist(players):
    """84 = 5 * 16 + 4, 104 = 5 * 20 + 4, 164 = 5 * 32 + 4 and 168 = 5 * 32 + 8: designs for 5
    on the blocks, and for 20, 24, 36 or 40 players holding one for the 4 or 8 of the hole on
    each group (36 over Z_4 x Z_8)."""
    _seats_everyone_and_is_whist(players)


@pytest.mark.parametrize("q, w", whist_sub.shipped_sizes())
def test_a_design_that_holds_a_design_for_its_fixed_players_is_whist(q, w):
    starting = whist_sub.shipped_starting(q, w)
    assert starting is not None
    small = design(w)
    rounds = whist_sub.design(starting, small)
    assert len(rounds) == q + w - 1 and is_whist(q + w, rounds)
    hole = set(range(q, q + w))
    for rnd in rounds[:q]:  # the developed rounds: the fixed players at different tables
        assert all(len(hole & {p for side in table for p in side}) == 1 for table in rnd.tables[:w])
        assert all(not hole & {p for side in table for p in side} for table in rnd.tables[w:])
    for rnd in rounds[q:]:  # the others: the fixed players only with each other
        for table in rnd.tables:
            seated = {p for side in table for p in side}
            assert seated <= hole or not seated & hole


def test_the_solver_finds_a_design_that_holds_one_for_its_fixed_players():
    pytest.importorskip("ortools")
    for group in (Group((16,)), Group((2, 8)), Group((4, 4))):
        starting = whist_sub.solve(group, 4, seconds=60)
        assert starting is not None
        assert is_whist(20, whist_sub.design(starting, design(4)))
    # w not 4b; no subgroup of order w; q < 3w; the involutions of Z_2^4 span more than 4.
    for factors, w in (((16,), 6), ((18,), 4), ((8,), 4), ((2, 2, 2, 2), 4)):
        with pytest.raises(ValueError, match="no starting round of this kind"):
            whist_sub.solve(Group(factors), w, seconds=1)


def test_the_subgroup_holds_every_element_of_order_two():
    assert whist_sub.subgroup_for(Group((32,)), 8) == (0, 4, 8, 12, 16, 20, 24, 28)
    two = Group((2, 16))  # (1, 0), (0, 8) and (1, 8) are of order two
    assert whist_sub.subgroup_for(two, 4) == (0, 8, 16, 24)
    assert whist_sub.subgroup_for(Group((2, 2, 2)), 4) is None


def _seats_everyone_and_is_whist(players: int) -> None:
    """A block design for 4m players, where no design developed by a group is known: 4m - 1
    rounds seating everyone, every two players partners once and opponents twice."""
    assert starter(players) is None
    rounds = block_design(players, design)
    assert rounds is not None and len(rounds) == players - 1
    assert all(sorted(r.players()) == list(range(players)) and not r.byes for r in rounds)
    assert is_whist(players, rounds)
