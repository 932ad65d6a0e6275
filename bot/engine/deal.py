"""One four-handed deal as a state machine: the deal, making the trump, the play, the result.

The phases follow RULES.md §4-§5 (S.74-S.101, J.5-J.9):

    joker_suit     the Joker was turned: the dealer names the suit it stands for (H)
    round_one      from the eldest: pass, order up / assist / take up, alone or not
    partner_alone  the maker's partner may take it alone ("I take it from you", S.94)
    discard        the dealer takes the turn-up and discards (not the turn-up under S.88)
    round_two      from the eldest: name a suit other than the turned-down one, or pass
    defend_alone   an adversary may defend alone against a lone hand (option)
    play           five tricks
    over           played out, or passed out twice

Actions are the codes of `bot.engine.actions`: `pass`, `order`, `order:alone`, `call:H`,
`call:H:alone`, `alone`, `defend`, and a card code (`JH`) to discard or play. `legal_actions()` lists what the seat to act may do; `apply()` does one action or
raises `IllegalAction` with a reason a player can read.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

# The four-handed game's code words, read from here as before (`X as X`: re-exported).
from bot.engine.actions import ALONE as ALONE
from bot.engine.actions import CALL as CALL
from bot.engine.actions import DEFEND as DEFEND
from bot.engine.actions import HIDDEN_DISCARD, call, is_declaration, read_call
from bot.engine.actions import ORDER as ORDER
from bot.engine.actions import ORDER_ALONE as ORDER_ALONE
from bot.engine.actions import PASS as PASS
from bot.engine.cards import (
    JOKER,
    SUIT_NAMES,
    SUITS,
    Card,
    Suit,
    make_pack,
    parse_card,
    sort_hand,
)
from bot.engine.errors import CardError, IllegalAction
from bot.engine.rules import LEFT_OF_LONER, Options
from bot.engine.scoring import PASSED, hand_outcome, hand_points
from bot.engine.tricks import TrickPlay

SEATS = 4
_ALL_SEATS = (0, 1, 2, 3)
HAND_SIZE = 5

JOKER_SUIT = "joker_suit"
ROUND_ONE = "round_one"
PARTNER_ALONE = "partner_alone"
DISCARD = "discard"
ROUND_TWO = "round_two"
DEFEND_ALONE = "defend_alone"
PLAY = "play"
OVER = "over"
# The parts of a deal that take a card; every other one before OVER takes a declaration.
CARD_PHASES = frozenset({DISCARD, PLAY})

_CALLS = {s: call(s) for s in SUITS}
_CALLS_ALONE = {s: call(s, alone=True) for s in SUITS}
_BID_ACTIONS = (PASS, ORDER, ORDER_ALONE)
# The seats that play, by the seats sitting out (a lone hand's partner, a lone defender's).
_ACTIVE: dict[tuple[int, ...], tuple[int, ...]] = {
    out: tuple(s for s in _ALL_SEATS if s not in out)
    for out in [()]
    + [(a,) for a in _ALL_SEATS]
    + [(a, b) for a in _ALL_SEATS for b in _ALL_SEATS if a != b]
}
# Round two: by the suit turned down and whether the dealer is stuck, the actions open.
_ROUND_TWO: dict[tuple[Suit | None, bool], tuple[str, ...]] = {
    (down, stuck): tuple(
        ([] if stuck else [PASS])
        + [a for s in SUITS if s != down for a in (_CALLS[s], _CALLS_ALONE[s])]
    )
    for down in SUITS
    for stuck in (False, True)
}


def side_of(seat: int) -> int:
    """The partnership of a seat: side 0 is seats 0 and 2, side 1 is seats 1 and 3."""
    return seat & 1


def partner_of(seat: int) -> int:
    return (seat + 2) % SEATS


def round_one_word(seat: int, dealer: int) -> str:
    """What ordering the turn-up is called from this seat: order up, assist or take up (S.74-S.76)."""
    if seat == dealer:
        return "take up"
    if seat == partner_of(dealer):
        return "assist"
    return "order up"


@dataclass(frozen=True, slots=True)
class HandResult:
    """How a deal ended.

    Attributes:
        dealer: the dealer's seat.
        outcome: `passed`, `made`, `march` or `euchred`.
        maker: the seat that made the trump (None when passed out).
        trump: the trump suit.
        alone: the seat playing alone, or None.
        defender: the seat defending alone, or None.
        tricks: tricks taken by side 0 and side 1.
        points: points scored by side 0 and side 1.
    """

    dealer: int
    outcome: str
    maker: int | None = None
    trump: Suit | None = None
    alone: int | None = None
    defender: int | None = None
    tricks: tuple[int, int] = (0, 0)
    points: tuple[int, int] = (0, 0)

    @property
    def maker_side(self) -> int | None:
        return None if self.maker is None else side_of(self.maker)

    @property
    def scoring_side(self) -> int | None:
        if self.points == (0, 0):
            return None
        return 0 if self.points[0] else 1


@dataclass(frozen=True, slots=True)
class DealView:
    """What one seat (or, with `seat` None, anyone) may know of a deal.

    A public view has no hand in it at all, and no discard, so a renderer given a view
    cannot show a card it should not. `tricks` holds every finished trick as
    (winner, ((seat, card), ...)) in the order played; `trick` the one on the table.
    """

    seat: int | None
    hand: tuple[Card, ...] | None
    discard: Card | None
    dealer: int
    phase: str
    to_act: int | None
    legal: tuple[str, ...]
    turn_up: Card
    turn_up_suit: Suit | None
    turned_down: bool
    trump: Suit | None
    maker: int | None
    alone: int | None
    defender: int | None
    sitting_out: tuple[int, ...]
    declarations: tuple[tuple[int, str], ...]
    trick: tuple[tuple[int, Card], ...]
    tricks: tuple[tuple[int, tuple[tuple[int, Card], ...]], ...]
    last_trick: tuple[tuple[int, Card], ...]
    last_winner: int | None
    tricks_won: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    result: HandResult | None


def deal_hands(deck: list[Card], dealer: int) -> tuple[list[list[Card]], Card, list[Card]]:
    """Deal five each in a round of two and a round of three from the eldest, and turn one (J.5).

    Returns:
        (hands by seat, the turn-up, the rest of the pack under it).
    """
    # The k-th seat from the dealer's left gets two cards at 2k and three at 8 + 3k. Written
    # out card by card, as every playout deals: it is several times faster than slicing.
    d = deck
    by_turn = (
        [d[0], d[1], d[8], d[9], d[10]],
        [d[2], d[3], d[11], d[12], d[13]],
        [d[4], d[5], d[14], d[15], d[16]],
        [d[6], d[7], d[17], d[18], d[19]],
    )
    first, second, third, fourth = _TURN_OF_SEAT[dealer % SEATS]
    return [by_turn[first], by_turn[second], by_turn[third], by_turn[fourth]], d[20], d[21:]


# For each dealer, the turn in which each seat (0 to 3) is dealt to: the dealer's left first.
_TURN_OF_SEAT = {
    dealer: tuple((seat - dealer - 1) % SEATS for seat in range(SEATS)) for dealer in range(SEATS)
}


class Deal(TrickPlay):
    """One deal of four-handed euchre.

    Build it with `Deal.shuffled(...)` (a seeded or strong shuffle), `Deal.from_deck(...)` or
    `Deal.from_hands(...)` (fixed hands for tests and replays).

    `is_over` is True once the deal is played out or passed out. It is a plain attribute, not
    a property, because every playout of the computer players reads it once per action.
    """

    __slots__ = (
        "options",
        "dealer",
        "dealt",
        "turn_up",
        "kitty",
        "phase",
        "to_act",
        "declarations",
        "turn_up_suit",
        "maker",
        "alone",
        "defender",
        "sitting_out",
        "discarded",
        "result",
        "is_over",
        "seed",
        "deal_id",
        "_bidder",
        "_round",
    )

    def __init__(
        self,
        options: Options,
        dealer: int,
        hands: list[list[Card]],
        turn_up: Card,
        kitty: list[Card] | None = None,
    ) -> None:
        self.options = options
        self.dealer = dealer
        self.hands = hands
        # The hands as dealt, for records; four written out cost half of a map over them.
        h = hands
        self.dealt: tuple[tuple[Card, ...], ...]
        if len(h) == SEATS:
            self.dealt = (tuple(h[0]), tuple(h[1]), tuple(h[2]), tuple(h[3]))
        else:
            self.dealt = tuple(map(tuple, h))
        self.turn_up = turn_up
        self.kitty = kitty if kitty is not None else []
        self.declarations: list[tuple[int, str]] = []
        self.trump: Suit | None = None
        self.maker: int | None = None
        self.alone: int | None = None
        self.defender: int | None = None
        self.sitting_out: tuple[int, ...] = ()
        self.discarded: Card | None = None
        self.result: HandResult | None = None
        self.is_over = False
        # Where the pack order came from, when the deal can be verified (bot/engine/commitment):
        # the secret seed and the deal's identity its commitment is bound to.
        self.seed: str | None = None
        self.deal_id: str | None = None
        # The trick state before the play starts, so views need not ask which phase it is.
        self.trick, self.tricks, self.won, self.active = [], [], [0] * SEATS, ()
        self._bidder = 0  # how many have spoken in the current round
        self.to_act: int | None
        if turn_up == JOKER:
            self.turn_up_suit: Suit | None = None  # until the dealer names it
            self.phase, self.to_act = JOKER_SUIT, dealer
        else:
            self.turn_up_suit = turn_up[1]
            self.phase, self.to_act = ROUND_ONE, (dealer + 1) % SEATS
        self._round = 1

    # -- construction ---------------------------------------------------------------------

    @classmethod
    def from_deck(cls, options: Options, dealer: int, deck: Sequence[Card]) -> Deal:
        """Deal a given pack order (top card first) as J.5 deals it."""
        hands, turn_up, kitty = deal_hands(list(deck), dealer)
        return cls(options, dealer, hands, turn_up, kitty)

    @classmethod
    def shuffled(cls, options: Options, dealer: int, rng: random.Random | None = None) -> Deal:
        """Shuffle a fresh pack with `rng` (a strong system generator when None) and deal it."""
        deck = _pack(options.pack, options.joker)
        if type(rng) is random.Random and _FAST_SHUFFLE:
            _shuffle(deck, rng.getrandbits)
        else:
            (rng or _SYSTEM_RANDOM).shuffle(deck)
        hands, turn_up, kitty = deal_hands(deck, dealer)
        return cls(options, dealer, hands, turn_up, kitty)

    @classmethod
    def from_hands(
        cls,
        options: Options,
        dealer: int,
        hands: Sequence[Sequence[Card]],
        turn_up: Card,
        kitty: Sequence[Card] | None = None,
    ) -> Deal:
        """A deal of given hands and turn-up; the kitty defaults to the rest of the pack."""
        if kitty is None:
            seen = {c for h in hands for c in h} | {turn_up}
            pack = make_pack(options.lowest_rank, joker=options.joker)
            kitty = [c for c in pack if c not in seen]
        return cls(options, dealer, [list(h) for h in hands], turn_up, list(kitty))

    # -- questions ------------------------------------------------------------------------

    @property
    def eldest(self) -> int:
        return (self.dealer + 1) % SEATS

    def out_of_phase(self, action: str) -> bool:
        """Whether `action` is of a kind this part of the deal does not take: a declaration
        (`pass`, `call:H`) once the discard or the play has begun, or a card while trump is
        still being made (the bidding, the Joker's suit, a lone hand's choices). Such an action
        is refused whoever makes it, turn or no turn: a front end says which part of the deal
        it is rather than "not your turn" or "unknown card". Whether an action of the right
        kind is legal is `legal_actions`'s to say."""
        phase = self.phase
        if phase == OVER:
            return False
        return is_declaration(action) == (phase in CARD_PHASES)

    def legal_actions(self) -> Sequence[str]:
        """Every action the seat to act may take now (empty when the deal is over)."""
        phase = self.phase
        if phase == PLAY:
            return self._legal  # kept by play_card: see TrickPlay.legal_cards
        if phase == ROUND_ONE:
            return _BID_ACTIONS
        if phase == DISCARD:
            hand = self.hands[self.dealer]
            if self.options.discard_turn_up:
                return tuple(hand)
            return tuple(filter(self.turn_up.__ne__, hand))  # every card but the turn-up
        if phase == PARTNER_ALONE:
            return (ALONE, PASS)
        if phase == ROUND_TWO:
            return _ROUND_TWO[self.turn_up_suit, self._must_name()]
        if phase == DEFEND_ALONE:
            return (DEFEND, PASS)
        if phase == JOKER_SUIT:
            return tuple(_CALLS[s] for s in SUITS)
        return ()

    def _must_name(self) -> bool:
        return self.options.stick_the_dealer and self.to_act == self.dealer

    # -- acting ---------------------------------------------------------------------------

    def apply(self, action: str, seat: int | None = None) -> None:
        """Take one action for the seat to act (checked against `seat` when given).

        Raises:
            IllegalAction: the action is not open to that seat now; the message says why.
        """
        phase = self.phase
        actor = self.to_act
        if actor is None:
            raise IllegalAction("this deal is over")
        if seat is not None and seat != actor:
            raise IllegalAction("it is not your turn")
        if phase == PLAY:
            try:
                self.play_card(action)
            except IllegalAction:
                # Only now see whether it is a card written another way (`jh`, `10D`):
                # a playout always passes a code from legal_actions(), and pays nothing here.
                card = _card_or_refuse(action, "the bidding is over, so play a card")
                if card == action:
                    raise
                self.play_card(card)
            if self.to_play is None:
                self._finish()
            else:
                self.to_act = self.to_play
        elif phase == ROUND_ONE:
            self._round_one(action, actor)
        elif phase == DISCARD:
            self._discard(action)
        elif phase == PARTNER_ALONE:
            self._partner_alone(action, actor)
        elif phase == ROUND_TWO:
            self._round_two(action, actor)
        elif phase == DEFEND_ALONE:
            self._defend_alone(action, actor)
        elif phase == JOKER_SUIT:
            self._joker_suit(action)
        else:
            raise IllegalAction("this deal is over")

    def _round_one(self, action: str, seat: int) -> None:
        if action not in _BID_ACTIONS:
            word = round_one_word(seat, self.dealer)
            raise IllegalAction(
                _refusal(
                    action,
                    f"in the first round you pass or {word} the turn-up, alone or not; "
                    "another suit may be named once all four have passed",
                )
            )
        self.declarations.append((seat, action))
        if action == PASS:
            self._bidder += 1
            if self._bidder == SEATS:
                # Turned down (S.77): the same players now may name another suit.
                self.phase, self._round, self._bidder = ROUND_TWO, 2, 0
                self.to_act = self.eldest
            else:
                self.to_act = (seat + 1) % SEATS
            return
        suit = self.turn_up_suit
        assert suit is not None  # named before round one when the Joker is turned
        self._make(seat, suit, action == ORDER_ALONE)

    def _round_two(self, action: str, seat: int) -> None:
        if action == PASS:
            if self._must_name():
                raise IllegalAction(
                    "the dealer cannot pass now: with stick the dealer, the dealer must name a trump"
                )
            self.declarations.append((seat, PASS))
            self._bidder += 1
            if self._bidder == SEATS:
                self._finish()  # all passed twice: the deal is at an end (S.77)
            else:
                self.to_act = (seat + 1) % SEATS
            return
        named = read_call(action)
        if named is None:
            down = SUIT_NAMES[self.turn_up_suit] if self.turn_up_suit else "the turn-up"
            if self._must_name():
                what = f"{down} was turned down, and the dealer must name another suit"
            else:
                what = f"{down} was turned down, so name another suit, alone or not, or pass"
            raise IllegalAction(_refusal(action, what))
        suit, alone = named
        if suit == self.turn_up_suit:
            # S.78, J.6: naming the suit turned down is a pass.
            if self._must_name():
                raise IllegalAction(
                    f"{SUIT_NAMES[suit]} was turned down: the dealer must name another suit"
                )
            self._round_two(PASS, seat)
            return
        self.declarations.append((seat, _CALLS_ALONE[suit] if alone else _CALLS[suit]))
        self._make(seat, suit, alone)

    def _make(self, seat: int, suit: Suit, alone: bool) -> None:
        self.maker, self.trump = seat, suit
        if alone:
            self.alone = seat
        partner = (seat + 2) % SEATS
        # The partner may take it alone only if he has not yet spoken at this trump (S.93,
        # S.99): that is, he sits later than the maker in the order of speaking.
        order = (partner - self.dealer - 1) % SEATS
        if self.options.partner_alone and order > self._bidder:
            self.phase, self.to_act = PARTNER_ALONE, partner
            return
        self._after_partner()

    def _partner_alone(self, action: str, seat: int) -> None:
        if action not in (ALONE, PASS):
            raise IllegalAction("take it alone, or pass and play with your partner")
        self.declarations.append((seat, action))
        if action == ALONE:
            self.alone = seat
        self._after_partner()

    def _after_partner(self) -> None:
        if self.alone is not None:
            self.sitting_out = ((self.alone + 2) % SEATS,)  # the lone player's partner
        # In round one the dealer takes up the turn-up and discards, unless he sits out.
        if self._round == 1 and self.dealer not in self.sitting_out:
            self.hands[self.dealer].append(self.turn_up)
            self.phase, self.to_act = DISCARD, self.dealer
            return
        self._after_discard()

    def _discard(self, action: str) -> None:
        hand = self.hands[self.dealer]
        card = action
        if card not in hand:
            # The card written another way (`jh`, `10D`)?
            card = _card_or_refuse(action, "you discard a card now")
            if card not in hand:
                raise IllegalAction("you do not hold that card")
        if card == self.turn_up and not self.options.discard_turn_up:
            raise IllegalAction("the turn-up cannot be discarded (S.88)")
        hand.remove(card)
        self.discarded = card
        self.kitty.append(card)
        self.declarations.append((self.dealer, card))
        self._after_discard()

    def _after_discard(self) -> None:
        if self.alone is not None and self.options.defend_alone:
            self.phase, self.to_act = DEFEND_ALONE, self._defenders()[0]
            return
        self._start_play()

    def _defenders(self) -> tuple[int, int]:
        """The lone hand's adversaries in the order they speak, from the dealer's left."""
        alone = self.alone
        assert alone is not None  # only asked once a lone hand is declared
        seats = [(self.dealer + i) % SEATS for i in range(1, SEATS + 1)]
        first, second = (s for s in seats if side_of(s) != side_of(alone))
        return first, second

    def _defend_alone(self, action: str, seat: int) -> None:
        if action not in (DEFEND, PASS):
            raise IllegalAction("defend alone, or pass")
        self.declarations.append((seat, action))
        if action == DEFEND:
            self.defender = seat
            self.sitting_out = (*self.sitting_out, partner_of(seat))
            self._start_play()
        elif seat == self._defenders()[0]:
            self.to_act = self._defenders()[1]
        else:
            self._start_play()

    def _joker_suit(self, action: str) -> None:
        named = read_call(action)
        if named is None:
            # The dealer may not pass the Joker (H): a suit is the only answer.
            raise IllegalAction(
                _refusal(
                    action, "the Joker is turned up, so the dealer names the suit it stands for"
                )
            )
        suit, alone = named
        if alone:
            raise IllegalAction("name the suit the Joker stands for; alone is declared later")
        self.declarations.append((self.dealer, _CALLS[suit]))
        self.turn_up_suit = suit
        self.phase, self.to_act = ROUND_ONE, self.eldest

    def _start_play(self) -> None:
        out = self.sitting_out
        active = _ACTIVE[out]
        if self.alone is not None and self.options.loner_lead == LEFT_OF_LONER:
            leader = (self.alone + 1) % SEATS
        else:
            leader = (self.dealer + 1) % SEATS
        while leader in out:
            leader = (leader + 1) % SEATS
        self.start_tricks(self.trump, active, leader)
        self.phase, self.to_act = PLAY, leader

    def _finish(self) -> None:
        self.phase, self.to_act, self.is_over = OVER, None, True
        maker = self.maker
        if maker is None:
            key: tuple[Any, ...] = (self.dealer, None, None, None, None, (0, 0), (0, 0))
        else:
            won = self.won
            tricks = (won[0] + won[2], won[1] + won[3])
            maker_side = side_of(maker)
            makers_score, points = hand_points(
                self.options, tricks[maker_side], self.alone is not None, self.defender is not None
            )
            scoring = maker_side if makers_score else 1 - maker_side
            key = (
                self.dealer,
                maker,
                self.trump,
                self.alone,
                self.defender,
                tricks,
                (points, 0) if scoring == 0 else (0, points),
            )
        # Results are shared: building a frozen dataclass costs as much as a dozen actions,
        # and a result is immutable, while only a few thousand different ones exist.
        self.result = _RESULTS.get(key) or _hand_result(*key)

    # -- views ----------------------------------------------------------------------------

    def view_for(self, seat: int) -> DealView:
        """What `seat` may know: its own hand (and its own discard), and everything public."""
        return self._view(seat)

    def public_view(self) -> DealView:
        """What anyone at or around the table may know: no hand, no discard."""
        return self._view(None)

    def _view(self, seat: int | None) -> DealView:
        # The declarations are what was said before the first lead; the discard is the
        # dealer's secret, shown only in the dealer's own view.
        declarations = tuple(
            (s, HIDDEN_DISCARD)
            if s == self.dealer and a == self.discarded and seat != self.dealer
            else (s, a)
            for s, a in self.declarations
        )
        last = self.tricks[-1] if self.tricks else None
        return DealView(
            seat=seat,
            hand=tuple(sort_hand(self.hands[seat], self.trump)) if seat is not None else None,
            discard=self.discarded if seat == self.dealer else None,
            dealer=self.dealer,
            phase=self.phase,
            to_act=self.to_act,
            legal=tuple(self.legal_actions()) if seat is not None and seat == self.to_act else (),
            turn_up=self.turn_up,
            turn_up_suit=self.turn_up_suit,
            turned_down=self._round == 2,
            trump=self.trump,
            maker=self.maker,
            alone=self.alone,
            defender=self.defender,
            sitting_out=self.sitting_out,
            declarations=declarations,
            trick=tuple(self.trick),
            tricks=tuple((w, tuple(t)) for w, t in self.tricks),
            last_trick=tuple(last[1]) if last else (),
            last_winner=last[0] if last else None,
            tricks_won=tuple(self.won),
            hand_sizes=tuple(len(h) for h in self.hands),
            result=self.result,
        )

    @property
    def history(self) -> list[tuple[int, str]]:
        """Every action of the deal in order, as (seat, action): declarations, then cards."""
        plays = [play for _, trick in self.tricks for play in trick]
        return self.declarations + plays + self.trick


