"""Every level: only legal actions, the same choice for the same seed and view, no peeking."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.ai import LEVELS, make_player
from bot.engine.cards import EFFECTIVE_SUIT
from bot.engine.deal import Deal
from bot.engine.match import Match
from bot.engine.rules import build_options

# Small searches: the tests check what the expert does, not how well.
BUDGET = 3


def players(seed: int = 0) -> dict[str, object]:
    return {level: make_player(level, seed, budget=BUDGET) for level in LEVELS}


def advance(match: Match, steps: int, rng: random.Random) -> None:
    """Take up to `steps` random legal actions (fewer if the match ends)."""
    for _ in range(steps):
        if match.over:
            return
        match.apply(rng.choice(list(match.legal_actions())))


OPTION_SETS = [
    ("somerset", {}),
    ("jerome", {}),
    ("modern", {}),
    ("modern", {"joker": True}),
    ("somerset", {"joker": True, "defend_alone": True}),
    ("modern", {"defend_alone": True, "loner_lead": "left_of_loner"}),
    ("jerome", {"stick_the_dealer": True, "partner_alone": True}),
    ("modern", {"match": "rubber", "lap": True, "double_game": True}),
]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    choice=st.sampled_from(OPTION_SETS),
    seed=st.integers(0, 2**32 - 1),
    steps=st.integers(0, 120),
)
def test_every_level_returns_a_legal_action_in_random_positions(choice, seed, steps):
    preset, overrides = choice
    options = build_options(preset, **overrides)
    rng = random.Random(seed)
    match = Match(options, first_dealer=seed % 4, rng=random.Random(seed))
    advance(match, steps, rng)
    if match.over:
        return
    view = match.view_for(match.to_act)
    for level, player in players(seed).items():
        action = player.choose(view)
        assert action in view.deal.legal, (level, action, view.deal.phase, view.deal.legal)


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("preset", ["somerset", "modern"])
def test_a_level_plays_whole_matches_against_itself(level, preset):
    # Every decision of a match, taken by the player, is accepted by the engine.
    # Short games keep the expert quick; a somerset rubber is still three games or four.
    options = build_options(preset, points=4)
    player = make_player(level, 1, budget=BUDGET)
    match = Match(options, 0, random.Random(11))
    decisions = 0
    while not match.over and decisions < 3000:
        seat = match.to_act
        match.apply(player.choose(match.view_for(seat)), seat)
        decisions += 1
    assert match.over


def _positions(count: int, seed: int) -> list:
    rng = random.Random(seed)
    views = []
    for n in range(count):
        preset = ("somerset", "modern", "jerome")[n % 3]
        match = Match(build_options(preset, joker=n % 4 == 0), n % 4, random.Random(rng.random()))
        advance(match, rng.randrange(0, 40), rng)
        if not match.over:
            views.append(match.view_for(match.to_act))
    return views


@pytest.mark.parametrize("level", LEVELS)
def test_the_same_seed_and_view_give_the_same_choice(level):
    for view in _positions(25, 3):
        first = make_player(level, 42, budget=BUDGET).choose(view)
        again = make_player(level, 42, budget=BUDGET).choose(view)
        player = make_player(level, 42, budget=BUDGET)
        assert first == again == player.choose(view) == player.choose(view)


def test_the_expert_uses_its_seed():
    # Over many close positions, different seeds sample different worlds and sometimes differ.
    views = [v for v in _positions(40, 5) if len(v.deal.legal) > 1]
    differ = sum(
        make_player("expert", 1, budget=BUDGET).choose(v)
        != make_player("expert", 2, budget=BUDGET).choose(v)
        for v in views
    )
    assert views and differ >= 1


def test_the_public_view_is_refused():
    match = Match(build_options("modern"), 0, random.Random(1))
    for level in LEVELS:
        with pytest.raises(ValueError, match="seat"):
            make_player(level).choose(match.public_view())


def test_unknown_level_is_refused():
    with pytest.raises(ValueError, match="unknown level"):
        make_player("wizard")


# ---------------------------------------------------------------------------------------------
# No peeking: two deals that differ only in what this seat cannot see.


def _swap_hidden(deal: Deal, me: int, rng: random.Random) -> list[list[str]]:
    """The deal's hands as dealt, with unplayed cards of one suit swapped between two other
    seats (and with the kitty), so that every public fact stays the same."""
    hands = [list(h) for h in deal.dealt]
    trump = deal.trump or deal.turn_up_suit
    eff = EFFECTIVE_SUIT[trump]
    played = {c for _, t in deal.tricks for _, c in t} | {c for _, c in deal.trick}
    fixed = played | {deal.turn_up} | ({deal.discarded} if deal.discarded else set())
    others = [s for s in range(4) if s != me]
    kitty = [c for c in deal.kitty if c not in fixed]
    swaps = 0
    for _ in range(40):
        a, b = rng.sample(others, 2)
        ca = [c for c in hands[a] if c not in fixed]
        if not ca:
            continue
        card = rng.choice(ca)
        pool = [c for c in hands[b] if c not in fixed and eff[c] == eff[card]]
        pool += [c for c in kitty if eff[c] == eff[card]] if rng.random() < 0.5 else []
        if not pool:
            continue
        other = rng.choice(pool)
        hands[a][hands[a].index(card)] = other
        if other in kitty:
            kitty[kitty.index(other)] = card
        else:
            hands[b][hands[b].index(other)] = card
        swaps += 1
    return hands if swaps else []


def _match_of(options, dealer: int, hands, turn_up: str, history) -> Match:
    match = Match(options, dealer, deal_factory=lambda o, d: Deal.from_hands(o, d, hands, turn_up))
    for seat, action in history:
        match.apply(action, seat)
    return match


@pytest.mark.parametrize("level", LEVELS)
def test_a_player_never_reads_the_other_hands(level):
    rng = random.Random(9)
    checked = 0
    for n in range(30):
        options = build_options(("somerset", "modern")[n % 2])
        match = Match(options, n % 4, random.Random(rng.random()))
        advance(match, rng.randrange(0, 25), rng)
        if match.over or match.deal.is_over:
            continue
        deal = match.deal
        me = match.to_act
        hands = _swap_hidden(deal, me, rng)
        if not hands or [sorted(h) for h in hands] == [sorted(h) for h in deal.dealt]:
            continue
        one = _match_of(
            options, deal.dealer, [list(h) for h in deal.dealt], deal.turn_up, deal.history
        )
        two = _match_of(options, deal.dealer, hands, deal.turn_up, deal.history)
        assert [sorted(h) for h in one.deal.hands] != [sorted(h) for h in two.deal.hands]
        view_one, view_two = one.view_for(me), two.view_for(me)
        assert view_one == view_two
        assert make_player(level, 5, budget=BUDGET).choose(view_one) == make_player(
            level, 5, budget=BUDGET
        ).choose(view_two)
        checked += 1
    assert checked >= 10
