"""Small helpers that build fixed deals and drive them, so scenario tests read like the table.

Hands are written as players write them: `hands={1: "JH JD AH KH QH"}`, `turn_up="TH"`. Seats
not given get the rest of the pack in pack order, so a test names only the hands it is about.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence

from bot.engine.cards import Card, make_pack, parse_card
from bot.engine.deal import DISCARD, PARTNER_ALONE, PLAY, ROUND_ONE, ROUND_TWO, Deal, HandResult
from bot.engine.match import Match
from bot.engine.rules import Options, build_options

Chooser = Callable[[Deal], str]


def cards(text: str) -> list[Card]:
    """Cards from a readable string: `"JH jd 10H A♥"` -> `["JH", "JD", "TH", "AH"]`."""
    return [parse_card(word) for word in text.replace(",", " ").split()]


def make_deal(
    hands: Mapping[int, str] | Sequence[str],
    turn_up: str,
    dealer: int = 0,
    opts: Options | None = None,
    preset: str = "somerset",
    **overrides: object,
) -> Deal:
    """A deal of fixed hands; seats left out get the rest of the pack, five each, in pack order.

    Args:
        hands: five cards for some or all seats, by seat (a mapping) or for seats 0-3 (a list).
        turn_up: the card turned up.
        dealer: the dealer's seat.
        opts: the options; built from `preset` and `overrides` when None.
    """
    opts = opts or build_options(preset, **overrides)
    given = dict(enumerate(hands)) if not isinstance(hands, Mapping) else dict(hands)
    fixed = {seat: cards(text) for seat, text in given.items()}
    up = parse_card(turn_up)
    used = {c for hand in fixed.values() for c in hand} | {up}
    assert len(used) == sum(len(h) for h in fixed.values()) + 1, "a card is given twice"
    rest = [c for c in make_pack(opts.lowest_rank, joker=opts.joker) if c not in used]
    full: list[list[Card]] = []
    for seat in range(4):
        if seat in fixed:
            assert len(fixed[seat]) == 5, f"seat {seat} must hold five cards"
            full.append(fixed[seat])
        else:
            full.append(rest[:5])
            rest = rest[5:]
    return Deal.from_hands(opts, dealer, full, up, rest)


# In `act`, stands for the first legal action at that moment (a discard nobody cares about).
FIRST = "*first*"


def act(deal: Deal | Match, *actions: str) -> None:
    """Apply each action for the seat whose turn it is (checked against that seat).

    `FIRST` stands for the first of the legal actions when its turn comes.
    """
    for action in actions:
        if action == FIRST:
            action = deal.legal_actions()[0]
        deal.apply(action, deal.to_act)


def first_legal(deal: Deal) -> str:
    """A chooser: the first legal action (for cards, the first the seat may play)."""
    return deal.legal_actions()[0]


def play_out(deal: Deal, choose: Chooser = first_legal) -> HandResult:
    """Play the deal to its end, every seat taking the action `choose` picks."""
    while not deal.is_over:
        deal.apply(choose(deal), deal.to_act)
    assert deal.result is not None
    return deal.result


def random_chooser(rng: random.Random) -> Chooser:
    """A chooser that picks uniformly among the legal actions."""
    return lambda deal: rng.choice(list(deal.legal_actions()))


# ---------------------------------------------------------------------------------------------
# Scripted matches: a deal factory whose deals end as a test says ("side 0 marches, side 1
# makes one point alone"), so a test can check what the match makes of them.

MARCH, LONE_MARCH, LONE_ONE = "march", "lone march", "lone one"
# Points each scripted hand gives under the presets' scoring.
SCRIPT_POINTS = {MARCH: 2, LONE_MARCH: 4, LONE_ONE: 1}

# Five top hearts march whatever is played: nobody else holds a card that beats any of them.
_STRONG = "JH JD AH KH QH"
# Three top hearts win three tricks and the nines can win none: the adversaries on the maker's
# left and right hold every higher spade and club and no trump, and the maker's partner sits out.
_THREE = "JH JD AH 9S 9C"
_LEFT_ADVERSARY = "AS KS QS JS TS"
_RIGHT_ADVERSARY = "AC KC QC JC TC"
_TURN_UP = "TH"

Step = tuple[int, str] | None


def strong_seat(dealer: int, side: int) -> int:
    """The first seat of `side` to speak in round one: the eldest or the dealer's partner."""
    eldest = (dealer + 1) % 4
    return eldest if eldest % 2 == side else (dealer + 2) % 4


class Script:
    """A deal factory and driver for a match whose hands are decided in advance.

    Each entry of `plan` is one deal: `(side, MARCH)` for a partnership march by `side` (2),
    `(side, LONE_MARCH)` for a lone march (4), `(side, LONE_ONE)` for a lone hand taking three
    tricks (1), or None for a deal that everybody passes twice. After the plan, deals are
    passed out.
    """

    def __init__(self, plan: Iterable[Step]) -> None:
        self.plan = list(plan)
        self.used = 0
        self.dealers: list[int] = []

    def factory(self, opts: Options, dealer: int) -> Deal:
        # Deal k of a match is made (by the match) as deal k - 1 ends: count the deals made.
        index = len(self.dealers)
        self.dealers.append(dealer)
        step = self.plan[index] if index < len(self.plan) else None
        if step is None:
            return make_deal({}, _TURN_UP, dealer=dealer, opts=opts)
        side, kind = step
        seat = strong_seat(dealer, side)
        if kind == LONE_ONE:
            hands = {
                seat: _THREE,
                (seat + 1) % 4: _LEFT_ADVERSARY,
                (seat + 3) % 4: _RIGHT_ADVERSARY,
            }
        else:
            hands = {seat: _STRONG}
        return make_deal(hands, _TURN_UP, dealer=dealer, opts=opts)

    def _step(self) -> Step:
        return self.plan[self.used] if self.used < len(self.plan) else None

    def choose(self, deal: Deal) -> str:
        step = self._step()
        if deal.phase == ROUND_ONE and step is not None:
            if deal.to_act == strong_seat(deal.dealer, step[0]):
                return "order" if step[1] == MARCH else "order:alone"
            return "pass"
        if deal.phase in (ROUND_ONE, ROUND_TWO, PARTNER_ALONE):
            return "pass"
        if deal.phase in (DISCARD, PLAY):
            return deal.legal_actions()[0]
        raise AssertionError(f"the script has no answer in phase {deal.phase}")

    def play(self, match: Match, deals: int | None = None) -> list[HandResult]:
        """Play `deals` deals of the plan (all that are left when None) through `match`."""
        results: list[HandResult] = []
        stop = len(self.plan) if deals is None else self.used + deals
        while self.used < stop and not match.over:
            step = self._step()
            result = match.apply(self.choose(match.deal), match.to_act)
            if result is None:
                continue
            if step is None:
                assert result.outcome == "passed", result
            else:
                side, kind = step
                assert result.maker_side == side and result.scoring_side == side, result
                assert result.points[side] == SCRIPT_POINTS[kind], result
            results.append(result)
            self.used += 1
        return results


def scripted_match(
    plan: Iterable[Step],
    preset: str = "somerset",
    first_dealer: int = 0,
    **overrides: object,
) -> tuple[Match, Script]:
    """A match over `plan` (see `Script`), not yet played."""
    script = Script(plan)
    match = Match(build_options(preset, **overrides), first_dealer, deal_factory=script.factory)
    return match, script