_RESULTS: dict[tuple[Any, ...], HandResult] = {}


def _hand_result(
    dealer: int,
    maker: int | None,
    trump: Suit | None,
    alone: int | None,
    defender: int | None,
    tricks: tuple[int, int],
    points: tuple[int, int],
) -> HandResult:
    """A new `HandResult`, kept in `_RESULTS` under its values (the outcome follows from them)."""
    outcome = PASSED if maker is None else hand_outcome(tricks[side_of(maker)])
    result = HandResult(
        dealer=dealer,
        outcome=outcome,
        maker=maker,
        trump=trump,
        alone=alone,
        defender=defender,
        tricks=tricks,
        points=points,
    )
    if len(_RESULTS) < 100_000:  # a bound, should some caller deal from odd seats
        _RESULTS[dealer, maker, trump, alone, defender, tricks, points] = result
    return result


def _card_or_refuse(action: str, what: str) -> Card:
    """The card an action names, or a refusal saying what is wanted now (`what`)."""
    if is_declaration(action):
        raise IllegalAction(_refusal(action, what))
    try:
        return parse_card(action)
    except CardError as exc:
        raise IllegalAction(str(exc)) from None


def _refusal(action: str, what: str) -> str:
    """Why an action is not open now, in the game's words: what was tried, then what is open.

    A player reads this as it is, so it never shows the action's code (`call:H`): a member
    who runs /call in the first round is told "hearts cannot be named now: ...".
    """
    return f"{_tried(action)}: {what}"


