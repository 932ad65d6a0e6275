"""OpenSkill ratings: updates, who is listed, and the exact recompute from stored results."""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.leagues.ratings import (
    DEFAULT_MU,
    DEFAULT_SIGMA,
    GameResult,
    PlayerRating,
    Ratings,
    RatingSettings,
    replay,
)

START = datetime(2025, 5, 1, 18, 0, tzinfo=UTC)


def test_a_game_moves_the_winners_up_and_the_losers_down():
    ratings = Ratings()
    after = ratings.record(GameResult((1, 2), (3, 4), START))
    assert [r.player for r in after] == [1, 2, 3, 4]
    assert after[0].mu > DEFAULT_MU > after[2].mu
    assert all(r.sigma < DEFAULT_SIGMA and r.games == 1 and r.last_played == START for r in after)
    assert ratings.get(9) == PlayerRating(9)


def test_conservative_rating_is_mu_less_three_sigma():
    r = PlayerRating(1, mu=30.0, sigma=2.5)
    assert r.conservative == 22.5
    assert PlayerRating(2).conservative == pytest.approx(0.0)


def test_a_game_needs_four_players():
    with pytest.raises(ValueError, match="four different players"):
        Ratings().record(GameResult((1, 2), (2, 3), START))


def test_listed_after_ten_games_and_hidden_after_fourteen_days():
    ratings = Ratings()
    for game in range(10):
        ratings.record(GameResult((1, 2), (3, 4), START + timedelta(hours=game)))
    ratings.record(GameResult((5, 6), (7, 8), START))
    last = START + timedelta(hours=9)
    listed = ratings.listed(last)
    assert [r.player for r in listed][:2] in ([1, 2], [2, 1])
    assert {r.player for r in listed} == {1, 2, 3, 4}  # 5..8 have one game
    # Hidden (not decayed) after 14 days without a game; the rating itself is unchanged.
    later = last + timedelta(days=14, seconds=1)
    assert ratings.listed(later) == []
    assert ratings.get(1).games == 10
    assert [r.player for r in ratings.listed(later, RatingSettings(1, 30))][:2] in ([1, 2], [2, 1])
    assert len(ratings.listed(last, RatingSettings(min_games=1))) == 8


def test_listed_best_conservative_first():
    ratings = Ratings()
    for game in range(12):
        ratings.record(GameResult((1, 2), (3, 4), START + timedelta(minutes=game)))
    rows = ratings.listed(START + timedelta(days=1), RatingSettings(min_games=1))
    values = [r.conservative for r in rows]
    assert values == sorted(values, reverse=True)


games_strategy = st.lists(
    st.tuples(st.permutations(list(range(8))), st.integers(0, 10_000)), min_size=1, max_size=60
)


@settings(derandomize=True, max_examples=60, deadline=None)
@given(games_strategy)
def test_replay_gives_exactly_the_stored_ratings(games):
    """Ratings stored after each game (as a database would: the floats as numbers in JSON)
    equal, bit for bit, a recompute of all the results in order."""
    results = [
        GameResult((p[0], p[1]), (p[2], p[3]), START + timedelta(minutes=m)) for p, m in games
    ]
    stored: dict[int, tuple[float, float, int]] = {}
    live = Ratings()
    for game in results:
        for r in live.record(game):
            stored[r.player] = json.loads(json.dumps([r.mu, r.sigma, r.games]))
        # The bot restarts: it carries on from what it stored.
        live = Ratings({p: PlayerRating(p, mu, sigma, n) for p, (mu, sigma, n) in stored.items()})
    again = replay(results)
    for player, (mu, sigma, n) in stored.items():
        got = again.get(player)
        assert (got.mu, got.sigma, got.games) == (mu, sigma, n)


def test_replay_order_matters():
    rng = random.Random(7)
    results = [
        GameResult(tuple(rng.sample(range(6), 2)), (6, 7), START + timedelta(minutes=i))
        for i in range(5)
    ]
    forward, backward = replay(results), replay(list(reversed(results)))
    assert replay(results).players == forward.players
    assert forward.get(6) != backward.get(6) or forward.get(0) != backward.get(0)
