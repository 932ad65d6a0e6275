"""The coach: the expert's analysis of a decision, replayed decisions, and grades."""

from __future__ import annotations

import random

import pytest

from bot.ai.coach import (
    Decision,
    analyse,
    cost_text,
    decisions,
    grade,
    grade_all,
    lead_text,
    value_text,
)
from bot.ai.expert import ExpertPlayer
from bot.ai.knowledge import read
from bot.engine.match import Match
from bot.engine.rules import build_options
from bot.ui.cards import action_label
from bot.ui.coach import NOISE, hint_embed, shown_actions
from tests.ai.positions import B, position, view

BUDGET = 6  # worlds a decision: enough to weigh, quick enough for many positions


def random_positions(seed: int, count: int):
    """Views of positions reached by random play (deals of random length, several presets)."""
    rng = random.Random(seed)
    preset = rng.choice(("somerset", "jerome", "modern"))
    match = Match(build_options(preset), rng.randrange(4), rng=random.Random(seed))
    out = []
    while len(out) < count and not match.over:
        seat = match.to_act
        v = match.view_for(seat)
        if len(v.deal.legal) > 1 and rng.random() < 0.3:
            out.append(v)
        match.apply(rng.choice(list(v.deal.legal)), seat)
    return out


@pytest.mark.parametrize("seed", range(12))
def test_a_hint_is_always_a_legal_action(seed):
    expert = ExpertPlayer(seed, budget=BUDGET)
    for v in random_positions(seed, 4):
        a = analyse(expert, v)
        assert a.choice in v.deal.legal
        # Every legal action is weighed, and the figures are shares.
        assert sorted(x.action for x in a.ranked) == sorted(v.deal.legal)
        assert 0 <= a.marches <= a.makes <= 1 and 0 <= a.passed <= 1
        assert a.worlds > 0


def test_the_analysis_choice_is_the_experts_own_and_repeatable():
    expert = ExpertPlayer(3, budget=BUDGET)
    for v in random_positions(5, 6):
        a = analyse(expert, v)
        assert a.choice == ExpertPlayer(3, budget=BUDGET).choose(v)
        assert analyse(ExpertPlayer(3, budget=BUDGET), v) == a
        assert expert.analyse(v) == a  # the expert's own method gives the same


def test_a_forced_action_takes_no_search():
    # The last card of a hand is always forced.
    match = Match(build_options("modern"), 0, rng=random.Random(1))
    rng = random.Random(1)
    while True:
        v = match.view_for(match.to_act)
        if len(v.deal.legal) == 1 and v.deal.phase == "play":
            break
        match.apply(rng.choice(list(v.deal.legal)), match.to_act)
    a = analyse(ExpertPlayer(0, budget=BUDGET), v)
    assert a.choice == v.deal.legal[0] and a.ranked == () and a.worlds == 0


def expert_game(seed: int, deals: int = 2) -> tuple[Match, ExpertPlayer]:
    expert = ExpertPlayer(seed, budget=BUDGET)
    match = Match(build_options("modern"), 0, rng=random.Random(seed))
    while len(match.deals) <= deals and not match.over:
        seat = match.to_act
        match.apply(expert.choose(match.view_for(seat)), seat)
    return match, expert


@pytest.mark.parametrize("seed", range(3))
def test_grades_are_zero_for_the_experts_own_choices(seed):
    match, expert = expert_game(seed)
    chosen = decisions(match)
    grades = grade_all(expert, chosen)
    assert grades  # there were decisions to make
    assert all(g.cost == 0 and g.action == g.best for g in grades)