def _tried(action: str) -> str:
    """An action that is not open now, as the player would put it."""
    if action == PASS:
        return "you cannot pass now"
    if action in (ORDER, ORDER_ALONE):
        return "the turn-up cannot be ordered now"
    if action == ALONE:
        return "you cannot take it alone from your partner now"
    if action == DEFEND:
        return "there is no lone hand to defend against now"
    named = read_call(action)
    if named is not None:
        return f"{SUIT_NAMES[named[0]]} cannot be named now"
    try:
        parse_card(action)
    except CardError:
        return "that cannot be done now"
    return "no card can be played now"


_SYSTEM_RANDOM = random.SystemRandom()
_PACKS: dict[tuple[int, bool], list[Card]] = {}


def _pack(size: int, joker: bool) -> list[Card]:
    """A new list of a fresh pack of `size` cards (32 or 24) and the Joker, copied from one built once."""
    key = (size, joker)
    pack = _PACKS.get(key)
    if pack is None:
        pack = _PACKS[key] = make_pack("7" if size == 32 else "9", joker=joker)
    return pack[:]


# The steps of a Fisher-Yates shuffle of n cards, as (position, bits to draw), from the last.
_SHUFFLE_STEPS = {
    n: tuple((i, (i + 1).bit_length()) for i in range(n - 1, 0, -1)) for n in range(2, 54)
}


