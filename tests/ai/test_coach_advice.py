"""Whether the coach's advice is right and honest, as a player who wants to get better reads it.

On deals where the right play is clear to any good player the hint names it; its figures agree
with a count made here by enumerating every placement of the unseen cards and playing each out
with a plain minimax written in this file; the analysis never changes when only cards the asker
cannot see change; the grades list as a mistake only an action worth less than the expert's
choice; and the hint's words agree with its choice: a book quote that asks for more than the
hand has says so when it favours a pass, the expert's leaving the book is given its reason, and
the search's figures say which side the makers are.
"""

from __future__ import annotations

import itertools
import random
import statistics

import pytest

from bot.ai.book import SUGGESTIONS
from bot.ai.coach import Decision, analyse, grade
from bot.ai.expert import ExpertPlayer
from bot.ai.knowledge import read
from bot.ai.sampling import World, bidding_weight, play_weight, weighted_worlds
from bot.engine.cards import EFFECTIVE_SUIT, POWER
from bot.engine.deal import PLAY, ROUND_ONE, Deal
from bot.engine.match import Match, MatchView
from bot.engine.rules import build_options
from bot.ui.coach import (
    NOISE,
    book_text,
    grades_embed,
    hint_embed,
    leaves_book_text,
    search_text,
)
from tests.ai.positions import A, B, C, D, position, view

MODERN = {"preset": "modern"}


def hint_of(match: Match, budget: int = 60, seed: int = 0):
    v = view(match)
    a = analyse(ExpertPlayer(seed, budget=budget), v)
    embed = hint_embed(a, v.deal.seat, v.deal.dealer, v.deal.alone is not None)
    return v, a, embed.to_dict()


def field_text(embed: dict) -> str:
    return "\n".join(f"{f['name']}\n{f['value']}" for f in embed.get("fields", []))


# ---------------------------------------------------------------------------------------------
# Clear plays


def test_a_lay_down_is_ordered_up_alone_by_the_eldest_and_taken_up_alone_by_the_dealer():
    eldest = position({B: "JH JD AH KH QH"}, "9H")
    v, a, embed = hint_of(eldest)
    assert a.choice == "order:alone" and a.marches == 1.0
    assert "**Order up alone**" in embed["description"]
    dealer = position({A: "JS JC AS KS AH"}, "9S", ["pass", "pass", "pass"])
    v, a, embed = hint_of(dealer)
    assert a.choice == "order:alone" and a.marches == 1.0
    assert "**Take up alone**" in embed["description"]


def test_a_lone_hand_the_book_plays_is_quoted_from_the_lone_hands_chapter():
    """The eldest's lay-down quoted the order with three medium trumps above "The book
    favours: Order up alone": words on making the trump, none on playing alone. It quotes
    the Lone Hands chapter on the places for one, and so does the grade of an order without
    going alone there."""
    for match in (
        position({B: "JH JD AH KH QH"}, "9H"),
        position({A: "JS JC AS KS AH"}, "9S", ["pass", "pass", "pass"]),
        position({B: "JH JD AH KH QH"}, "9S", ["pass"] * 4),
    ):
        v, a, embed = hint_of(match, budget=20)
        assert a.advice is not None and a.advice.suggestion.key == "lone_position"
        assert a.choice in a.advice.favours and all(x.endswith("alone") for x in a.advice.favours)
        assert "The book: the place for a lone hand" in field_text(embed)
        assert "Lone Hands, p. 57" in field_text(embed)
        partnered = next(x for x in v.deal.legal if x != "pass" and not x.endswith("alone"))
        g = grade(ExpertPlayer(0, budget=20), Decision(1, 0, v.deal.seat, v, partnered))
        assert g is not None and g.cost >= NOISE and g.advice is not None
        text = grades_embed([g], v.deal.seat, v.deal.dealer, 1, "x").description or ""
        assert "You played against the book: “The eldest hand has the best position" in text


