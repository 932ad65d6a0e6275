"""Property tests over random legal deals and matches, for every preset and the main options.

A seed drives the shuffle and random legal choices. Each deal is checked against rules written
again here, apart from the engine's own tables: every card dealt once, one card per active
seat in each trick in turn, suit followed, the right winner, five tricks, the points the
options give; every legal action accepted and every other refused without a trace. Matches
always end, the dealer turns left, the games and rubber points follow S.1 and S.7 and never
pass ten, and the same seed plays the same game.
"""

from __future__ import annotations

import copy
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine.cards import JOKER, SAME_COLOUR, SUITS, make_pack, trick_winner
from bot.engine.deal import OVER, ROUND_TWO, Deal, side_of
from bot.engine.errors import IllegalAction
from bot.engine.match import Match
from bot.engine.rules import LEFT_OF_LONER, Options, build_options

VARIANTS: dict[str, Options] = {
    "somerset": build_options("somerset"),
    "jerome": build_options("jerome"),
    "modern": build_options("modern"),
    "somerset+joker": build_options("somerset", joker=True),
    "modern+joker": build_options("modern", joker=True),
    "jerome+joker+defend": build_options("jerome", joker=True, defend_alone=True),
    "modern+defend+left_of_loner": build_options(
        "modern",
        defend_alone=True,
        loner_lead=LEFT_OF_LONER,
    ),
    "somerset+stick+defend": build_options("somerset", stick_the_dealer=True, defend_alone=True),
    "modern+rubber": build_options("modern", match="rubber"),
    "somerset+lone_march_3": build_options("somerset", lone_march_points=3),
}
variants = st.sampled_from(sorted(VARIANTS))
seeds = st.integers(min_value=0, max_value=2**32 - 1)

BIDS = ["pass", "order", "order:alone", "alone", "defend"] + [
    f"call:{s}{a}" for s in SUITS for a in ("", ":alone")
]
EVERY_ACTION = BIDS + make_pack("7", joker=True)


# -- the rules written again, apart from the engine's tables ----------------------------------


def suit_for_play(card: str, trump: str) -> str:
    if card == JOKER or (card[0] == "J" and card[1] == SAME_COLOUR[trump]):
        return trump
    return card[1]


def strength(card: str, trump: str, led: str) -> int:
    if card == JOKER:
        return 300
    if card == "J" + trump:
        return 299
    suit = suit_for_play(card, trump)
    rank = "789TJQKA".index(card[0])
    if suit == trump:
        return 298 if card[0] == "J" else 200 + rank
    return 100 + rank if suit == led else 0


def expected_points(options: Options, deal: Deal) -> tuple[int, int]:
    result = deal.result
    if result.maker is None:
        return (0, 0)
    side = side_of(result.maker)
    tricks = result.tricks[side]
    alone = result.alone is not None
    if tricks == 5:
        scorer, points = side, options.lone_march_points if alone else options.march_points
    elif tricks >= 3:
        scorer, points = side, options.lone_made_points if alone else options.made_points
    elif not alone:
        scorer, points = 1 - side, options.euchred_points
    elif result.defender is not None:
        scorer, points = 1 - side, options.defend_alone_points
    else:
        scorer, points = 1 - side, options.lone_euchred_points
    return (points, 0) if scorer == 0 else (0, points)


