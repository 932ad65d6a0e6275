"""Whist designs for 4m + 1 players from a round of cosets and a round developed over Z_4m."""

from __future__ import annotations

import shutil
from collections import Counter

import pytest

from bot.leagues import whist
from bot.leagues.progressive import is_whist, schedule
from bot.leagues.rounds import partner_counts
from bot.leagues.whist import design
from bot.leagues.whist_rotational import (
    coset_round,
    develop_rotational,
    match_c,
    shipped_design,
    shipped_sizes,
    shipped_starter,
    solve_rotational,
)


def test_the_round_of_cosets_partners_every_pair_at_half_the_group_once():
    """57 players: Z_56 and the fixed player 56, who sits the round out; the tables are the
    cosets of {0, 14, 28, 42}, partners 28 apart."""
    rnd = coset_round(57)
    assert rnd.byes == (56,)
    assert sorted(rnd.players()) == list(range(56))
    assert all((b - a) % 56 == 28 and (d - c) % 56 == 28 for (a, b), (c, d) in rnd.tables)
    assert set(partner_counts([rnd])) == {(x, x + 28) for x in range(28)}


def test_shipped_designs_of_this_kind_are_whist_tournaments():
    assert 57 in shipped_sizes()
    for players in shipped_sizes():
        rounds = shipped_design(players)
        assert rounds is not None and len(rounds) == players
        assert is_whist(players, rounds), players
        # Each player sits out exactly one round.
        assert Counter(p for r in rounds for p in r.byes) == Counter(range(players))


def test_a_size_with_only_a_design_of_this_kind_gets_it(monkeypatch):
    """Where no design developed by a group of order n ships, `design` and the schedule use
    this kind: 57 as if its design over Z_57 were not shipped."""
    monkeypatch.delitem(whist._shipped(), "57")
    whist.starter.cache_clear()
    try:
        assert whist.starter(57) is None
        assert design(57) == shipped_design(57)
        plan = schedule(57)
        assert plan.perfect and plan.repeated_partnerships == 0 and len(plan.rounds) == 57
        # The same rounds, in the order that spreads second meetings (the round of cosets,
        # in which player 56 sits out, is the design's last).
        assert Counter(plan.rounds) == Counter(design(57))
        assert design(57)[-1].byes == (56,)
    finally:
        whist.starter.cache_clear()


def test_the_solver_finds_small_designs_of_this_kind():
    pytest.importorskip("ortools")
    for players in (9, 13, 17):
        starter = solve_rotational(players, seconds=60)
        assert starter is not None
        assert is_whist(players, develop_rotational(players, starter)), players


def test_a_broken_starting_round_is_seen():
    starter = [list(row) for row in shipped_starter(57) or []]
    starter[1][0], starter[2][0] = starter[2][0], starter[1][0]  # two players change tables
    assert not is_whist(57, develop_rotational(57, starter))


def test_other_numbers_are_refused():
    for bad in (4, 8, 56, 58):
        with pytest.raises(ValueError, match="4m \\+ 1"):
            coset_round(bad)


@pytest.mark.skipif(shutil.which("cc") is None, reason="the C search needs a C compiler")
def test_the_c_search_finds_designs_of_this_kind():
    """The starter-and-matching search (`whist_rotational_match.c`), seeded: 21, 33 and 45
    players within a few seconds each."""
    for players in (21, 33, 45):
        starter = match_c(players, seed=1, seconds=60, limit=100_000)
        assert starter is not None, players
        assert is_whist(players, develop_rotational(players, starter)), players