def test_a_sure_lone_march_leads_trumps_and_never_the_ace_that_can_be_ruffed():
    # B alone holds both bowers, the ace and king of trumps and the ace of spades; the queen
    # of trumps is out. Any trump first marches; the ace of spades first may be ruffed.
    match = position(
        {
            B: "JH JD AH KH AS",
            A: "9S TS KS QD TD",
            C: "QH 9C TC 9D KD",
            D: "QS JS QC AD KC",
        },
        "9H",
        ["order:alone", "TD"],
        **MODERN,
    )
    v, a, embed = hint_of(match)
    assert a.choice in ("JH", "JD", "AH", "KH") and a.marches == 1.0
    ace = a.value_of("AS")
    assert ace is not None and ace.value < a.ranked[0].value


def test_the_right_bower_is_led_by_the_maker_holding_it_with_the_ace():
    match = position(
        {
            B: "JH AH TH AS AC",
            A: "9S TS KS QD TD",
            C: "KH 9C TC 9D KD",
            D: "QS JS QC AD JD",
        },
        "9H",
        ["order", "TD"],
        **MODERN,
    )
    v, a, embed = hint_of(match)
    assert a.choice == "JH" and "**J♥**" in embed["description"]


def test_partners_winning_ace_is_not_trumped_by_the_last_to_play():
    # The dealer, void in spades, plays last to his partner's ace: he throws a club.
    match = position(
        {
            A: "JH AH QC KC QD",
            B: "9S TS KS QH TD",
            C: "AS 9C TC 9D KD",
            D: "QS JS TH AD JD",
        },
        "9H",
        ["pass", "pass", "pass", "order", "QD", "9S", "AS", "QS"],
        **MODERN,
    )
    v, a, embed = hint_of(match)
    assert a.choice in ("QC", "KC")


def test_a_hand_with_nothing_passes_at_every_seat_of_round_one():
    weak = "9S TC QD KS 9D"
    for seat, before in ((B, []), (C, ["pass"]), (D, ["pass", "pass"])):
        match = position({seat: weak}, "9H", before, **MODERN)
        v, a, embed = hint_of(match, budget=30)
        assert a.choice == "pass", seat
        assert "**Pass**" in embed["description"]


# ---------------------------------------------------------------------------------------------
# The figures against a count made here


def _winner(trick: list[tuple[int, str]], trump: str) -> int:
    eff, power = EFFECTIVE_SUIT[trump], POWER[trump]
    led = eff[trick[0][1]]

    def rank(seat_card: tuple[int, str]) -> int:
        card = seat_card[1]
        if eff[card] == trump:
            return 200 + power[card]
        return 100 + power[card] if eff[card] == led else 0

    return max(trick, key=rank)[0]


def _maker_tricks(hands, to_play, trick, trump, makers) -> int:
    """The makers' tricks from here, the makers taking as many and the others as few as they
    can, every card seen: a plain minimax, not the solver's."""
    if not trick and not any(hands):
        return 0
    eff = EFFECTIVE_SUIT[trump]
    hand = hands[to_play]
    follow = [c for c in hand if trick and eff[c] == eff[trick[0][1]]]
    results = []
    for card in follow or hand:
        after = [list(h) for h in hands]
        after[to_play].remove(card)
        now = [*trick, (to_play, card)]
        if len(now) == 4:
            w = _winner(now, trump)
            results.append(((w & 1) == makers) + _maker_tricks(after, w, [], trump, makers))
        else:
            results.append(_maker_tricks(after, (to_play + 1) % 4, now, trump, makers))
    return max(results) if (to_play & 1) == makers else min(results)


