"""Games, rubbers, lap, double games and the dealer's rotation (S.1, S.2, S.7, S.28, S.77, J.19).

Matches are driven through scripted deals (see `helpers.Script`): each deal is dealt so that
the side the test names marches (2), marches alone (4) or takes three tricks alone (1).
"""

from __future__ import annotations

import random

import pytest

from bot.engine.errors import IllegalAction
from bot.engine.match import RUBBER_BONUS, Match
from bot.engine.rules import build_options
from tests.engine.helpers import LONE_MARCH, LONE_ONE, MARCH, scripted_match

# Hands worth exactly five points to a side, and six (a lap of one).
FIVE = [MARCH, MARCH, LONE_ONE]
SIX = [MARCH, MARCH, MARCH]


def plan(side: int, kinds: list[str]) -> list[tuple[int, str]]:
    return [(side, kind) for kind in kinds]


# -- a single game ----------------------------------------------------------------------------


def test_j19_single_game_ends_the_moment_a_side_reaches_the_points():
    match, script = scripted_match(
        [(0, MARCH), (1, MARCH), (0, MARCH), (0, MARCH), (1, MARCH)],
        preset="jerome",
    )
    results = script.play(match)
    assert len(results) == 4 and len(match.deals) == 4  # no fifth deal is dealt
    assert match.over and match.winner == 0
    assert [g.scores for g in match.games] == [(6, 2)]
    assert match.games[0].carried == 0 and match.games[0].value == 1  # no lap, no double
    assert match.to_act is None and match.legal_actions() == ()
    with pytest.raises(IllegalAction, match="this match is over"):
        match.apply("pass")


def test_modern_game_to_ten():
    match, script = scripted_match(
        plan(1, [LONE_MARCH, LONE_MARCH]) + [(0, MARCH), (1, MARCH)],
        preset="modern",
    )
    script.play(match, 3)
    assert not match.over and match.scores == [2, 8]
    script.play(match)
    assert match.over and match.winner == 1 and match.games[0].scores == (2, 10)


def test_match_apply_returns_the_result_only_when_a_deal_ends():
    match, script = scripted_match([(0, MARCH)], preset="jerome")
    first = match.apply("pass")
    assert first is None
    deal = match.deal
    while match.deal is deal:
        result = match.apply(script.choose(match.deal), match.to_act)
    assert result is deal.result and result.points == (2, 0)
    assert match.scores == [2, 0] and match.hand_results == [result]


def test_refused_action_changes_nothing_in_the_match():
    match, _ = scripted_match([(0, MARCH)])
    with pytest.raises(IllegalAction, match="it is not your turn"):
        match.apply("order", 2)
    assert match.deal.declarations == [] and len(match.deals) == 1


# -- a rubber (S.1, S.7) -----------------------------------------------------------------------


def test_s1_rubber_plays_all_three_games():
    match, script = scripted_match(plan(0, FIVE) + plan(0, FIVE) + plan(1, FIVE))
    script.play(match, 6)
    # One side has won the first two games, and the third is still played.
    assert [g.winner for g in match.games] == [0, 0]
    assert match.rubber_winner == 0 and not match.over and match.game_number == 2
    script.play(match)
    assert match.over and len(match.games) == 3
    assert [g.winner for g in match.games] == [0, 0, 1]
    assert match.winner == 0


def test_s1_fourth_game_when_third_laps():
    match, script = scripted_match(
        plan(0, FIVE) + plan(1, FIVE) + plan(1, SIX) + plan(1, [MARCH, MARCH])
    )
    script.play(match, 9)
    assert len(match.games) == 3 and match.games[2].carried == 1
    assert not match.over and match.game_number == 3 and match.scores == [0, 1]
    script.play(match)
    assert match.over and len(match.games) == 4
    assert match.games[3].scores == (0, 5)
    assert match.winner == 1


def test_s1_no_fourth_game_when_third_does_not_lap():
    match, script = scripted_match(plan(0, FIVE) + plan(1, FIVE) + plan(1, FIVE) + [(0, MARCH)])
    script.play(match)
    assert match.over and len(match.games) == 3 and script.used == 9


def test_s1_no_fourth_game_without_lap():
    match, script = scripted_match(
        plan(0, FIVE) + plan(1, FIVE) + plan(1, SIX) + [(0, MARCH)], lap=False
    )
    script.play(match)
    assert match.over and len(match.games) == 3 and match.games[2].carried == 0


def test_lap_carries_points():
    match, script = scripted_match(plan(0, [LONE_MARCH, MARCH]) + plan(0, [MARCH, MARCH]))
    script.play(match, 2)
    assert match.games[0].scores == (6, 0) and match.games[0].carried == 1
    assert match.scores == [1, 0] and match.game_number == 1
    script.play(match)
    # One carried and two marches: the second game is won at exactly five.
    assert match.games[1].scores == (5, 0) and match.games[1].carried == 0


