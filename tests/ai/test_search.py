"""The expert's parts: what a seat knows, sampled worlds, the exact search, the score's worth."""

from __future__ import annotations

import copy
import itertools
import random
from dataclasses import replace

import pytest

from bot.ai.expert import ExpertPlayer, _ending
from bot.ai.knowledge import read
from bot.ai.sampling import build_deal, play_weight, sample_worlds, true_world
from bot.ai.solver import Solver, card_index, to_mask
from bot.ai.value import ScoreValue
from bot.engine.cards import EFFECTIVE_SUIT, make_pack, trick_winner
from bot.engine.match import GameResult, Match
from bot.engine.rules import build_options
from tests.ai.positions import A, B, C, D, coup, position


def test_knowledge_reads_voids_turn_up_and_passes():
    match, _ = coup("case_1_refusing_to_over_trump")
    k = read(match.view_for(B))
    # D ruffed the knave of diamonds: he has no diamond.
    assert "D" in k.voids[D] and not k.voids[A]
    # A took up the 9 of clubs and has not played it.
    assert k.holds[A] == {"9C"}
    assert k.passed_one == {B, C, D} and k.maker == A and k.maker_action == "order"
    # B knows his hand, the cards played, and the turn-up's place; A's discard he does not.
    assert "7H" in k.unseen and "9C" not in k.unseen and "JD" not in k.unseen
    assert not set(k.hand) & set(k.unseen)
    assert len(k.unseen) == 32 - 4 - 3 - 1  # B's four cards, three played, the turn-up
    # The dealer knows his own discard.
    assert "7H" not in read(match.view_for(A)).unseen


def test_a_dealer_who_shows_out_of_trump_threw_out_the_turn_up_where_the_options_allow_it():
    """S.88 forbids it; modern (and jerome) let the dealer discard the turn-up. Once he shows
    he has no trump, the turn-up lies in the kitty: every world must have it there, and make it
    his discard. The worlds left it in his hand or dealt it to another, so none replayed and
    the search had nothing to weigh."""
    match = position(
        {A: "9H TH 9D TD 9C", B: "AS KH QH AH AD", C: "TS QD KD AC KC", D: "QS 9S QC TC JD"},
        "JS",
        ["order", "JS", "AS", "TS", "QS", "9H"],
        preset="modern",
    )
    assert match.to_act == B and match.deal.discarded == "JS"
    k = read(match.view_for(B))
    assert "S" in k.voids[A] and "JS" not in k.unseen and not k.holds[A]
    worlds = sample_worlds(k, 20, random.Random(1))
    assert worlds and all("JS" not in hand for w in worlds for hand in w.hands)
    assert all(build_deal(k, w) is not None for w in worlds)
    assert ExpertPlayer(1, budget=8).values(k)  # the search weighs B's cards


def _random_positions(count: int, seed: int) -> list[Match]:
    rng = random.Random(seed)
    out = []
    for n in range(count):
        preset = ("somerset", "modern", "jerome")[n % 3]
        options = build_options(preset, joker=n % 5 == 0, defend_alone=n % 7 == 0)
        match = Match(options, n % 4, random.Random(rng.random()))
        for _ in range(rng.randrange(0, 30)):
            if match.over:
                break
            match.apply(rng.choice(list(match.legal_actions())))
        if not match.over:
            out.append(match)
    return out


def test_sampled_worlds_agree_with_everything_seen():
    checked = 0
    for match in _random_positions(60, 4):
        seat = match.to_act
        view = match.view_for(seat)
        k = read(view)
        worlds = sample_worlds(k, 4, random.Random(1))
        assert worlds
        for world in worlds:
            assert [len(h) for h in world.hands] == list(view.deal.hand_sizes)
            assert world.hands[seat] == list(k.hand)
            dealt = [c for h in world.hands for c in h] + world.kitty
            assert len(dealt) == len(set(dealt))
            for s in range(4):
                assert k.holds[s] <= set(world.hands[s])
                if k.trump is not None and s != seat:
                    eff = EFFECTIVE_SUIT[k.trump]
                    assert not {eff[c] for c in world.hands[s]} & k.voids[s]
            # Replayed by the engine, the world shows this seat exactly what it saw.
            deal = build_deal(k, world)
            assert deal is not None
            seen = deal.view_for(seat)
            assert replace(seen, legal=tuple(sorted(seen.legal))) == replace(
                view.deal, legal=tuple(sorted(view.deal.legal))
            )
            checked += 1
    assert checked >= 100