def exact_shares(v: MatchView, card: str) -> tuple[float, float]:
    """Over every placement of the unseen cards that fits what the seat saw, weighted as the
    coach weighs a world (by how likely the bidding and the play were with it), the share in
    which the makers take three tricks or more after `card`, and all five. For a deal whose
    trump was named in round two (nothing taken up) and no lone hand."""
    k = read(v)
    deal = v.deal
    trump = deal.trump
    assert trump is not None and deal.turned_down and deal.alone is None
    eff = EFFECTIVE_SUIT[trump]
    makers = deal.maker & 1
    made = sum((_winner(list(t), trump) & 1) == makers for _, t in deal.tricks)
    others = [s for s in range(4) if s != k.seat]
    played = [[c for _, t in deal.tricks for s2, c in t if s2 == s] for s in range(4)]
    for s, c in deal.trick:
        played[s].append(c)

    def placements(i, hands, left):
        if i == len(others):
            yield hands, left
            return
        s = others[i]
        fits = [c for c in left if eff[c] not in k.voids[s]]
        for chosen in itertools.combinations(fits, deal.hand_sizes[s]):
            rest = [c for c in left if c not in chosen]
            yield from placements(i + 1, {**hands, s: list(chosen)}, rest)

    total = three = five = 0.0
    for placed, kitty in placements(0, {k.seat: list(k.hand)}, list(k.unseen)):
        hands = [placed[s] for s in range(4)]
        original = [hands[s] + played[s] for s in range(4)]
        weight = bidding_weight(k, original) * play_weight(k, World(hands, kitty))
        after = [list(h) for h in hands]
        after[k.seat].remove(card)
        trick = [*deal.trick, (k.seat, card)]
        if len(trick) == 4:
            w = _winner(trick, trump)
            tricks = made + ((w & 1) == makers) + _maker_tricks(after, w, [], trump, makers)
        else:
            tricks = made + _maker_tricks(after, (k.seat + 1) % 4, trick, trump, makers)
        total += weight
        three += weight * (tricks >= 3)
        five += weight * (tricks == 5)
    return three / total, five / total


def late_positions(seed: int, count: int) -> list[MatchView]:
    """Views at the fourth trick of random `modern` deals whose trump was named in round two,
    played by no one alone, with a choice to make."""
    rng = random.Random(seed)
    out: list[MatchView] = []
    for n in range(500):
        match = Match(build_options("modern"), rng.randrange(4), rng=random.Random(seed * 997 + n))
        deal = match.deals[0]
        while not deal.is_over:
            v = match.view_for(match.to_act)
            d = v.deal
            if d.phase == PLAY and len(d.tricks) == 3:
                if len(d.legal) > 1 and d.turned_down and d.alone is None:
                    out.append(v)
                break
            match.apply(rng.choice(list(d.legal)), match.to_act)
        if len(out) == count:
            break
    return out


def test_the_hints_shares_at_the_fourth_trick_are_close_to_every_placement_counted():
    """At the fourth trick the hint said "three tricks or more in 13% of 30 sampled deals"
    where the count over every placement of the unseen cards says 21%, and 33% with another
    seed: its 30 worlds were resampled by weight from 90 candidates, and the share moved by up
    to 0.16 from the count. The coach weighs every world it draws, many more of them so late in
    the deal, and each share is within 0.10 of the count for every seed, and within the margin
    the hint gives (about two standard errors) but for the slack of a few more."""
    for v in [v for seed in range(3) for v in late_positions(seed, 2)]:
        counted: dict[str, tuple[float, float]] = {}
        for seed in range(8):
            a = analyse(ExpertPlayer(seed), v)
            if a.choice not in counted:
                counted[a.choice] = exact_shares(v, a.choice)
            three, five = counted[a.choice]
            for got, exact in ((a.makes, three), (a.marches, five)):
                assert abs(got - exact) <= 0.10, (v.deal.hand, seed, a.choice, got, exact)
                assert abs(got - exact) <= 0.02 + 3 * a.spread, (v.deal.hand, seed, a.spread)


def test_the_coachs_worlds_give_each_card_its_counted_chance_of_being_in_each_hand():
    """The draw places the cards a void restricts first, so with voids shown by different seats
    it favours some placements: a card's weighted chance of being in a hand was 0.05 off the
    count over every placement at the fourth trick (two seats void in clubs, one in hearts, one
    in diamonds). The coach divides each world's weight by its chance of being drawn, and the
    chances agree with the count within 0.03 (0.02 here) for every seed tried."""
    v = late_positions(2, 2)[1]
    k = read(v)
    deal = v.deal
    assert k.voids == [{"C"}, {"C"}, {"H"}, {"D"}]
    eff = EFFECTIVE_SUIT[deal.trump]
    others = [s for s in range(4) if s != k.seat]
    played = [[c for _, t in deal.tricks for s2, c in t if s2 == s] for s in range(4)]
    for s, c in deal.trick:
        played[s].append(c)

    def placements(i, hands, left):
        if i == len(others):
            yield hands, left
            return
        s = others[i]
        fits = [c for c in left if eff[c] not in k.voids[s]]
        for chosen in itertools.combinations(fits, deal.hand_sizes[s]):
            rest = [c for c in left if c not in chosen]
            yield from placements(i + 1, {**hands, s: list(chosen)}, rest)

    def chances(worlds) -> dict[tuple[int, str], float]:
        total = sum(w.weight for w in worlds)
        out: dict[tuple[int, str], float] = {}
        for w in worlds:
            for s in others:
                for c in w.hands[s]:
                    out[(s, c)] = out.get((s, c), 0.0) + w.weight / total
        return out

    counted = []
    for placed, kitty in placements(0, {k.seat: list(k.hand)}, list(k.unseen)):
        hands = [placed[s] for s in range(4)]
        original = [hands[s] + played[s] for s in range(4)]
        weight = bidding_weight(k, original) * play_weight(k, World(hands, kitty))
        counted.append(World(hands, kitty, weight))
    exact = chances(counted)
    for seed in range(3):
        drawn = chances(weighted_worlds(k, 12_000, random.Random(seed), even=True))
        worst = max(abs(drawn.get(key, 0.0) - p) for key, p in exact.items())
        assert worst <= 0.03, (seed, worst)


