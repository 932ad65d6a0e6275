"""Checks of a finished variant deal against its rules, worked out again from what happened.

Shared by the property tests and the benchmark's run of 100,000 seeded deals, so both check
the same things: every card in exactly one place; one card from each active seat in every
trick, the right winner; five tricks (none when the deal passed, fewer only at Napoleon's early
end, and then only once the bid was settled); Napoleon's chips summing to zero; set-back's
scores moving only by the amounts of the rules; French and six-handed makers never scoring
more than their bid.
"""

from __future__ import annotations

from collections import Counter

from bot.engine.cards import trick_winner
from bot.engine.variants.deal import HAND_SIZE, VariantDeal
from bot.engine.variants.rules import CHIPS, SET_BACK, SET_BACK_START


def deal_problems(deal: VariantDeal) -> list[str]:
    """What is wrong with a finished deal: an empty list when nothing is."""
    problems: list[str] = []
    v = deal.variant
    result = deal.result
    if result is None:
        return ["the deal is not finished"]
    played = [card for _, trick in deal.tricks for _, card in trick]
    places = [c for hand in deal.hands for c in hand] + played + list(deal.kitty)
    if deal.turn_up is not None and deal.discarded is None:
        places.append(deal.turn_up)  # not taken up: it stays on the pack
    counts = Counter(places)
    if sorted(counts) != sorted(v.pack) or any(n != 1 for n in counts.values()):
        problems.append("the cards are not each in exactly one place")
    active = set(deal.active)
    for winner, trick in deal.tricks:
        if sorted(seat for seat, _ in trick) != sorted(active):
            problems.append("a trick without one card from each active seat")
        cards = [card for _, card in trick]
        if trick[trick_winner(cards, deal.trump)][0] != winner:
            problems.append("a trick given to the wrong seat")
    tricks = len(deal.tricks)
    if result.maker is None:
        if tricks:
            problems.append("a passed deal with tricks")
    elif result.early:
        bid = result.bid or 0
        won = deal.won[result.maker]
        if not v.early_end or tricks >= HAND_SIZE:
            problems.append("an early end where there is none")
        elif not (won >= bid or won + HAND_SIZE - tricks < bid):
            problems.append("an early end before the bid was settled")
    elif tricks != HAND_SIZE:
        problems.append(f"{tricks} tricks played, not {HAND_SIZE}")
    problems += _points_problems(deal)
    return problems


def _points_problems(deal: VariantDeal) -> list[str]:
    v = deal.variant
    result = deal.result
    assert result is not None
    points = result.points
    if result.maker is None:
        return [] if not any(points) else ["points scored in a passed deal"]
    maker = result.maker
    if v.scoring == CHIPS:
        bid = result.bid or 0
        return (
            [] if sum(points) == 0 and abs(points[maker]) >= bid else ["chips that do not balance"]
        )
    if v.scoring == SET_BACK:
        standing = deal.standing[maker] if deal.standing else SET_BACK_START
        maker_moves = {-1, -2, 2, standing, -standing}
        problems = []
        for seat, change in enumerate(points):
            no_trick = deal.won[seat] == 0 and seat not in result.thrown
            base = change - (1 if no_trick else 0)
            allowed = maker_moves if seat == maker else {0, -2}
            if base not in allowed:
                problems.append(f"seat {seat}'s score moves by {change}")
        return problems
    if result.bid is not None:
        side = v.side_of(maker)
        if points[side] > result.bid:
            return ["a maker scored more than the bid"]
    return []