def check_finished_deal(deal: Deal) -> None:
    """Every law a finished deal must satisfy, from its record alone."""
    options = deal.options
    pack = sorted(make_pack(options.lowest_rank, joker=options.joker))
    taken = deal.discarded is not None
    initial_kitty = deal.kitty[:-1] if taken else deal.kitty
    # Every card dealt once: the hands, the turn-up and the rest of the pack.
    assert sorted([c for h in deal.dealt for c in h] + [deal.turn_up] + initial_kitty) == pack
    assert all(len(h) == 5 for h in deal.dealt)
    result = deal.result
    assert deal.phase == OVER and result is not None and deal.legal_actions() == ()
    declarations = deal.declarations[1:] if deal.turn_up == JOKER else deal.declarations
    makes = [
        (s, a) for s, a in declarations if a in ("order", "order:alone") or a.startswith("call:")
    ]
    if result.maker is None:
        assert result.outcome == "passed" and result.points == (0, 0) and deal.tricks == []
        assert [a for _, a in declarations] == ["pass"] * 8
        assert [s for s, _ in declarations] == [(deal.dealer + 1 + i) % 4 for i in range(8)]
        assert not taken
        return
    maker, make = makes[0]
    assert maker == result.maker == deal.maker
    round_one = make in ("order", "order:alone")
    passes_before = declarations.index((maker, make))
    assert all(a == "pass" for _, a in declarations[:passes_before])
    assert passes_before == (maker - deal.dealer - 1) % 4 + (0 if round_one else 4)
    if round_one:
        assert deal.trump == deal.turn_up_suit
    else:
        assert deal.trump != deal.turn_up_suit
    # The dealer takes the turn-up exactly when it is made trump and he does not sit out.
    partner_of_loner = None if deal.alone is None else (deal.alone + 2) % 4
    assert taken == (round_one and partner_of_loner != deal.dealer)
    if taken and not options.discard_turn_up:
        assert deal.discarded != deal.turn_up  # S.88
    # Who sits out: the lone hand's partner, and the partner of a lone defender.
    out = set()
    if deal.alone is not None:
        assert side_of(deal.alone) == side_of(maker)
        out.add(partner_of_loner)
    if deal.defender is not None:
        assert options.defend_alone and deal.alone is not None
        assert side_of(deal.defender) != side_of(maker)
        out.add((deal.defender + 2) % 4)
    assert set(deal.sitting_out) == out
    active = [s for s in range(4) if s not in out]
    # Replay the tricks on the hands as they stood at the first lead.
    hands = [list(h) for h in deal.dealt]
    if taken:
        hands[deal.dealer].append(deal.turn_up)
        hands[deal.dealer].remove(deal.discarded)
    trump = deal.trump
    if deal.alone is not None and options.loner_lead == LEFT_OF_LONER:
        leader = (deal.alone + 1) % 4
    else:
        leader = (deal.dealer + 1) % 4
    while leader in out:
        leader = (leader + 1) % 4
    assert len(deal.tricks) == 5
    won = [0, 0, 0, 0]
    for winner, trick in deal.tricks:
        seats = [s for s, _ in trick]
        assert seats[0] == leader and sorted(seats) == active  # one card per active seat
        for i in range(1, len(seats)):  # in turn to the left, skipping those out
            step = (seats[i] - seats[i - 1]) % 4
            assert all((seats[i - 1] + k) % 4 in out for k in range(1, step))
        led = suit_for_play(trick[0][1], trump)
        for seat, card in trick:
            assert card in hands[seat]
            if any(suit_for_play(c, trump) == led for c in hands[seat]):
                assert suit_for_play(card, trump) == led  # followed suit when able
            hands[seat].remove(card)
        played = [c for _, c in trick]
        best = max(range(len(played)), key=lambda i: strength(played[i], trump, led))
        assert winner == seats[best] == seats[trick_winner(played, trump)]
        won[winner] += 1
        leader = winner
    assert all(not hands[s] for s in active)
    assert all(hands[s] == list(deal.hands[s]) for s in out)
    assert won == list(deal.won) and sum(won) == 5
    assert result.tricks == (won[0] + won[2], won[1] + won[3])
    assert result.points == expected_points(options, deal)


def probe(deal: Deal, rng: random.Random) -> None:
    """Every legal action is accepted; an action not legal is refused and changes nothing."""
    legal = list(deal.legal_actions())
    assert legal and len(set(legal)) == len(legal)
    for action in legal:
        trial = copy.deepcopy(deal)
        trial.apply(action, trial.to_act)
    accepted_as_pass = set()
    if deal.phase == ROUND_TWO and not (
        deal.options.stick_the_dealer and deal.to_act == deal.dealer
    ):
        # S.78: naming the suit turned down is taken as a pass, so it is not refused.
        down = deal.turn_up_suit
        accepted_as_pass = {f"call:{down}", f"call:{down}:alone"}
    illegal = [a for a in EVERY_ACTION if a not in legal and a not in accepted_as_pass]
    before = copy.deepcopy(deal)
    for action in rng.sample(illegal, 3):
        with pytest.raises(IllegalAction):
            deal.apply(action, deal.to_act)
    other = (deal.to_act + 1 + rng.randrange(3)) % 4
    with pytest.raises(IllegalAction, match="it is not your turn"):
        deal.apply(legal[0], other)
    for name in (
        "phase",
        "to_act",
        "hands",
        "declarations",
        "kitty",
        "trump",
        "maker",
        "alone",
        "defender",
        "sitting_out",
        "discarded",
        "won",
        "result",
        "history",
    ):
        assert getattr(deal, name) == getattr(before, name), name


def check_views(deal: Deal) -> None:
    public = deal.public_view()
    assert public.hand is None and public.discard is None and public.legal == ()
    seat = deal.to_act
    view = deal.view_for(seat)
    assert sorted(view.hand) == sorted(deal.hands[seat])
    assert set(view.legal) == set(deal.legal_actions())


def choose(legal: tuple[str, ...] | list[str], rng: random.Random) -> str:
    """A random legal action; in the bidding mostly a pass, so round two and passed-out
    deals come up often (a uniform choice reaches round two once in eighty deals)."""
    if "pass" in legal and rng.random() < 0.7:
        return "pass"
    return rng.choice(list(legal))


def play_deal(options: Options, seed: int, probing: bool) -> Deal:
    rng = random.Random(seed)
    deal = Deal.shuffled(options, seed % 4, rng)
    while not deal.is_over:
        if probing:
            probe(deal, rng)
            check_views(deal)
        deal.apply(choose(deal.legal_actions(), rng), deal.to_act)
    return deal


