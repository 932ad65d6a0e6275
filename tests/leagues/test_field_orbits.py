"""Whist designs on four copies of a field of q = 3 (mod 4) elements (`field_orbits`): 108."""

from __future__ import annotations

from bot.leagues import field_orbits
from bot.leagues.progressive import is_whist
from bot.leagues.whist import design


def test_108_players_on_four_copies_of_the_field_of_27_partner_once_and_oppose_twice():
    rounds = field_orbits.design(108, design)
    assert rounds is not None and len(rounds) == 107
    assert all(len(r.tables) == 27 and not r.byes for r in rounds)
    assert is_whist(108, rounds)
    assert design(108) == rounds  # the design the schedules use


def test_the_same_construction_gives_124_players_on_the_field_of_31():
    rounds = field_orbits.design(124, design)
    assert rounds is not None and is_whist(124, rounds)


def test_only_four_times_a_prime_power_3_mod_4_above_3_has_this_shape():
    assert field_orbits.orbits_of(108) == (27, 4)
    assert [n for n in range(4, 201) if field_orbits.orbits_of(n)] == [
        28,
        44,
        76,
        92,
        108,
        124,
        172,
        188,
    ]
    assert field_orbits.design(132, design) is None


def test_the_tables_found_balance_every_kind_of_pair():
    """Each orbit's own pairs, and each two orbits' pairs at a square and at a non-square
    difference: one partnership and two oppositions among the base and fixed tables."""
    found = field_orbits.search(27)
    assert found is not None
    base, fixed = found
    tables = [t for group in base + fixed for t in group]
    assert field_orbits.balanced(27, 4, tables)
    # Swapping a partner for an opponent at one table breaks the counts.
    (a, b), (c, d) = tables[0]
    assert not field_orbits.balanced(27, 4, [((a, c), (b, d)), *tables[1:]])


def test_two_players_of_two_orbits_at_difference_zero_are_refused():
    """(x, i) and (x, j) meet at the zero tables only, as the design for four seats them."""
    assert field_orbits.classes(27, [(((5, 0), (5, 1)), ((2, 2), (3, 3)))]) is None
    counts = field_orbits.classes(27, [(((5, 0), (6, 0)), ((2, 2), (3, 3)))])
    # Orbit 0's own partnership, and orbits 2 and 3 partnered at difference 1, a square.
    assert counts is not None and counts[(0, 0)] == 1 and counts[(2, 3, 1, 0)] == 1
