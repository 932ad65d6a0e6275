"""What the book says: the Somerset Club's "Suggestions about the play" (1888), quoted.

`SUGGESTIONS` holds the rules of thumb a coach quotes, each with its words from
`rules/somerset-club-1888-laws-of-euchre.txt` and its place there (the chapter of the
Suggestions and its page in the book's contents). `advise(k)` is a pure function of what one
seat knows: it names the suggestion that applies to the seat's decision and the actions the
suggestion favours, or None where the book is silent.

The bidding's suggestions are those the standard player follows chapter by chapter, so the
action the book favours there is the standard player's; the play's are checked here one by one.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from bot.ai.knowledge import Knowledge, side
from bot.ai.standard import (
    DEALER,
    ELDEST,
    SECOND,
    THIRD,
    Shape,
    StandardPlayer,
    at_bridge,
    lone_hand,
    mood,
)
from bot.engine.actions import ORDER, ORDER_ALONE, PASS, is_alone
from bot.engine.cards import EFFECTIVE_SUIT, JOKER, POWER, SAME_COLOUR
from bot.engine.deal import (
    DISCARD,
    PARTNER_ALONE,
    PLAY,
    ROUND_ONE,
    ROUND_TWO,
)

SOURCE = "Somerset Club laws (1888), Suggestions about the play"
RED = ("H", "D")
RED_TURNED_DOWN = "Your partner turned down a red suit: crossing the colour here makes it black."


@dataclass(frozen=True, slots=True)
class Suggestion:
    """One rule of thumb of the book.

    Attributes:
        key: a short stable name.
        title: what it is about, in a few words.
        quote: the book's words, shortened where marked with "...".
        chapter: the chapter of the Suggestions it is in.
        page: that chapter's page in the book's contents.
        asks: for a suggestion whose words say what a hand needs to make the trump (or to take
            it alone), the declaration they speak of ("to order up"): where the book favours a
            pass, the hand has less than the words ask for, and a coach says so.
    """

    key: str
    title: str
    quote: str
    chapter: str
    page: int
    asks: str = ""

    @property
    def place(self) -> str:
        """Where the words are: the book, the chapter and its page."""
        return f"{SOURCE}: {self.chapter}, p. {self.page}"


def _s(key: str, title: str, quote: str, chapter: str, page: int, asks: str = "") -> Suggestion:
    return Suggestion(key, title, quote, chapter, page, asks)


_ELDEST, _SECOND, _THIRD, _DEALER = (
    "Eldest, or First Hand",
    "Second Hand",
    "Third Hand",
    "The Dealer",
)

SUGGESTIONS: dict[str, Suggestion] = {
    s.key: s
    for s in (
        _s(
            "eldest_orders",
            "ordering up from the eldest hand",
            "When the right is not turned, order with three medium trumps or better, and some "
            "strength in suit, provided you have nothing to go to.",
            _ELDEST,
            43,
            "to order up",
        ),
        _s(
            "order_not_next",
            "passing to make it next",
            "Do not order (unless with great strength) if you can make it next.",
            _ELDEST,
            43,
        ),
        _s(
            "make_it_next",
            "the next call",
            "Make it next when you can, and do not cross the suit, unless very strong.",
            _ELDEST,
            43,
            "to make it next",
        ),
        _s(
            "lead_through_assist",
            "leading through the assisting hand",
            "If the right is not turned, lead trumps through the assisting hand.",
            _ELDEST,
            43,
        ),
        _s(
            "no_trump_to_dealer",
            "leading up to the dealer's adoption",
            "In general do not lead trumps up to the dealer's adoption.",
            _ELDEST,
            43,
        ),
        _s(
            "lead_trump_partner_made",
            "leading trumps for the maker",
            "Always lead a trump when your partner has ordered up, or made the trump.",
            _ELDEST,
            43,
        ),
        _s(
            "assist_light",
            "assisting",
            "Do not assist too light. This is the most common error in Euchre. "
            "Assist with three trumps; right and another; left and another, and outside ace.",
            _SECOND,
            46,
            "to assist",
        ),
        _s(
            "make_it_red",
            "crossing the colour",
            "If your partner turn down black, make it red if you can.",
            _SECOND,
            46,
            "to cross the colour",
        ),
        _s(
            "ruff_one_small",
            "ruffing with one small trump",
            "With one small trump, ruff as soon as you can.",
            _SECOND,
            46,
        ),
        _s(
            "third_orders",
            "ordering up from the third hand",
            "It requires a stronger hand to order or make the trump in this position than in "
            "the eldest hand ... see your way absolutely clear to three tricks before ordering "
            "the right.",
            _THIRD,
            50,
            "to order up",
        ),
        _s(
            "dealer_takes_up",
            "taking up the turn-up",
            "Take up three trumps; right and ace; right and king; right and queen; right and "
            "another, and one suit; ... two trumps and two aces.",
            _DEALER,
            52,
            "to take up",
        ),
        _s(
            "dealer_makes",
            "the dealer's call",
            "If it comes round to the dealer to make a trump, it is permissible to make it with "
            "somewhat less strength than would be required in the other three hands.",
            _DEALER,
            52,
            "to make the trump",
        ),
        _s(
            "discard_short",
            "the discard",
            "If the dealer adopts the turn-up, he should discard the lowest card of a short suit.",
            _DEALER,
            52,
        ),
        _s(
            "trump_to_assistant",
            "giving the assisting partner a trump",
            "When your partner assists, and you take the first or second trick, always give "
            "him a trump if he has not played one.",
            _DEALER,
            52,
        ),
        _s(
            "bridge",
            "the bridge",
            "If, however, the bridge is to be kept at all, it should be kept always, and in the "
            "same manner; otherwise you deceive your partner.",
            "The Bridge",
            56,
        ),
        _s(
            "light_lone",
            "a light lone hand",
            "With the score three-all, four-all, or any score in your favor, do not risk a "
            "light lone hand ... With the score four-one or four-two against you, you may take "
            "a desperate chance.",
            "Lone Hands",
            57,
        ),
        _s(
            "lone_position",
            "the place for a lone hand",
            "The eldest hand has the best position to play a lone hand, and the dealer the "
            "next best. The second and third hands have the weakest positions for lone hands ...",
            "Lone Hands",
            57,
        ),
        _s(
            "take_it_from_partner",
            "taking a lone hand from partner",
            "Should your partner declare to play alone, and you have a fair trump hand with no "
            "weakness in lay suits, it is good play to take it from him.",
            "Lone Hands",
            57,
            "to take it alone",
        ),
        _s(
            "against_lone",
            "leading against a lone hand",
            "In playing against a lone hand, you should lead from a short suit or suit of "
            "equals, if possible.",
            "Lone Hands",
            57,
        ),
    )
}


@dataclass(frozen=True, slots=True)
class Advice:
    """The book's word on one decision.

    Attributes:
        suggestion: the rule of thumb that applies.
        favours: the legal actions it recommends (at least one).
        note: how the words apply here, where they name a case other than this one (the
            book's "turn down black, make it red" after a red suit was turned down).
    """

    suggestion: Suggestion
    favours: tuple[str, ...]
    note: str = ""

    def followed_by(self, action: str) -> bool:
        """Whether `action` is one the suggestion recommends."""
        return action in self.favours

    @property
    def falls_short(self) -> bool:
        """Whether the suggestion's words say what a hand needs to make the trump (or to take
        it alone) and the book passes: the hand has less than they ask for. Its quote then
        speaks of a declaration it does not favour, and a coach says why."""
        return bool(self.suggestion.asks) and self.favours == (PASS,)


_STANDARD = StandardPlayer()


def advise(k: Knowledge, action: str | None = None) -> Advice | None:
    """The suggestion that applies to the seat's decision, or None where the book is silent.

    Args:
        k: what the seat knows (its legal actions are the decision).
        action: the action taken or considered, when grading one: a lone hand the book does
            not favour is then answered with the lone hands' chapter.
    """
    if not k.legal:
        return None
    if k.phase == PLAY:
        return _play_advice(k)
    book = _STANDARD.decide(k)
    if book not in k.legal:
        return None
    if action is not None and is_alone(action) and not is_alone(book):
        return _advice("light_lone", k, book)
    if k.phase == ROUND_ONE:
        return _round_one_advice(k, book)
    if k.phase == ROUND_TWO:
        position = k.position()
        if is_alone(book) and position in (ELDEST, DEALER):
            return _advice("lone_position", k, book)
        if position == SECOND and k.turn_up_suit in RED:
            # The book's words name a black suit turned down; the rule is to cross the colour.
            return replace(_advice("make_it_red", k, book), note=RED_TURNED_DOWN)
        key = {ELDEST: "make_it_next", SECOND: "make_it_red", THIRD: "make_it_next"}
        return _advice(key.get(position, "dealer_makes"), k, book)
    if k.phase == DISCARD:
        return _advice("discard_short", k, book)
    if k.phase == PARTNER_ALONE:
        return _advice("take_it_from_partner", k, book)
    return None


def _advice(key: str, k: Knowledge, *favours: str) -> Advice:
    return Advice(SUGGESTIONS[key], tuple(a for a in favours if a in k.legal) or (favours[0],))


def _round_one_advice(k: Knowledge, book: str) -> Advice:
    position = k.position()
    # A lone hand the book plays from one of the best places for it: the words on making the
    # trump say nothing of playing alone. (The second and third hands keep their chapters'
    # words, which ask for more strength there.)
    if is_alone(book) and position == DEALER:
        return _advice("lone_position", k, book)
    if position == SECOND:
        return _advice("assist_light", k, book)
    if position == THIRD:
        return _advice("third_orders", k, book)
    if position == DEALER:
        return _advice("dealer_takes_up", k, book)
    # The eldest: the bridge, the next call, or the plain order.
    trump = k.turn_up_suit
    assert trump is not None  # named before round one
    if at_bridge(k) and book in (ORDER, ORDER_ALONE):
        return _advice("bridge", k, book)
    if book == PASS:
        shape = Shape(list(k.hand), SAME_COLOUR[trump])
        if shape.n >= 2 and (shape.bowers >= 1 or shape.ace):
            return _advice("order_not_next", k, PASS)
    if book == ORDER_ALONE or (ORDER_ALONE in k.legal and book == ORDER):
        s = Shape(list(k.hand), trump)
        if not lone_hand(s, mood(k), ELDEST):
            return _advice("eldest_orders", k, ORDER)
    if is_alone(book):
        return _advice("lone_position", k, book)
    return _advice("eldest_orders", k, book)


def _play_advice(k: Knowledge) -> Advice | None:
    trump = k.trump
    assert trump is not None  # made before the play
    eff, power = EFFECTIVE_SUIT[trump], POWER[trump]
    legal = list(k.legal)
    trumps = [c for c in legal if eff[c] == trump]
    lay = [c for c in legal if eff[c] != trump]
    if not k.trick:
        return _lead_advice(k, trumps, lay)
    led = eff[k.trick[0][1]]
    winner_seat = max(k.trick, key=lambda sc: _rank(sc[1], trump, led))[0]
    if (
        led != trump
        and lay
        and all(eff[c] != led for c in k.hand)
        and len([c for c in k.hand if eff[c] == trump]) == 1
        and trumps
        and power[trumps[0]] < power["Q" + trump]
        and side(winner_seat) != k.side
    ):
        return _advice("ruff_one_small", k, *trumps)
    return None


def _rank(card: str, trump: str, led: str) -> int:
    eff = EFFECTIVE_SUIT[trump]
    if eff[card] == trump:
        return 100 + POWER[trump][card]
    return POWER[trump][card] if eff[card] == led else -1


def _lead_advice(k: Knowledge, trumps: list[str], lay: list[str]) -> Advice | None:
    trump = k.trump
    assert trump is not None and k.maker is not None  # made before the play
    eff = EFFECTIVE_SUIT[trump]
    first_lead = not k.tricks
    trump_led = any(eff[t[0][1]] == trump for _, t in k.tricks)
    if k.alone is not None and side(k.alone) != k.side:
        return _advice("against_lone", k, _STANDARD.decide(k))
    assisted = k.maker_action == ORDER and k.maker == (k.dealer + 2) % 4
    if (
        k.seat == k.dealer
        and assisted
        and trumps
        and len(k.tricks) in (1, 2)
        and not any(eff[c] == trump for s, t in k.tricks for s2, c in t if s2 == k.partner)
    ):
        return _advice("trump_to_assistant", k, *trumps)
    if k.maker == k.partner and trumps and not trump_led:
        return _advice("lead_trump_partner_made", k, *trumps)
    if not first_lead or k.position() != ELDEST or k.turned_down:
        return None
    right_turned = k.turn_up in ("J" + trump, JOKER)
    if assisted and trumps and not right_turned:
        return _advice("lead_through_assist", k, *trumps)
    if k.maker == k.dealer and not assisted and lay:
        return _advice("no_trump_to_dealer", k, *lay)
    return None


__all__ = ["SUGGESTIONS", "Advice", "Suggestion", "advise"]