def test_a_lead_under_a_higher_card_makes_that_world_less_likely():
    match, _ = coup("case_7_refusing_to_ruff_with_the_high_trump")
    k = read(match.view_for(B))
    worlds = sample_worlds(k, 30, random.Random(2), spread=1)
    with_ace = [w for w in worlds if "AS" in w.hands[A]]
    without = [w for w in worlds if "AS" not in w.hands[A]]
    # A led the king of spades: a hand that also held the ace is a less likely one.
    assert all(play_weight(k, w) < 1 for w in with_ace)
    assert all(play_weight(k, w) == pytest.approx(1) or "AS" not in w.hands[A] for w in without)


def _brute(hands, trump, seat, trick, made, maker_side, active):
    """Makers' tricks with perfect play, by plain minimax over every legal card."""
    if not any(hands[s] for s in active) and not trick:
        return made
    hand = hands[seat]
    if trick:
        eff = EFFECTIVE_SUIT[trump]
        led = eff[trick[0][1]]
        legal = [c for c in hand if eff[c] == led] or hand
    else:
        legal = hand
    results = []
    order = sorted(active)
    for card in legal:
        rest = [list(h) for h in hands]
        rest[seat].remove(card)
        now = [*trick, (seat, card)]
        if len(now) == len(active):
            win = now[trick_winner([c for _, c in now], trump)][0]
            results.append(
                _brute(rest, trump, win, [], made + ((win & 1) == maker_side), maker_side, active)
            )
        else:
            nxt = order[(order.index(seat) + 1) % len(order)]
            results.append(_brute(rest, trump, nxt, now, made, maker_side, active))
    return max(results) if (seat & 1) == maker_side else min(results)


@pytest.mark.parametrize(
    "tricks_left, active",
    [
        (2, (0, 1, 2, 3)),
        (3, (0, 1, 2, 3)),
        (3, (0, 1, 3)),
        (4, (0, 2, 3)),
    ],
)
def test_the_solver_agrees_with_plain_minimax(tricks_left, active):
    rng = random.Random(tricks_left * 10 + len(active))
    for _ in range(25):
        pack = make_pack("9", joker=rng.random() < 0.3)
        rng.shuffle(pack)
        trump = rng.choice("SHDC")
        hands = [[] for _ in range(4)]
        for s in active:
            hands[s] = [pack.pop() for _ in range(tricks_left)]
        leader = rng.choice(active)
        maker_side = rng.randrange(2)
        exact = _brute(hands, trump, leader, [], 0, maker_side, active)
        solver = Solver(trump, active, maker_side)
        masks = [to_mask(h) for h in hands]
        for target in range(1, tricks_left + 1):
            assert solver.makers_reach(masks, [], leader, 0, tricks_left, target) == (
                exact >= target
            )


def test_the_master_trump_always_takes_a_trick():
    # East, a defender, holds the right bower and three small hearts: however strong North and
    # South are, the makers cannot take all four tricks.
    hands = [
        ["JS", "AS", "KS", "AH"],
        ["JC", "9H", "TH", "QH"],
        ["QS", "TS", "9S", "AD"],
        ["9D", "TD", "QD", "KD"],
    ]
    trump = "C"
    solver = Solver(trump, (0, 1, 2, 3), 0)
    masks = [to_mask(h) for h in hands]
    assert not solver.makers_reach(masks, [], 0, 0, 4, 4)
    assert solver.makers_reach(masks, [], 0, 0, 4, 3) == (
        _brute(hands, trump, 0, [], 0, 0, (0, 1, 2, 3)) >= 3
    )


def test_a_seat_holding_the_top_trumps_takes_a_trick_with_each():
    # North holds the right and left bowers and the ace: three sure tricks for the makers,
    # whoever leads and whatever the others hold.
    hands = [
        ["JH", "JD", "AH", "9S"],
        ["KH", "QH", "AS", "KS"],
        ["9C", "TC", "QC", "KC"],
        ["TH", "9H", "AC", "AD"],
    ]
    solver = Solver("H", (0, 1, 2, 3), 0)
    masks = [to_mask(h) for h in hands]
    for leader in range(4):
        assert solver.makers_reach(masks, [], leader, 0, 4, 3)
    # The plain search agrees, with an adversary on lead.
    assert _brute(hands, "H", 1, [], 0, 0, (0, 1, 2, 3)) >= 3


def test_card_index_round_trips():
    for card in make_pack("7", joker=True):
        assert to_mask([card]) == 1 << card_index(card)


