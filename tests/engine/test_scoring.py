"""Points for a hand, per preset (S.2, S.3, J.17, J.18, H; RULES.md §1).

Each outcome is played out on fixed hands that force it whatever card anyone plays, so the
points come from tricks really taken, then checked against `hand_points` itself.
"""

from __future__ import annotations

import random

import pytest

from bot.engine.rules import build_options
from bot.engine.scoring import EUCHRED, MADE, MARCH, hand_outcome, hand_points
from tests.engine.helpers import act, make_deal, play_out, random_chooser

# Seat 0 deals, seat 1 (the eldest) makes hearts by ordering up the ten. Every hand below
# fits the 24-card pack too, so the same deals serve all three presets.
MARCH_HANDS = {1: "JH JD AH KH QH"}
# The maker's three top trumps win three tricks; his two small cards can never win: seat 0
# holds only spades (and the turn-up), seat 2 only clubs, and his partner only diamonds,
# which nobody else holds, so the partner never wins a trick nor gets the lead.
MADE_HANDS = {1: "JH JD AH 9S 9C", 0: "AS KS QS JS TS", 2: "AC KC QC JC TC", 3: "AD KD QD TD 9D"}
# The maker holds no trump; the dealer holds every high one.
EUCHRE_HANDS = {1: "9S TS 9C TC QS", 0: "JH JD AH KH QH"}

PRESETS = ["somerset", "jerome", "modern"]


def _play(hands, declaration, seed, preset, **overrides):
    """Order up (alone or not) from the eldest and play with random legal cards."""
    deal = make_deal(hands, "TH", preset=preset, **overrides)
    act(deal, declaration)
    if deal.phase == "partner_alone":
        act(deal, "pass")
    rng = random.Random(seed)
    # Whichever card the dealer discards, each hand below keeps its story.
    act(deal, deal.legal_actions()[-1])
    while deal.phase == "defend_alone":
        act(deal, "pass")
    return play_out(deal, random_chooser(rng))


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("seed", range(3))
def test_s2_march_scores_two(preset, seed):
    result = _play(MARCH_HANDS, "order", seed, preset)
    assert (result.outcome, result.tricks, result.points) == (MARCH, (0, 5), (0, 2))
    assert result.scoring_side == 1 and result.maker_side == 1


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("seed", range(3))
def test_s2_three_tricks_score_one(preset, seed):
    result = _play(MADE_HANDS, "order", seed, preset)
    assert (result.outcome, result.tricks, result.points) == (MADE, (2, 3), (0, 1))


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("seed", range(3))
def test_s2_euchred_gives_adversaries_two(preset, seed):
    result = _play(EUCHRE_HANDS, "order", seed, preset)
    assert (result.outcome, result.tricks, result.points) == (EUCHRED, (5, 0), (2, 0))
    assert result.scoring_side == 0 and result.maker_side == 1


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("seed", range(3))
def test_s3_lone_march_scores_four(preset, seed):
    result = _play(MARCH_HANDS, "order:alone", seed, preset)
    assert (result.outcome, result.alone, result.points) == (MARCH, 1, (0, 4))


def test_h_lone_march_points_three():
    result = _play(MARCH_HANDS, "order:alone", 0, "somerset", lone_march_points=3)
    assert result.points == (0, 3)


@pytest.mark.parametrize("preset", PRESETS)
def test_s3_lone_three_tricks_score_one(preset):
    result = _play(MADE_HANDS, "order:alone", 0, preset)
    assert (result.outcome, result.alone, result.points) == (MADE, 1, (0, 1))


@pytest.mark.parametrize("preset, points", [("somerset", 4), ("jerome", 4), ("modern", 2)])
def test_s3_lone_euchred_gives_adversaries_four_modern_two(preset, points):
    result = _play(EUCHRE_HANDS, "order:alone", 1, preset)
    assert (result.outcome, result.alone, result.points) == (EUCHRED, 1, (points, 0))


def test_lone_euchred_points_option():
    result = _play(EUCHRE_HANDS, "order:alone", 1, "somerset", lone_euchred_points=3)
    assert result.points == (3, 0)


@pytest.mark.parametrize("preset", PRESETS)
def test_defend_alone_euchre_scores_four(preset):
    deal = make_deal(EUCHRE_HANDS, "TH", preset=preset, defend_alone=True)
    act(deal, "order:alone")
    if deal.phase == "partner_alone":
        act(deal, "pass")
    act(deal, "QH", "pass", "defend")
    result = play_out(deal)
    assert (result.outcome, result.defender, result.points) == (EUCHRED, 0, (4, 0))


def test_defend_alone_points_option_and_lone_hand_that_makes_it():
    assert hand_points(build_options(defend_alone=True, defend_alone_points=5), 2, True, True) == (
        False,
        5,
    )
    # A lone hand that beats a lone defender scores as any lone hand.
    options = build_options(defend_alone=True)
    assert hand_points(options, 5, True, True) == (True, 4)
    assert hand_points(options, 3, True, True) == (True, 1)


@pytest.mark.parametrize(
    "tricks, outcome", [(0, EUCHRED), (1, EUCHRED), (2, EUCHRED), (3, MADE), (4, MADE), (5, MARCH)]
)
def test_outcome_from_makers_tricks(tricks, outcome):
    assert hand_outcome(tricks) == outcome


@pytest.mark.parametrize(
    "preset, alone, expected",
    [
        # makers' tricks 0..5 -> (makers score?, points)
        ("somerset", False, [(False, 2)] * 3 + [(True, 1)] * 2 + [(True, 2)]),
        ("somerset", True, [(False, 4)] * 3 + [(True, 1)] * 2 + [(True, 4)]),
        ("jerome", False, [(False, 2)] * 3 + [(True, 1)] * 2 + [(True, 2)]),
        ("jerome", True, [(False, 4)] * 3 + [(True, 1)] * 2 + [(True, 4)]),
        ("modern", False, [(False, 2)] * 3 + [(True, 1)] * 2 + [(True, 2)]),
        ("modern", True, [(False, 2)] * 3 + [(True, 1)] * 2 + [(True, 4)]),
    ],
)
def test_hand_points_per_preset(preset, alone, expected):
    options = build_options(preset)
    assert [hand_points(options, t, alone) for t in range(6)] == expected