def test_the_hints_shares_in_the_bidding_move_little_from_seed_to_seed():
    """The eldest's pass with two black jacks under a diamond turn-up: over 40 worlds the share
    of deals the makers make ranged from 50% to 88% with the seed (a spread of 0.09; the share
    over 3,000 worlds is 74%). The coach weighs every world the expert draws, three times as
    many, and the spread is below 0.06 (0.04 here); the hint calls the shares rough, with their
    margin."""
    match = position({A: "QS TS JH JC TD"}, "9D", dealer=D, **MODERN)
    shares = []
    for seed in range(12):
        v, a, embed = hint_of(match, seed=seed)
        assert a.choice == "pass" and a.worlds == 120
        shares.append(a.makes)
        search = next(f["value"] for f in embed["fields"] if f["name"] == "The search")
        margin = round(200 * a.spread)
        assert (
            margin >= 4 and f"shares are rough: each is likely within {margin} points of" in search
        )
    assert statistics.pstdev(shares) <= 0.06, shares


def test_shares_that_are_sure_are_not_called_rough():
    v, a, embed = hint_of(position({B: "JH JD AH KH QH"}, "9H"), budget=20)
    assert a.makes == a.marches == a.ours == 1.0 and a.spread == 0.0
    assert "rough" not in field_text(embed)


# ---------------------------------------------------------------------------------------------
# Nothing the asker cannot see


def _replayed(match: Match, hands: list[list[str]], kitty: list[str]) -> Match:
    deal = match.deals[0]
    again = Match(
        match.options,
        match.first_dealer,
        deal_factory=lambda o, d: Deal.from_hands(o, d, hands, deal.turn_up, kitty),
    )
    for seat, action in deal.history:
        again.apply(action, seat)
    return again


def hidden_swaps(match: Match, seat: int):
    """Deals that differ from the match's first only in cards `seat` cannot see: two unplayed
    cards of one suit swapped between two other hands, or (before any card is played) one
    of another hand swapped with one of the kitty."""
    deal = match.deals[0]
    trump = deal.trump
    suit = EFFECTIVE_SUIT[trump] if trump is not None else {c: c[1:] for c in deal.dealt[0]}
    kitty = [c for c in deal.kitty if c != deal.discarded]
    unplayed = [[c for c in deal.hands[s] if c != deal.turn_up] for s in range(4)]
    others = [s for s in range(4) if s != seat]
    for x, y in itertools.combinations(others, 2):
        for cx, cy in itertools.product(unplayed[x], unplayed[y]):
            if trump is None or suit[cx] == suit[cy]:
                hands = [list(h) for h in deal.dealt]
                hands[x][hands[x].index(cx)], hands[y][hands[y].index(cy)] = cy, cx
                yield _replayed(match, hands, kitty)
                break
    if deal.phase != PLAY and seat != deal.dealer:
        other = others[0] if others[0] != deal.dealer else others[1]
        hands = [list(h) for h in deal.dealt]
        card = hands[other][0]
        hands[other][0] = kitty[0]
        yield _replayed(match, hands, [card, *kitty[1:]])


