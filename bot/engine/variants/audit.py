"""Checks of a finished variant deal against its rules, worked out again from what happened.

Shared by the property tests and the benchmark's run of 100,000 seeded deals, so both check
the same things: every card in exactly one place; one card from each active seat in every
trick, the right winner; five tricks (none when the deal passed, fewer only at Napoleon's early
end, and then only once the bid was settled); Napoleon's chips summing to zero; set-back's
scores moving only by the amounts of the rules; French and six-handed makers never scoring
more than their bid. `refusal_problem` checks that an action not open to a seat is refused
and changes nothing; `EVERY_ACTION` is what it is tried with.
"""

from __future__ import annotations

from collections import Counter

from bot.engine import actions as act
from bot.engine.cards import SUITS, make_pack, trick_winner
from bot.engine.errors import IllegalAction
from bot.engine.variants.deal import HAND_SIZE, VariantDeal
from bot.engine.variants.rules import CHIPS, SET_BACK, SET_BACK_START

# Every action code a player might send, open somewhere or nowhere (a bid of six, a suit that
# is not one, the sixes of seven-handed Napoleon's pack): what the refusal checks try.
EVERY_ACTION: tuple[str, ...] = (
    ("pass", "order", "declare", "throw_up", "order:alone", "bid:0", "bid:6", "bid:3:X")
    + tuple(act.call(s) for s in SUITS)
    + tuple(act.bid(n) for n in range(1, 6))
    + tuple(act.bid(n, s) for n in range(1, 6) for s in SUITS)
    + tuple(make_pack("6"))
)


def _state(deal: VariantDeal) -> tuple[object, ...]:
    """What a refused action must leave as it was (copied, so later play cannot change it)."""
    return (
        deal.phase,
        deal.to_act,
        tuple(tuple(h) for h in deal.hands),
        tuple(deal.history),
        tuple(deal.kitty),
        deal.trump,
        deal.maker,
        deal.bid,
        tuple(deal.thrown),
        deal.declared,
        tuple(deal.won),
        tuple((s, c) for s, c in deal.trick),
        len(deal.tricks),
        deal.result,
    )


def refusal_problem(deal: VariantDeal, action: str, seat: int | None) -> str | None:
    """Try `action` for `seat` where it is not open (not legal now, or not his turn): what is
    wrong when it is accepted, or refused without a reason, or its refusal changes the deal."""
    before = _state(deal)
    try:
        deal.apply(action, seat)
    except IllegalAction as exc:
        if not str(exc):
            return f"{action!r} refused without a reason"
        if _state(deal) != before:
            return f"refusing {action!r} changed the deal"
        return None
    return f"{action!r} accepted from seat {seat} in {before[0]}"


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