def test_decisions_replay_each_seat_view_before_its_action():
    match, _ = expert_game(7)
    finished = [d for d in match.deals if d.is_over]
    chosen = decisions(match)
    assert len(chosen) == sum(len(d.history) for d in finished)
    for d in chosen:
        assert d.view.deal.seat == d.seat == d.view.deal.to_act
        assert d.action in d.view.deal.legal
        # Only the seat's own hand is in its view.
        assert d.view.deal.hand is not None
    # The scores before each deal are those the match had then.
    second = [d for d in chosen if d.deal == 2]
    first_points = finished[0].result.points
    assert second[0].view.scores == (first_points[0], first_points[1])
    only = decisions(match, deals=[2], seats=[1])
    assert only and all(d.deal == 2 and d.seat == 1 for d in only)


def test_ordering_up_alone_with_a_weak_hand_is_graded_a_cost():
    # B, the eldest, holds two small trumps and nothing outside.
    match = position({B: "TH 8H 9S 7D 8C"}, turn_up="9H")
    v = view(match)
    expert = ExpertPlayer(0, budget=12)
    blunder = grade(expert, Decision(1, 0, B, v, "order:alone"))
    assert blunder is not None and blunder.cost > 0 and blunder.points > 0
    assert blunder.best != "order:alone"
    assert blunder.advice is not None and blunder.advice.suggestion.key == "light_lone"
    assert not blunder.advice.followed_by("order:alone")
    # The expert's own choice there costs nothing.
    own = grade(expert, Decision(1, 0, B, v, blunder.best))
    assert own is not None and own.cost == 0


def test_grades_list_the_costliest_first():
    match = position({B: "TH 8H 9S 7D 8C"}, turn_up="9H")
    v = view(match)
    expert = ExpertPlayer(0, budget=BUDGET)
    grades = grade_all(expert, [Decision(1, 0, B, v, "pass"), Decision(1, 0, B, v, "order:alone")])
    assert grades[0].action == "order:alone" and grades[0].cost >= grades[1].cost


def test_values_in_players_words():
    assert value_text(0.58, rubber=False) == "58% to win the game"
    assert value_text(0.12, rubber=True) == "+1.20 rubber points"
    assert value_text(-0.0004, rubber=True) == "+0.00 rubber points"
    assert cost_text(0.05, rubber=False) == "5.0% less chance to win the game"
    assert cost_text(0.05, rubber=True) == "0.50 rubber points"
    assert lead_text(0.018, rubber=False) == "1.8% of the chance to win the game"
    assert lead_text(0.014, rubber=True) == "0.14 rubber points"


@pytest.mark.parametrize("seed", range(8))
def test_a_hint_lists_the_experts_choice_and_says_why_it_is_not_the_searchs_best(seed):
    """The hint names the expert's action and lists it beside the search's best: where the two
    differ (the book's head start, a declaration the expert does not weigh) it says why, so its
    own figures never contradict it silently."""
    expert = ExpertPlayer(seed, budget=BUDGET)
    for v in random_positions(seed, 6):
        a = analyse(expert, v)
        if not a.ranked:
            continue
        shown, why = shown_actions(a, v.deal.seat, v.deal.dealer)
        assert a.choice in [x.action for x in shown] and len(shown) <= 2
        chosen = a.value_of(a.choice)
        assert chosen is not None
        if a.ranked[0].value - chosen.value >= NOISE:
            assert why is not None and shown[0] == a.ranked[0]
            if a.choice == a.book and a.ranked[0].value - chosen.value <= a.margin:
                assert "the expert asks before it leaves the book's choice" in why
        else:
            assert why is None
        embed = hint_embed(a, v.deal.seat, v.deal.dealer).to_dict()
        assert action_label(a.choice, v.deal.seat, v.deal.dealer) in embed["description"]


def test_the_book_choice_and_its_head_start_are_what_the_expert_weighs():
    """The expert keeps the book's choice unless another action beats it by the head start."""
    expert = ExpertPlayer(3, budget=BUDGET)
    for v in random_positions(3, 8):
        k = read(v)
        if len(k.legal) < 2:
            continue
        values = expert.values(k)
        book, margin = expert.book_choice(k)
        assert margin > 0 and book in k.legal
        if book in values and max(values.values()) < values[book] + margin - 1e-9:
            assert expert.choose(v) == book
