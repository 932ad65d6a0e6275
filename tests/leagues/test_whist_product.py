"""Whist designs built from smaller ones: products of two designs, and the fields of p^2."""

from __future__ import annotations

from collections import Counter

import pytest

from bot.leagues.groups import Group
from bot.leagues.progressive import is_whist
from bot.leagues.whist import develop, gaussian_starter, prime_starter, starter
from bot.leagues.whist_product import multipliers, product


def _is_automorphism(group: Group, images: list[int]) -> bool:
    add = group.add_table()
    return sorted(images) == list(range(group.order)) and all(
        images[add[x][y]] == add[images[x]][images[y]]
        for x in range(group.order)
        for y in range(group.order)
    )


@pytest.mark.parametrize("factors", [(5,), (7,), (25,), (5, 7), (3, 3), (3, 3, 3), (2, 2, 2)])
def test_multipliers_and_their_differences_are_automorphisms(factors):
    group = Group(factors)
    found = multipliers(group)
    assert found is not None and len(found) == 4
    sub = group.sub_table()
    for i, first in enumerate(found):
        assert _is_automorphism(group, first)
        for second in found[i + 1 :]:
            difference = [sub[first[x]][second[x]] for x in range(group.order)]
            assert _is_automorphism(group, difference)


@pytest.mark.parametrize("factors", [(3,), (9,), (15,), (21,), (2, 2)])
def test_groups_without_multipliers_have_none(factors):
    assert multipliers(Group(factors)) is None


def test_product_with_a_player_sitting_out_is_a_whist_tournament():
    """5 x 13 = 65 players: 65 rounds, each player sitting out once."""
    group, rows = product(
        (Group((5,)), prime_starter(5)), (Group((13,)), prime_starter(13)), fixed_player=False
    )
    assert group.factors == (5, 13)
    rounds = develop(65, group, rows)
    assert len(rounds) == 65 and is_whist(65, rounds)
    assert Counter(b for r in rounds for b in r.byes) == Counter(range(65))


def test_product_with_the_fixed_player_is_a_whist_tournament():
    """5 x (7 + 1): 36 players over Z_5 x Z_7, the fixed player 35 at every round's tables."""
    eight = starter(8)
    assert eight is not None
    group, rows = product((Group((5,)), prime_starter(5)), eight, fixed_player=True)
    assert group.factors == (5, 7)
    assert sum(row.count(35) for row in rows) == 1
    rounds = develop(36, group, rows)
    assert len(rounds) == 35 and is_whist(36, rounds)
    assert all(not r.byes for r in rounds)


def test_product_over_the_field_of_nine():
    """9 x 9 = 81: the second design's group Z_3 x Z_3 is multiplied as the field of nine."""
    nine = starter(9)
    assert nine is not None and nine[0].factors == (3, 3)
    group, rows = product(nine, nine, fixed_player=False)
    assert is_whist(81, develop(81, group, rows))


def test_product_refuses_what_it_cannot_build():
    eight, twenty_one = starter(8), starter(21)
    assert eight is not None and twenty_one is not None
    with pytest.raises(ValueError, match="4a \\+ 1 players, not 7"):
        product(eight, twenty_one, fixed_player=False)
    with pytest.raises(ValueError, match="no multipliers for the group \\(21,\\)"):
        product((Group((5,)), prime_starter(5)), twenty_one, fixed_player=False)


@pytest.mark.parametrize("prime", [3, 7, 11])
def test_gaussian_construction_is_a_whist_tournament(prime):
    players = prime * prime
    rounds = develop(players, Group((prime, prime)), gaussian_starter(prime))
    assert len(rounds) == players and is_whist(players, rounds)


def test_gaussian_construction_refuses_other_numbers():
    for bad in (2, 5, 9, 13, 15):
        with pytest.raises(ValueError, match="not a prime of the form 4k \\+ 3"):
            gaussian_starter(bad)