@pytest.mark.parametrize("seed", range(16))
def test_the_analysis_and_the_hint_never_change_when_only_hidden_cards_change(seed):
    rng = random.Random(seed)
    match = Match(build_options(rng.choice(("modern", "somerset"))), rng.randrange(4))
    match = _replayed(match, [list(h) for h in match.deals[0].dealt], list(match.deals[0].kitty))
    for _ in range(rng.randrange(0, 14)):
        v = match.view_for(match.to_act)
        if len(v.deal.legal) > 1 and v.deal.phase == PLAY and rng.random() < 0.2:
            break
        match.apply(rng.choice(list(v.deal.legal)), match.to_act)
    seat = match.to_act
    v = match.view_for(seat)
    expert = ExpertPlayer(seed, budget=10)
    first = analyse(expert, v)
    text = hint_embed(first, seat, v.deal.dealer).to_dict()
    swapped = 0
    for other in hidden_swaps(match, seat):
        ov = other.view_for(seat)
        assert ov.deal.hand == v.deal.hand and ov.deal.legal == v.deal.legal
        again = analyse(expert, ov)
        assert again == first
        assert hint_embed(again, seat, ov.deal.dealer).to_dict() == text
        swapped += 1
    assert swapped or first.phase == PLAY


# ---------------------------------------------------------------------------------------------
# The grades


def test_grades_list_only_actions_worth_less_than_the_experts_choice():
    """In the sure lone march every trump led is as good as the next: none is a mistake; the
    ace of spades led first loses a march and is one, with its cost in the deal's points."""
    match = position(
        {
            B: "JH JD AH KH AS",
            A: "9S TS KS QD TD",
            C: "QH 9C TC 9D KD",
            D: "QS JS QC AD KC",
        },
        "9H",
        ["order:alone", "TD"],
        **MODERN,
    )
    v = view(match)
    expert = ExpertPlayer(0, budget=30)
    for card in ("JH", "JD", "AH", "KH"):
        g = grade(expert, Decision(1, 0, B, v, card))
        assert g is not None and g.cost < NOISE
    assert "as good as the expert's choice" in (grades_embed([g], B, A, 1, "B").description or "")
    bad = grade(expert, Decision(1, 0, B, v, "AS"))
    assert bad is not None and bad.cost >= NOISE and bad.points > 0
    text = grades_embed([bad], B, A, 1, "B").description or ""
    assert "**Trick 1**: A♠" in text and "points fewer expected" in text


# ---------------------------------------------------------------------------------------------
# The words


@pytest.mark.parametrize(
    ("seat", "before", "turn_up", "asks"),
    [
        (B, [], "9H", "to order up"),
        (C, ["pass"], "9H", "to assist"),
        (D, ["pass", "pass"], "9H", "to order up"),
        (A, ["pass", "pass", "pass"], "TH", "to take up"),
        (B, ["pass"] * 4, "9H", "to make it next"),
    ],
)
def test_a_quote_that_asks_for_more_than_the_hand_has_says_so_above_its_pass(
    seat, before, turn_up, asks
):
    """The book's words say what a hand needs to order, assist, take up or make it next: where
    they favour a pass, the learner is told the hand has less than they ask for, not left
    with an ordering rule above a pass."""
    match = position({seat: "9S TC QD KS 9D"}, turn_up, before, **MODERN)
    v, a, embed = hint_of(match, budget=20)
    assert a.advice is not None and a.advice.favours == ("pass",)
    said = book_text(a.advice, seat, v.deal.dealer, v.deal.phase)
    assert said.endswith(
        f"The book favours: Pass, as this hand has less than these words ask for {asks}."
    )
    assert said in field_text(embed)
    # A grade of an order against such a pass says it too.
    g = grade(ExpertPlayer(0, budget=20), Decision(1, 0, seat, v, v.deal.legal[1]))
    assert g is not None and g.advice is not None
    if g.cost >= NOISE:
        line = grades_embed([g], seat, v.deal.dealer, 1, "x").description or ""
        assert f"it passes with this hand, which has less than it asks for {asks}" in line


