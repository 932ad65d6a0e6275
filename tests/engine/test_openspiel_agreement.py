"""The bot's engine against another euchre engine: OpenSpiel's, written apart from this project.

Random deals are played in both from the same hands and turn-up, every action chosen at random
among the bot's legal ones, and at every step both must agree on whose turn it is, the legal
actions, every hand in play and trump, and at the end on the points (tests/support/openspiel.py).
OpenSpiel's game has the 24-card pack, a lone hand's euchre scoring 2 and the dealer never
throwing the turn-up: the `modern` preset with `discard_turn_up` off. Its two parameters are
played both ways: stick the dealer, and an adversary defending alone against a lone hand.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from bot.engine.actions import DEFEND
from bot.engine.cards import make_pack
from bot.engine.deal import DEFEND_ALONE, PASS, Deal
from tests.support.openspiel import (
    apply_both,
    check,
    check_result,
    options,
    os_deal,
    os_game,
    settle,
)

DEALS = 400


def _random_deal(rng: random.Random, opts, dealer: int) -> Deal:
    deck = make_pack(opts.lowest_rank)
    rng.shuffle(deck)
    hands = [deck[i * 5 : i * 5 + 5] for i in range(4)]
    return Deal(opts, dealer, hands, deck[20], kitty=deck[21:])


def _play_both(rng: random.Random, game, opts, dealer: int, seen: Counter[str]) -> None:
    deal = _random_deal(rng, opts, dealer)
    state = os_deal(game, deal)
    alone: dict[int, bool] = {}
    while deal.result is None and not deal.is_over:
        settle(state, deal, alone)
        check(deal, state, f"step {len(deal.history)}")
        seat = deal.to_act
        assert seat is not None
        legal = deal.legal_actions()
        # Passing more often than not, so that some deals are passed out or made late.
        action = PASS if PASS in legal and rng.random() < 0.6 else rng.choice(legal)
        if deal.phase == DEFEND_ALONE and action == DEFEND:
            seen["defended alone"] += 1
        apply_both(deal, state, action, seat, alone)
        deal.apply(action, seat)
    settle(state, deal, alone)
    if deal.maker is None:
        seen["passed out"] += 1
        # Passed twice round (no stick the dealer): OpenSpiel ends the deal with no points.
        assert state.is_terminal() and list(state.returns()) == [0.0] * 4
        return
    check_result(deal, state)
    seen["alone" if deal.alone is not None else "with partner"] += 1
    seen[f"{deal.result.tricks[deal.maker % 2] if deal.result else '?'} tricks"] += 1


@pytest.mark.parametrize(
    ("stick_the_dealer", "defend_alone"),
    [(True, False), (False, False), (True, True), (False, True)],
    ids=["stick", "no-stick", "stick-defend-alone", "no-stick-defend-alone"],
)
def test_random_deals_agree_with_openspiels_euchre(stick_the_dealer, defend_alone):
    """Every step and every score of 400 random deals, as OpenSpiel plays them."""
    game = os_game(stick_the_dealer, defend_alone)
    opts = options(stick_the_dealer, defend_alone)
    rng = random.Random(f"openspiel {stick_the_dealer} {defend_alone}")
    seen: Counter[str] = Counter()
    for number in range(DEALS):
        _play_both(rng, game, opts, number % 4, seen)
    # The deals went through what the rules make different: lone hands, euchres, marches,
    # deals passed out where the dealer is not stuck, lone defenders where they are allowed.
    assert seen["alone"] > 20 and seen["with partner"] > 100
    assert seen["0 tricks"] + seen["1 tricks"] + seen["2 tricks"] > 20
    assert seen["5 tricks"] > 3
    assert (seen["passed out"] > 0) == (not stick_the_dealer)
    assert (seen["defended alone"] > 0) == defend_alone