def test_score_value_plays_to_the_score():
    modern = build_options("modern")
    early = ScoreValue(position({}, "9H", preset="modern").view_for(0))
    late = ScoreValue(position({}, "9H", preset="modern", scores=(9, 9)).view_for(0))
    # At 9-9 one point wins the game outright; at 0-0 it is worth a little.
    assert late.of(1, 0) == 1.0 and late.of(0, 1) == 0.0
    assert 0.5 < early.of(1, 0) < early.of(2, 0) < early.of(4, 0) < 1.0
    assert early.for_side(1, 0, 2) == pytest.approx(1 - early.of(0, 2))
    assert early.of(0, 0) == pytest.approx(0.5)
    assert modern.points == 10


def test_rubber_value_counts_games_and_the_rubber():
    games = (GameResult((5, 2), 0, 1), GameResult((1, 5), 1, 1))
    third = ScoreValue(position({}, "9H", scores=(4, 4), games=games).view_for(0))
    # Game-all, four-all: the next point decides the rubber (a game and the two for it).
    assert third.of(1, 0) == pytest.approx(-third.of(0, 1))
    assert third.of(1, 0) == pytest.approx((1 + 2) / 10)
    fresh = ScoreValue(position({}, "9H").view_for(0))
    assert fresh.of(0, 0) == pytest.approx(0.0, abs=1e-9)
    assert fresh.of(4, 0) > fresh.of(2, 0) > fresh.of(1, 0) > 0


def test_the_game_in_play_is_worth_a_game_or_what_it_does_to_the_rubber():
    # A single game: winning it rather than losing it is the whole of the match.
    assert (
        ScoreValue(position({}, "9H", preset="modern", scores=(3, 7)).view_for(0)).game_swing()
        == 1.0
    )
    # The deciding game of a rubber at four-all: a game and the two for the rubber, each way.
    games = (GameResult((5, 2), 0, 1), GameResult((1, 5), 1, 1))
    third = ScoreValue(position({}, "9H", scores=(4, 4), games=games).view_for(0))
    assert third.game_swing() == pytest.approx(2 * (1 + 2) / 10)
    # The first game of a rubber is worth less than the deciding one.
    assert 0 < ScoreValue(position({}, "9H").view_for(0)).game_swing() < third.game_swing()


def test_every_position_of_the_helpers_is_a_real_deal():
    match = position({A: "JC AC KC QC TC"}, "9C")
    assert sorted(match.deal.hands[A]) == sorted(["JC", "AC", "KC", "QC", "TC"])
    all_cards = [c for h in match.deal.hands for c in h] + [match.deal.turn_up]
    assert len(set(all_cards)) == 21
    assert list(itertools.chain(*match.deal.hands)) == [c for h in match.deal.hands for c in h]


class _Shown(ExpertPlayer):
    """An expert shown the true deal instead of sampled worlds (as `bench/ceiling.py` does)."""

    def __init__(self, match: Match) -> None:
        super().__init__(seed=1, budget=4)
        self.match = match

    def worlds(self, k, count, rng):
        return [true_world(k, self.match.deal.hands)]


def test_the_expert_searches_the_worlds_it_is_given():
    checked = 0
    for match in _random_positions(80, 9):
        deal = match.deal
        # A dealer who threw out the turn-up (jerome allows it) is a world the seats' model of
        # the deal leaves out: they count the turn-up as held.
        if deal.phase != "play" or len(deal.legal_actions()) < 2 or deal.discarded == deal.turn_up:
            continue
        if not deal.tricks:  # the plain minimax below is slow on five tricks
            continue
        seat = match.to_act
        view = match.view_for(seat)
        values = _Shown(match).values(read(view))
        assert set(values) == set(deal.legal_actions())
        score = ScoreValue(view)
        maker_side = deal.maker & 1
        for card, worth in values.items():
            after = copy.deepcopy(deal)
            after.apply(card, seat)
            made = sum(after.won[s] for s in range(4) if (s & 1) == maker_side)
            tricks = (
                made
                if after.phase != "play"
                else _brute(
                    [list(h) for h in after.hands],
                    deal.trump,
                    after.to_play,
                    list(after.trick),
                    made,
                    maker_side,
                    after.active,
                )
            )
            ending = 0 if tricks < 3 else 5 if tricks == 5 else 3
            assert worth == pytest.approx(score.for_side(seat & 1, *_ending(after, ending)))
        checked += 1
    assert checked >= 10