def test_lap_off_carries_nothing():
    match, script = scripted_match(plan(0, [LONE_MARCH, MARCH]), lap=False)
    script.play(match)
    assert match.games[0].carried == 0 and match.scores == [0, 0]


def test_s7_double_game_when_losers_scored_nothing():
    match, script = scripted_match(
        plan(0, FIVE) + [(0, MARCH), (1, LONE_ONE), (0, MARCH), (0, LONE_ONE)]
    )
    script.play(match)
    first, second = match.games
    assert (first.scores, first.value, first.double) == ((5, 0), 2, True)
    assert (second.scores, second.value, second.double) == ((5, 1), 1, False)
    assert match.rubber_points == (3, 0)  # no bonus until the rubber is over


def test_s7_double_game_off():
    match, script = scripted_match(plan(0, FIVE), double_game=False)
    script.play(match)
    assert match.games[0].value == 1


def test_s7_rubber_adds_two_for_the_winners():
    match, script = scripted_match(
        plan(0, FIVE) + plan(1, FIVE) + [(0, MARCH), (1, LONE_ONE), (0, MARCH), (0, LONE_ONE)]
    )
    script.play(match)
    assert match.over and [g.value for g in match.games] == [2, 2, 1]
    assert match.rubber_points == (2 + 1 + RUBBER_BONUS, 2)
    assert match.winner == match.rubber_winner == 0


def test_s7_rubber_worth_at_most_ten():
    """Four double games and two for the rubber (S.7)."""
    match, script = scripted_match(
        plan(0, FIVE) + plan(0, FIVE) + plan(0, SIX) + plan(0, [MARCH, MARCH])
    )
    script.play(match)
    assert match.over and len(match.games) == 4
    assert all(g.double for g in match.games)
    assert match.rubber_points == (10, 0)


def test_modern_rubber_option():
    match, script = scripted_match(
        plan(0, [LONE_MARCH] * 3) + plan(1, [LONE_MARCH] * 3) + plan(0, [LONE_MARCH] * 3),
        preset="modern",
        match="rubber",
    )
    script.play(match)
    assert match.over and len(match.games) == 3
    assert [(g.scores, g.value, g.carried) for g in match.games] == [
        ((12, 0), 1, 0),
        ((0, 12), 1, 0),
        ((12, 0), 1, 0),
    ]
    assert match.rubber_points == (4, 1)


# -- the dealer (S.28, S.77) -------------------------------------------------------------------


@pytest.mark.parametrize("first_dealer", range(4))
def test_s28_dealer_rotates_left_each_deal_across_games(first_dealer):
    steps = [None] + plan(0, SIX) + [None] + plan(1, FIVE) + plan(0, FIVE)
    match, script = scripted_match(steps, first_dealer=first_dealer)
    script.play(match)
    assert match.over and len(match.games) == 3
    dealers = [d.dealer for d in match.deals]
    assert dealers == [(first_dealer + i) % 4 for i in range(len(match.deals))]
    assert dealers == script.dealers
    # The deals straddle the games; the deal goes on turning from game to game.
    assert match.game_of_deal == [0] * 4 + [1] * 4 + [2] * 3


def test_s77_passed_out_deal_scores_nothing_and_the_deal_passes_left():
    match, _ = scripted_match([None])
    result = None
    for _ in range(8):
        result = match.apply("pass", match.to_act)
    assert result is not None and result.outcome == "passed"
    assert match.scores == [0, 0] and match.games == []
    assert match.deal.dealer == 1 and match.to_act == 2 and len(match.deals) == 2


# -- views -------------------------------------------------------------------------------------


def test_match_views():
    match, script = scripted_match(plan(0, FIVE) + [(1, MARCH)])
    script.play(match)
    public = match.public_view()
    assert public.deal.hand is None
    assert (public.scores, public.game_number, public.is_rubber, public.over) == (
        (0, 2),
        1,
        True,
        False,
    )
    assert public.games == tuple(match.games) and public.rubber_points == (2, 0)
    assert public.winner is None and public.options == match.options
    for seat in range(4):
        view = match.view_for(seat)
        assert sorted(view.deal.hand) == sorted(match.deal.hands[seat])


# -- shuffled matches --------------------------------------------------------------------------


@pytest.mark.parametrize("preset", ["somerset", "jerome", "modern"])
def test_shuffled_match_with_seeded_rng_plays_to_the_end(preset):
    rng = random.Random(11)
    match = Match(build_options(preset), first_dealer=3, rng=random.Random(5))
    while not match.over:
        match.apply(rng.choice(list(match.legal_actions())), match.to_act)
    assert match.winner in (0, 1)
    assert match.deals[0].dealer == 3