def test_random_deals_reach_every_phase_and_outcome():
    """The chooser above takes the random deals down every path the property tests claim."""
    seen: set[str] = set()
    for options in VARIANTS.values():
        for seed in range(60):
            rng = random.Random(seed)
            deal = Deal.shuffled(options, seed % 4, rng)
            while not deal.is_over:
                seen.add(deal.phase)
                deal.apply(choose(deal.legal_actions(), rng), deal.to_act)
            result = deal.result
            seen.add(result.outcome)
            if result.alone is not None:
                seen.add("partner alone" if result.alone != result.maker else "maker alone")
            if result.defender is not None:
                seen.add("defended")
    assert seen >= {
        "joker_suit",
        "round_one",
        "partner_alone",
        "discard",
        "round_two",
        "defend_alone",
        "play",
        "passed",
        "made",
        "march",
        "euchred",
        "maker alone",
        "partner alone",
        "defended",
    }


@settings(max_examples=150, deadline=None)
@given(variant=variants, seed=seeds)
def test_random_deal_follows_the_laws(variant, seed):
    deal = play_deal(VARIANTS[variant], seed, probing=True)
    check_finished_deal(deal)


@settings(max_examples=500, deadline=None)
@given(variant=variants, seed=seeds)
def test_random_deal_follows_the_laws_unprobed(variant, seed):
    check_finished_deal(play_deal(VARIANTS[variant], seed, probing=False))


@settings(max_examples=40, deadline=None)
@given(variant=variants, seed=seeds)
def test_same_seed_same_deal(variant, seed):
    first = play_deal(VARIANTS[variant], seed, probing=False)
    again = play_deal(VARIANTS[variant], seed, probing=False)
    assert first.dealt == again.dealt and first.history == again.history
    assert first.result == again.result


# -- matches ----------------------------------------------------------------------------------

MAX_ACTIONS = 20_000


def play_match(options: Options, seed: int) -> Match:
    rng = random.Random(seed ^ 0x5EED)
    match = Match(options, first_dealer=seed % 4, rng=random.Random(seed))
    for _ in range(MAX_ACTIONS):
        if match.over:
            break
        legal = match.legal_actions()
        assert legal, "no legal action while the match is not over"
        match.apply(choose(legal, rng), match.to_act)
    assert match.over, "the match did not end"
    return match


def expected_games(options: Options, match: Match) -> list[tuple[tuple[int, int], int, int, int]]:
    """The games S.1, S.2 and S.7 make of the hands played: (scores, winner, value, carried)."""
    games = []
    scores = [0, 0]
    for deal in match.deals:
        if deal.result is None:
            continue
        assert len(games) < 4 and (options.is_rubber or not games), "a deal after the match ended"
        scores[0] += deal.result.points[0]
        scores[1] += deal.result.points[1]
        if max(scores) >= options.points:
            winner = 0 if scores[0] >= options.points else 1
            value = 2 if options.double_game and scores[1 - winner] == 0 else 1
            carried = scores[winner] - options.points if options.lap else 0
            games.append(((scores[0], scores[1]), winner, value, carried))
            scores = [0, 0]
            scores[winner] = carried
    return games


@settings(max_examples=200, deadline=None)
@given(variant=variants, seed=seeds)
def test_random_match_ends_and_scores_by_the_laws(variant, seed):
    options = VARIANTS[variant]
    match = play_match(options, seed)
    for i, deal in enumerate(match.deals):
        assert deal.dealer == (seed % 4 + i) % 4  # the deal goes to the left (S.28)
        if deal.result is not None:
            check_finished_deal(deal)
    # No deal is dealt once the match is over.
    assert all(d.result is not None for d in match.deals)
    games = [(g.scores, g.winner, g.value, g.carried) for g in match.games]
    assert games == expected_games(options, match)
    if options.is_rubber:
        third_lapped = len(games) >= 3 and games[2][3] > 0
        assert len(games) == (4 if third_lapped else 3)  # S.1
        wins = [0, 0]
        for _, winner, _, _ in games[:3]:
            wins[winner] += 1
        rubber = 0 if wins[0] >= 2 else 1
        assert match.winner == match.rubber_winner == rubber
        points = [0, 0]
        for _, winner, value, _ in games:
            points[winner] += value
        points[rubber] += 2
        assert match.rubber_points == tuple(points)
        assert sum(match.rubber_points) <= 10  # S.7
    else:
        assert len(games) == 1 and match.winner == games[0][1]
    assert max(match.games[-1].scores) >= options.points
    assert match.legal_actions() == () and match.to_act is None


@settings(max_examples=50, deadline=None)
@given(variant=variants, seed=seeds)
def test_same_seed_same_match(variant, seed):
    first = play_match(VARIANTS[variant], seed)
    again = play_match(VARIANTS[variant], seed)
    assert [d.history for d in first.deals] == [d.history for d in again.deals]
    assert first.games == again.games and first.rubber_points == again.rubber_points