@pytest.mark.parametrize(("turn_up", "noted"), [("9H", True), ("9D", True), ("9S", False)])
def test_the_second_hands_make_it_red_after_a_red_turn_down_says_it_makes_it_black(turn_up, noted):
    """The book's "If your partner turn down black, make it red" was quoted as it stands to a
    second hand whose partner had turned down hearts, and a pass under it read "less than
    these words ask for to make it red". The rule is to cross the colour: after a red turn-down
    the hint says that makes it black."""
    match = position({C: "9S TC QD KS 9H"}, turn_up, ["pass"] * 5, **MODERN)
    v, a, embed = hint_of(match, budget=20)
    assert a.advice is not None and a.advice.suggestion.key == "make_it_red"
    said = book_text(a.advice, C, A, v.deal.phase)
    note = "Your partner turned down a red suit: crossing the colour here makes it black."
    assert (note in said) == noted
    if a.advice.falls_short:
        assert said.endswith("less than these words ask for to cross the colour.")
    g = grade(ExpertPlayer(0, budget=20), Decision(1, 0, C, v, "call:C"))
    assert g is not None and g.advice is not None
    if g.cost >= NOISE:
        text = grades_embed([g], C, A, 1, "x").description or ""
        assert (note in text) == noted


def test_a_quote_whose_words_favour_the_declaration_reads_as_before():
    match = position({B: "JH JD AH KH QH"}, "9H")
    v, a, _ = hint_of(match, budget=20)
    assert a.advice is not None and not a.advice.falls_short
    said = book_text(a.advice, B, A, ROUND_ONE)
    assert said.endswith("The book favours: Order up alone.")
    # The suggestions that never speak of what a hand needs ask for nothing.
    assert not SUGGESTIONS["order_not_next"].asks and not SUGGESTIONS["discard_short"].asks


def test_a_hint_whose_choice_leaves_the_book_says_why():
    """Wherever the expert's choice is none the book's words favour, the hint says why beside
    the quote; where it is one of them, it adds nothing."""
    rng = random.Random(11)
    left = kept = 0
    for n in range(20):
        match = Match(build_options(rng.choice(("modern", "somerset"))), rng.randrange(4))
        expert = ExpertPlayer(n, budget=12)
        while not match.deals[0].is_over:
            v = match.view_for(match.to_act)
            if len(v.deal.legal) > 1 and rng.random() < 0.4:
                a = analyse(expert, v)
                why = leaves_book_text(a, v.deal.seat, v.deal.dealer)
                if a.advice is None or not a.ranked or a.advice.followed_by(a.choice):
                    assert why is None
                    kept += 1
                else:
                    assert why is not None
                    embed = hint_embed(a, v.deal.seat, v.deal.dealer)
                    assert why in field_text(embed.to_dict())
                    left += 1
            match.apply(expert.choose(v), match.to_act)
    assert left and kept


def test_the_search_figures_say_which_side_the_makers_are():
    # The makers' side in the play: the maker leading, then a defender.
    march = position(
        {
            B: "JH JD AH KH AS",
            A: "9S TS KS QD TD",
            C: "QH 9C TC 9D KD",
            D: "QS JS QC AD KC",
        },
        "9H",
        ["order:alone", "TD"],
        **MODERN,
    )
    _, a, _ = hint_of(march, budget=20)
    assert a.ours == 1.0
    assert search_text(a).startswith(
        "After it, your side, the makers, takes three tricks or more in 100% of"
    )
    defended = position(
        {
            A: "JH AH QC KC QD",
            B: "9S TS KS QH TD",
            C: "AS 9C TC 9D KD",
            D: "QS JS TH AD JD",
        },
        "9H",
        ["pass", "pass", "pass", "order", "QD"],
        **MODERN,
    )
    _, a, _ = hint_of(defended, budget=20)
    assert a.ours == 0.0 and a.phase == PLAY
    text = search_text(a)
    assert text.startswith("After it, the makers, the other side, take three tricks or more in")
    assert f"your side euchres them in {1 - a.makes:.0%}." in text
    # In the bidding, who makes the trump after the choice, shares of the same deals.
    _, a, _ = hint_of(position({B: "9S TC QD KS 9D"}, "9H", **MODERN), budget=20)
    text = search_text(a)
    assert text.startswith(f"After it, your side makes the trump in {a.ours:.0%} of {a.worlds}")
    assert f"the other side in {1 - a.ours - a.passed:.0%}" in text