def _shuffle(deck: list[Any], getrandbits: Callable[[int], int]) -> None:
    """Shuffle in place exactly as `random.Random.shuffle` does, about three times faster.

    `Random.shuffle` draws each position with `_randbelow`: the bits of i + 1, drawn again
    while the number is above i. Doing the same draws inline, with the bit counts worked out
    once, saves two Python calls per card, which were a sixth of a playout's time. The draws
    are the same, so a seed deals the same hands either way (checked below at import).
    """
    for i, bits in _SHUFFLE_STEPS[len(deck)]:
        j = getrandbits(bits)
        while j > i:
            j = getrandbits(bits)
        deck[i], deck[j] = deck[j], deck[i]


def _same_as_random_shuffle() -> bool:
    """Whether `_shuffle` gives what this Python's `Random.shuffle` gives, draw for draw."""
    for size in (24, 25, 32, 33):
        for seed in range(8):
            ours, theirs = random.Random(seed), random.Random(seed)
            a, b = list(range(size)), list(range(size))
            _shuffle(a, ours.getrandbits)
            theirs.shuffle(b)
            if a != b or ours.random() != theirs.random():
                return False
    return True


# Should a later Python shuffle differently, fall back to its own shuffle, so a seed always
# deals what `Random.shuffle` deals.
_FAST_SHUFFLE = _same_as_random_shuffle()
