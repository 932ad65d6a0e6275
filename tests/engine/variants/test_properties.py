"""Property tests over random legal deals and games of every variant and seat count.

A seed drives the shuffle and random legal choices; `variants.audit` checks each finished deal
(every card in one place, whole tricks won by the right seat, five tricks but for Napoleon's
early end, chips summing to zero, set-back's scores moving by the listed amounts only, French
and six-handed makers never above their bid). Every other action is refused and leaves the deal
as it was, and the same seed plays the same game.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine.errors import IllegalAction
from bot.engine.variants import VariantDeal, VariantMatch, make_variant, seats_allowed
from bot.engine.variants.audit import EVERY_ACTION, deal_problems, refusal_problem
from bot.engine.variants.rules import NAMES
from tests.engine.variants.helpers import snapshot

TABLES = [
    (name, players)
    for name in NAMES
    for players in range(seats_allowed(name)[0], seats_allowed(name)[1] + 1)
]
tables = st.sampled_from(TABLES)
seeds = st.integers(min_value=0, max_value=2**32 - 1)
OPTIONS = {"set-back": {"declare_all": True, "euchre_deducts": True}}


def random_deal(name: str, players: int, seed: int, with_options: bool) -> VariantDeal:
    variant = make_variant(name, players, **(OPTIONS.get(name, {}) if with_options else {}))
    rng = random.Random(seed)
    deal = VariantDeal.shuffled(variant, rng.randrange(players), rng)
    while not deal.is_over:
        legal = deal.legal_actions()
        deal.apply(rng.choice(list(legal)), deal.to_act)
    return deal


@settings(max_examples=100, deadline=None)
@given(tables, seeds, st.booleans())
def test_every_random_deal_keeps_the_rules(
    table: tuple[str, int], seed: int, options: bool
) -> None:
    name, players = table
    deal = random_deal(name, players, seed, options)
    assert deal_problems(deal) == []


@settings(max_examples=40, deadline=None)
@given(tables, seeds)
def test_only_legal_actions_are_accepted_and_a_refusal_changes_nothing(
    table: tuple[str, int], seed: int
) -> None:
    name, players = table
    variant = make_variant(name, players, **OPTIONS.get(name, {}))
    rng = random.Random(seed)
    deal = VariantDeal.shuffled(variant, 0, rng)
    while not deal.is_over:
        legal = list(deal.legal_actions())
        seat = deal.to_act
        for action in rng.sample(EVERY_ACTION, 6):
            if action in legal:
                continue
            before = snapshot(deal)
            try:
                deal.apply(action, seat)
            except IllegalAction as exc:
                assert str(exc) and "call:" not in str(exc) and "bid:" not in str(exc)
            else:
                raise AssertionError(f"{action!r} accepted in {deal.phase}; legal: {legal}")
            assert snapshot(deal) == before
        other = (seat + 1) % players  # type: ignore[operator]
        before = snapshot(deal)
        assert refusal_problem(deal, legal[0], other) is None  # out of turn
        assert snapshot(deal) == before
        deal.apply(rng.choice(legal), seat)
    assert deal_problems(deal) == []


# Set-back between random players of three or more may go on for ever (those who take no
# trick are set back faster than makers come down): such games stop here.
MAX_DEALS = 200


def bold_game(name: str, players: int, seed: int) -> VariantMatch:
    """A game to its end (or `MAX_DEALS` deals), random, but never passing or throwing up where
    anything else is open (so set-back's scores come down)."""
    match = VariantMatch(make_variant(name, players), 0, random.Random(seed))
    rng = random.Random(seed)
    while not match.over and len(match.deals) <= MAX_DEALS:
        legal = list(match.legal_actions())
        bolder = [a for a in legal if a not in ("pass", "throw_up")]
        match.apply(rng.choice(bolder or legal), match.to_act)
    return match


@settings(max_examples=30, deadline=None)
@given(tables, seeds)
def test_every_game_ends_with_a_winner_by_its_rules_and_chips_sum_to_zero(
    table: tuple[str, int], seed: int
) -> None:
    name, players = table
    match = bold_game(name, players, seed)
    v = match.variant
    totals = [5 if name == "set-back" else 0] * v.sides
    for result in match.hand_results:
        totals = [
            max(0, t + p) if name == "set-back" else t + p
            for t, p in zip(totals, result.points, strict=True)
        ]
    assert totals == match.scores
    for deal in match.deals[:-1]:
        assert deal_problems(deal) == []
    if name == "napoleon":
        assert sum(match.scores) == 0 and len(match.deals) == players
    elif name == "set-back":
        if players == 2 or match.over:
            assert match.winner is not None and match.scores[match.winner] == 0
    else:
        assert match.winner is not None and match.scores[match.winner] >= v.game
    # The deal passes to the left.
    dealers = [d.dealer for d in match.deals]
    assert all(b == (a + 1) % players for a, b in zip(dealers, dealers[1:], strict=False))


@settings(max_examples=10, deadline=None)
@given(tables, seeds)
def test_the_same_seed_plays_the_same_game(table: tuple[str, int], seed: int) -> None:
    name, players = table
    first, second = bold_game(name, players, seed), bold_game(name, players, seed)
    assert [d.history for d in first.deals] == [d.history for d in second.deals]
    assert first.scores == second.scores


def test_the_audit_names_an_action_accepted_where_it_is_not_open() -> None:
    deal = VariantDeal.shuffled(make_variant("french"), 0, random.Random(1))
    seat = deal.to_act
    problem = refusal_problem(deal, deal.legal_actions()[0], seat)  # open: it is taken
    assert problem is not None and "accepted from seat" in problem
    assert refusal_problem(deal, "bid:6", deal.to_act) is None
