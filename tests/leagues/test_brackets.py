"""Single and double elimination brackets: seeding, byes to the top seeds, the losers' bracket."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.leagues.brackets import Bracket, double_elimination, seed_order, single_elimination


def _play_out(bracket: Bracket, pick) -> dict[str, int]:
    """Play every match as it becomes playable; `pick(a, b)` names the winner."""
    winners: dict[str, int] = {}
    while playable := bracket.playable(winners):
        for match in playable:
            pair = bracket.entrants_of(match.id, winners)
            assert pair is not None
            winners[match.id] = pick(*pair)
    return winners


def test_seed_order_keeps_top_seeds_apart():
    assert seed_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    assert seed_order(4) == [1, 4, 2, 3]
    order = seed_order(16)
    assert all(a + b == 17 for a, b in zip(order[::2], order[1::2], strict=True))
    assert order.index(2) >= 8 > order.index(1)  # 1 and 2 in different halves


def test_single_elimination_byes_go_to_the_top_seeds():
    bracket = single_elimination([11, 12, 13, 14, 15])  # seeds 1..5, three byes
    first_round = [m for m in bracket.matches if m.round == 1]
    assert [(m.top.ref, m.bottom.ref) for m in first_round] == [(14, 15)]  # 4 v 5
    second = {m.id: (str(m.top), str(m.bottom)) for m in bracket.matches if m.round == 2}
    assert second == {"W2.1": ("11", "winner of W1.2"), "W2.2": ("12", "13")}


def test_single_elimination_the_better_seed_wins_through():
    seeds = list(range(1, 9))
    bracket = single_elimination(seeds)
    winners = _play_out(bracket, min)
    assert bracket.champion(winners) == 1
    final = bracket.entrants_of(bracket.final, winners)
    assert final == (1, 2)
    semis = [bracket.entrants_of(m.id, winners) for m in bracket.matches if m.round == 2]
    assert semis == [(1, 4), (2, 3)]


def test_double_elimination_needs_two_losses_to_go_out():
    bracket = double_elimination(list(range(1, 9)))
    # The top seed loses its first match and still wins through the losers' bracket.
    winners: dict[str, int] = {}
    while playable := bracket.playable(winners):
        for m in playable:
            a, b = bracket.entrants_of(m.id, winners)
            winners[m.id] = (b if a == 1 else a) if m.id == "W1.1" else min(a, b)
    assert winners["W1.1"] == 8
    assert bracket.champion(winners) == 1
    grand = bracket.entrants_of("GF", winners)
    assert grand is not None and 1 in grand


def test_brackets_refuse_bad_entrants():
    with pytest.raises(ValueError, match="at least two"):
        single_elimination([1])
    with pytest.raises(ValueError, match="named twice"):
        double_elimination([1, 2, 2])


@settings(derandomize=True, max_examples=80, deadline=None)
@given(st.integers(2, 40), st.integers(0, 2**32 - 1), st.booleans())
def test_brackets_play_out_to_one_champion(n, seed, double):
    rng = random.Random(seed)
    entrants = list(range(1, n + 1))
    bracket = double_elimination(entrants) if double else single_elimination(entrants)
    losses: dict[int, int] = {e: 0 for e in entrants}
    winners: dict[str, int] = {}
    while playable := bracket.playable(winners):
        for m in playable:
            a, b = bracket.entrants_of(m.id, winners)
            assert a != b
            winner = rng.choice([a, b])
            winners[m.id] = winner
            losses[b if winner == a else a] += 1
    champion = bracket.champion(winners)
    assert champion is not None and len(winners) == len(bracket.matches)
    # Every entrant but the champion goes out: after one loss, or two in double elimination.
    assert len(bracket.matches) == (2 * n - 2 if double else n - 1)
    out = [e for e in entrants if e != champion]
    if double:
        # The grand final is one match: its loser goes out after one loss if he came from
        # the winners' bracket unbeaten; everyone else after two.
        grand = bracket.entrants_of("GF", winners)
        assert grand is not None and champion in grand
        assert all(losses[e] == 2 for e in out if e not in grand)
        assert all(1 <= losses[e] <= 2 for e in grand if e != champion)
        assert losses[champion] <= 1
    else:
        assert all(losses[e] == 1 for e in out) and losses[champion] == 0
