"""Round robin and Swiss fixtures for fixed partnerships."""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.leagues.fixtures import (
    MatchResult,
    circle_rounds,
    round_robin,
    swiss_round,
    swiss_standings,
)


@settings(derandomize=True, max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 10_000), min_size=2, max_size=40, unique=True))
def test_round_robin_pairs_every_two_entrants_once(entrants):
    rounds = round_robin(entrants)
    n = len(entrants)
    assert len(rounds) == (n - 1 if n % 2 == 0 else n)
    met = Counter(frozenset(m) for r in rounds for m in r.matches)
    assert set(met) == {
        frozenset((a, b)) for i, a in enumerate(entrants) for b in entrants[i + 1 :]
    }
    assert set(met.values()) == {1}
    for r in rounds:
        seated = [e for m in r.matches for e in m]
        assert len(seated) == len(set(seated))
        assert sorted([*seated, *([r.bye] if r.bye is not None else [])]) == sorted(entrants)
    if n % 2:  # byes when odd: each entrant once
        assert Counter(r.bye for r in rounds) == Counter(entrants)
    else:
        assert all(r.bye is None for r in rounds)


def test_round_robin_alternates_who_is_named_first():
    rounds = round_robin([1, 2, 3, 4, 5, 6])
    firsts = Counter(m[0] for r in rounds for m in r.matches)
    assert max(firsts.values()) - min(firsts.values()) <= 3


def test_circle_rounds_refuse_bad_entrants():
    with pytest.raises(ValueError, match="at least two"):
        circle_rounds([1])
    with pytest.raises(ValueError, match="named twice"):
        circle_rounds([1, 2, 1])


def test_swiss_standings_tie_breaks_in_order():
    results = [
        MatchResult(1, 4, 2, 1),
        MatchResult(2, 3, 2, 0),
        MatchResult(3, 4, 2, 0),
        MatchResult(1, 2, 1, 1),  # a draw: half a point each
    ]
    rows = swiss_standings([1, 2, 3, 4], results)
    by_entrant = {r.entrant: r for r in rows}
    assert by_entrant[1].match_points == by_entrant[2].match_points == Fraction(3, 2)
    # Equal points: the opponents' match-win share decides. 1 met 4 (0) and 2 (3/4); 2 met
    # 3 (1/2) and 1 (3/4).
    assert by_entrant[1].opponents_match_share == Fraction(3, 8)
    assert by_entrant[2].opponents_match_share == Fraction(5, 8)
    assert [r.entrant for r in rows] == [2, 1, 3, 4]


def test_swiss_standings_game_share_after_opponents_share():
    # 1 and 2 each beat one of 3, 4, who each lost once: equal points and opponents' share.
    results = [MatchResult(1, 3, 2, 1), MatchResult(2, 4, 2, 0)]
    rows = swiss_standings([1, 2, 3, 4], results)
    assert [r.entrant for r in rows][:2] == [2, 1]
    assert rows[0].game_share == 1 and rows[1].game_share == Fraction(2, 3)


def test_swiss_bye_counts_as_a_win_and_goes_to_the_lowest_without_one():
    first = swiss_round([1, 2, 3, 4, 5], [])
    assert first.bye == 5 and len(first.matches) == 2
    results = [MatchResult(a, b, 2, 0) for a, b in first.matches]
    rows = swiss_standings([1, 2, 3, 4, 5], results, byes=[5])
    assert {r.entrant: r.match_points for r in rows}[5] == 1
    second = swiss_round([1, 2, 3, 4, 5], results, byes=[5])
    assert second.bye != 5


def test_swiss_refuses_when_every_pairing_is_a_repeat():
    results = [MatchResult(1, 2, 2, 0)]
    with pytest.raises(ValueError, match="meet again"):
        swiss_round([1, 2], results)


@settings(derandomize=True, max_examples=60, deadline=None)
@given(st.integers(2, 24), st.integers(0, 2**32 - 1))
def test_swiss_never_repeats_a_pairing(n, seed):
    rng = random.Random(seed)
    entrants = list(range(100, 100 + n))
    results: list[MatchResult] = []
    byes: list[int] = []
    for _ in range(max(1, n // 2)):  # at most n/2 rounds: a repeat-free pairing always exists
        fixture = swiss_round(entrants, results, byes)
        seated = [e for m in fixture.matches for e in m]
        assert sorted(seated + ([fixture.bye] if fixture.bye is not None else [])) == entrants
        if fixture.bye is not None:
            assert fixture.bye not in byes
            byes.append(fixture.bye)
        for a, b in fixture.matches:
            results.append(MatchResult(a, b, rng.randint(0, 2), rng.randint(0, 2)))
    pairs = Counter(frozenset((r.first, r.second)) for r in results)
    assert set(pairs.values()) == {1}


def test_swiss_pairs_neighbours_in_the_standings():
    entrants = [1, 2, 3, 4, 5, 6, 7, 8]
    first = swiss_round(entrants, [])
    assert first.matches == ((1, 2), (3, 4), (5, 6), (7, 8))
    results = [MatchResult(a, b, 2, 0) for a, b in first.matches]
    second = swiss_round(entrants, results)
    # The winners meet the winners: 1 v 3, 5 v 7; the losers 2 v 4, 6 v 8.
    assert second.matches == ((1, 3), (5, 7), (2, 4), (6, 8))
