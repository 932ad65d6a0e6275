"""League standings: the metric, then rubbers, games, points difference, head-to-head."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.leagues.standings import LeagueMatch, _head_to_head, ranked, standings, totals


def m(first, second, winner, games=(0, 0), points=(0, 0), rubber_points=(0, 0)):
    return LeagueMatch(first, second, winner, games, points, rubber_points)


def test_metric_alone_places_when_untied():
    matches = [m(1, 2, 1, rubber_points=(5, 1)), m(2, 3, 2, rubber_points=(3, 2))]
    rows = standings([1, 2, 3], matches, "rubber_points")
    assert [(r.rank, r.entrant, r.decided_by) for r in rows] == [
        (1, 1, "rubber_points"),
        (2, 2, "rubber_points"),
        (3, 3, "rubber_points"),
    ]


def test_tie_breaks_apply_in_order():
    matches = [
        # 1, 2 and 9 tie on rubber points (4); 2 won fewer rubbers; 1 and 9 tie on rubbers
        # and games, and 1's points difference is better.
        m(1, 9, 1, (2, 1), (15, 10), (3, 1)),
        m(1, 8, 8, (1, 2), (12, 14), (1, 3)),
        m(2, 9, 9, (1, 2), (13, 14), (1, 3)),
        m(2, 8, 8, (1, 2), (12, 13), (3, 3)),
    ]
    rows = {r.entrant: r for r in standings([1, 2, 8, 9], matches)}
    assert rows[1].totals.rubber_points == rows[2].totals.rubber_points == 4
    assert rows[9].totals.rubber_points == 4
    assert (rows[8].rank, rows[1].rank, rows[9].rank, rows[2].rank) == (1, 2, 3, 4)
    assert rows[8].decided_by == "rubber_points"
    assert rows[1].decided_by == rows[9].decided_by == "points_difference"
    assert rows[2].decided_by == "rubbers"


def test_games_then_points_difference_then_head_to_head():
    # Three entrants level on rubber points and rubbers.
    matches = [
        m(1, 2, 1, (2, 1), (14, 12), (2, 2)),
        m(2, 3, 2, (2, 1), (14, 12), (2, 2)),
        m(3, 1, 3, (2, 1), (14, 12), (2, 2)),
        # Extra games for 1: it leads on games won.
        m(1, 5, None, (1, 1), (5, 5), (0, 0)),
    ]
    rows = standings([1, 2, 3], matches)
    by = {r.entrant: r for r in rows}
    assert rows[0].entrant == 1 and by[1].decided_by == "games"
    # 2 and 3 level on games (3 each) and points difference (0 each... both +0): head-to-head.
    assert by[2].totals.games == by[3].totals.games == 3
    assert by[2].totals.points_difference == by[3].totals.points_difference
    assert [r.entrant for r in rows][1:3] == [2, 3]  # 2 beat 3
    assert by[2].decided_by == by[3].decided_by == "head_to_head"


def test_points_difference_separates():
    matches = [m(1, 3, 1, (2, 0), (10, 2), (2, 0)), m(2, 4, 2, (2, 0), (10, 6), (2, 0))]
    rows = standings([1, 2, 3, 4], matches)
    assert [r.entrant for r in rows][:2] == [1, 2]
    assert rows[0].decided_by == "points_difference"


def test_a_complete_tie_shares_the_rank():
    rows = standings([4, 5, 6], [], "points")
    assert [(r.rank, r.entrant, r.decided_by) for r in rows] == [
        (1, 4, "tied"),
        (1, 5, "tied"),
        (1, 6, "tied"),
    ]


def test_partners_tied_all_season_say_what_placed_their_pair():
    """Fixed partners (1 and 2, 3 and 4) have the same totals: each row is tied with its
    partner, and says the rubber points put the pair above or below the other."""
    matches = [m(1, 3, 1, rubber_points=(4, 1)), m(2, 4, 2, rubber_points=(4, 1))]
    rows = standings([1, 2, 3, 4], matches, "rubber_points")
    assert [(r.rank, r.entrant, r.decided_by) for r in rows] == [
        (1, 1, "tied:rubber_points"),
        (1, 2, "tied:rubber_points"),
        (3, 3, "tied:rubber_points"),
        (3, 4, "tied:rubber_points"),
    ]


def test_unknown_metric_is_refused():
    with pytest.raises(ValueError, match="rubber_points, rubbers, games, points"):
        standings([1], [], "elo")


@settings(derandomize=True, max_examples=100, deadline=None)
@given(
    st.integers(2, 10),
    st.integers(0, 2**32 - 1),
    st.sampled_from(["rubber_points", "rubbers", "games", "points"]),
)
def test_tie_break_order(n, seed, metric):
    """Rows come in the order of (metric, rubbers, games, points difference); each row's
    reason is the first key that tells it from its tied neighbours."""
    rng = random.Random(seed)
    entrants = list(range(n))
    matches = []
    for _ in range(rng.randint(0, 3 * n)):
        a, b = rng.sample(entrants, 2)
        ga, gb = rng.randint(0, 2), rng.randint(0, 2)
        winner = a if ga > gb else b if gb > ga else None
        matches.append(
            m(
                a,
                b,
                winner,
                (ga, gb),
                (rng.randint(0, 15), rng.randint(0, 15)),
                (rng.randint(0, 3), rng.randint(0, 3)),
            )
        )
    rows = standings(entrants, matches, metric)
    assert sorted(r.entrant for r in rows) == entrants
    t = totals(entrants, matches)

    def key(e):
        return (getattr(t[e], metric), t[e].rubbers, t[e].games, t[e].points_difference)

    keys = [key(r.entrant) for r in rows]
    assert keys == sorted(keys, reverse=True)
    ranks = [r.rank for r in rows]
    assert ranks == sorted(ranks) and ranks[0] == 1
    for i, row in enumerate(rows):
        tied, _, group = row.decided_by.partition(":")
        if tied == "tied":
            assert any(rows[j].rank == row.rank for j in (i - 1, i + 1) if 0 <= j < n)
            # A tied group says what placed it among the others, unless it is everyone.
            assert bool(group) == (sum(r.rank == row.rank for r in rows) < n)
        elif row.decided_by != "head_to_head":
            names = [metric, "rubbers", "games", "points_difference"]
            # The deepest key that could have placed it (the metric may be named twice).
            level = max(k for k, name in enumerate(names) if name == row.decided_by)
            if row.decided_by == metric:
                level = 0
            # Nobody else shares this row's key up to the deciding level.
            same = [
                r
                for r in rows
                if r is not row and key(r.entrant)[: level + 1] == key(row.entrant)[: level + 1]
            ]
            assert not same


@settings(derandomize=True, max_examples=100, deadline=None)
@given(st.integers(1, 12), st.integers(0, 2**32 - 1), st.integers(0, 14), st.integers(0, 14))
def test_a_slice_of_the_standings_is_that_part_of_the_whole(n, seed, a, b):
    """A page ranks every entrant but builds its own rows: the same rows, ranks and reasons
    as the whole standings have there, tied groups across the page's edges included."""
    rng = random.Random(seed)
    entrants = list(range(n))
    matches = []
    for _ in range(rng.randint(0, 2 * n) if n > 1 else 0):
        x, y = rng.sample(entrants, 2)
        winner = rng.choice([x, y, None])
        matches.append(m(x, y, winner, (rng.randint(0, 1), rng.randint(0, 1))))
    table = totals(entrants, matches)
    listed = {e: table[e] for e in entrants}
    start, stop = min(a, b), max(a, b)

    def head_to_head(group):
        return _head_to_head(group, matches)

    whole = ranked(listed, "rubbers", head_to_head)
    assert ranked(listed, "rubbers", head_to_head, start, stop) == whole[start:stop]
