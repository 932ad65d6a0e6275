"""One deal of any variant as a state machine over the shared trick core.

The phases, in the order a deal may pass through them (RULES.md §7-§8):

    round_one   the turn-up auction: from the eldest, order it up (take it up) or pass
    discard     the dealer takes the turn-up and puts out one of his own cards (H)
    round_two   from the eldest, name a suit other than the one turned down, or pass
    bidding     one bid each from the eldest, the dealer last, each above every earlier bid;
                five ends it (French, Napoleon: tricks; six-handed: tricks and a suit)
    trump       the highest bidder names the trump (French, Napoleon)
    declare     set-back option: the maker may declare all five
    throw_up    set-back: each other player, from the eldest, may throw up his hand
    play        the tricks, on `TrickPlay`; Napoleon's deal may end before the fifth
    over        played out, ended early, or passed

Actions are the codes of `bot.engine.actions`. `legal_actions()` lists what the seat to act may
do; `apply(action, seat)` takes one or raises `IllegalAction` with a reason a player can read,
changing nothing. Seats are numbers from 0; the eldest sits at the dealer's left.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from bot.engine import actions as act
from bot.engine.cards import SUIT_NAMES, Card, Suit, sort_hand
from bot.engine.deal import _FAST_SHUFFLE, _SYSTEM_RANDOM, _shuffle
from bot.engine.errors import IllegalAction
from bot.engine.tricks import TrickPlay
from bot.engine.variants.rules import BID, BID_SUIT, SET_BACK, TURN_UP, Variant
from bot.engine.variants.scoring import VariantResult, score_deal

ROUND_ONE = "round_one"
DISCARD = "discard"
ROUND_TWO = "round_two"
BIDDING = "bidding"
TRUMP = "trump"
DECLARE = "declare"
THROW_UP = "throw_up"
PLAY = "play"
OVER = "over"

HAND_SIZE = 5


def deal_order(players: int, dealer: int, right: bool) -> tuple[int, ...]:
    """The seats in the order the cards go round: from the dealer's left (or right), him last."""
    step = -1 if right else 1
    return tuple((dealer + step * i) % players for i in range(1, players + 1))


_DEAL_INDEX: dict[tuple[int, int, bool], tuple[tuple[int, ...], ...]] = {}


def _deal_index(players: int, dealer: int, right: bool) -> tuple[tuple[int, ...], ...]:
    """For each seat, the positions in the pack of its five cards: two each round, then three."""
    key = (players, dealer, right)
    index = _DEAL_INDEX.get(key)
    if index is None:
        by_seat: list[list[int]] = [[] for _ in range(players)]
        for turn, seat in enumerate(deal_order(players, dealer, right)):
            by_seat[seat] += [2 * turn, 2 * turn + 1]
            by_seat[seat] += [2 * players + 3 * turn + k for k in range(3)]
        index = _DEAL_INDEX[key] = tuple(tuple(s) for s in by_seat)
    return index


def deal_cards(
    variant: Variant, deck: Sequence[Card], dealer: int
) -> tuple[list[list[Card]], Card | None, list[Card]]:
    """Deal five each, two then three, in the variant's direction, and turn one where it turns.

    Returns:
        (hands by seat, the turn-up or None, the rest of the pack).
    """
    n = variant.players
    hands = [[deck[i] for i in seat] for seat in _deal_index(n, dealer, variant.deal_right)]
    dealt = HAND_SIZE * n
    if variant.auction == TURN_UP:
        return hands, deck[dealt], list(deck[dealt + 1 :])
    return hands, None, list(deck[dealt:])


@dataclass(frozen=True, slots=True)
class VariantDealView:
    """What one seat (or, with `seat` None, anyone) may know of a deal.

    A public view holds no hand and no discard. Scores by side or by seat are the match's; here
    `tricks_won` is by seat. `bid` is the highest bid so far (the maker's, once made).
    """

    seat: int | None
    hand: tuple[Card, ...] | None
    discard: Card | None
    players: int
    partners: bool
    dealer: int
    phase: str
    to_act: int | None
    legal: tuple[str, ...]
    turn_up: Card | None
    turn_up_suit: Suit | None
    turned_down: bool
    trump: Suit | None
    maker: int | None
    bid: int | None
    declared: bool
    thrown: tuple[int, ...]
    declarations: tuple[tuple[int, str], ...]
    trick: tuple[tuple[int, Card], ...]
    tricks: tuple[tuple[int, tuple[tuple[int, Card], ...]], ...]
    tricks_won: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    result: VariantResult | None


class VariantDeal(TrickPlay):
    """One deal of a variant. Build it with `shuffled`, `from_deck` or `from_hands`.

    `is_over` is a plain attribute for the playout loop. `standing` is each side's or player's
    score before the deal: set-back's declaration of all five is scored from it.
    """

    __slots__ = (
        "variant",
        "dealer",
        "dealt",
        "turn_up",
        "kitty",
        "phase",
        "to_act",
        "declarations",
        "maker",
        "bid",
        "turn_up_suit",
        "turned_down",
        "discarded",
        "thrown",
        "declared",
        "ended_early",
        "standing",
        "result",
        "is_over",
        "_order",
        "_spoken",
        "_high_bidder",
        "_high_suit",
        "_early_end",
        "seed",
        "deal_id",
    )

    def __init__(
        self,
        variant: Variant,
        dealer: int,
        hands: list[list[Card]],
        turn_up: Card | None,
        kitty: list[Card],
    ) -> None:
        n = variant.players
        self.variant = variant
        self.dealer = dealer
        self.hands = hands
        self.dealt = tuple(tuple(h) for h in hands)
        self.turn_up = turn_up
        self.kitty = kitty
        self.declarations: list[tuple[int, str]] = []
        self.trump: Suit | None = None
        self.maker: int | None = None
        self.bid: int | None = None
        self.turn_up_suit: Suit | None = turn_up[1] if turn_up else None
        self.turned_down = False
        self.discarded: Card | None = None
        self.thrown: list[int] = []
        self.declared = False
        self.ended_early = False
        self.standing: tuple[int, ...] | None = None
        self.result: VariantResult | None = None
        self.is_over = False
        # A deal anyone can verify (bot/engine/commitment.py): its secret seed and identity.
        self.seed: str | None = None
        self.deal_id: str | None = None
        self.trick, self.tricks, self.won, self.active = [], [], [0] * n, ()
        # The order of speaking: from the eldest (the dealer's left), the dealer last.
        self._order = deal_order(n, dealer, False)
        self._spoken = 0
        self._high_bidder: int | None = None
        self._high_suit: Suit | None = None
        self._early_end = variant.early_end
        self.phase = ROUND_ONE if variant.auction == TURN_UP else BIDDING
        self.to_act: int | None = self._order[0]

    # -- construction ---------------------------------------------------------------------

    @classmethod
    def from_deck(cls, variant: Variant, dealer: int, deck: Sequence[Card]) -> VariantDeal:
        """Deal a given pack order (top card first)."""
        hands, turn_up, kitty = deal_cards(variant, deck, dealer)
        return cls(variant, dealer, hands, turn_up, kitty)

    @classmethod
    def shuffled(
        cls, variant: Variant, dealer: int, rng: random.Random | None = None
    ) -> VariantDeal:
        """Shuffle the variant's pack with `rng` (a strong system generator when None) and deal."""
        deck = list(variant.pack)
        if type(rng) is random.Random and _FAST_SHUFFLE:
            _shuffle(deck, rng.getrandbits)  # the same draws as Random.shuffle, faster
        else:
            (rng or _SYSTEM_RANDOM).shuffle(deck)
        return cls.from_deck(variant, dealer, deck)

    @classmethod
    def from_hands(
        cls,
        variant: Variant,
        dealer: int,
        hands: Sequence[Sequence[Card]],
        turn_up: Card | None = None,
        kitty: Sequence[Card] | None = None,
    ) -> VariantDeal:
        """A deal of given hands (and turn-up); the kitty defaults to the rest of the pack."""
        if kitty is None:
            seen = {c for h in hands for c in h} | {turn_up}
            kitty = [c for c in variant.pack if c not in seen]
        return cls(variant, dealer, [list(h) for h in hands], turn_up, list(kitty))

    # -- questions ------------------------------------------------------------------------

    @property
    def eldest(self) -> int:
        return self._order[0]

    @property
    def players(self) -> int:
        return self.variant.players

    @property
    def unopposed(self) -> bool:
        """Set-back: every other player threw up his hand (K), so the maker plays the deal out
        alone, and every trick is his whatever he plays."""
        return self.phase == PLAY and len(self.active) == 1

    def adversaries(self) -> tuple[int, ...]:
        """The seats playing against the maker: the other partnership, or everyone else."""
        maker = self.maker
        if maker is None:
            return ()
        v = self.variant
        if v.partners:
            return tuple(s for s in range(v.players) if (s & 1) != (maker & 1))
        return tuple(s for s in range(v.players) if s != maker)

    def legal_actions(self) -> Sequence[str]:
        """Every action the seat to act may take now (empty when the deal is over)."""
        phase = self.phase
        if phase == PLAY:
            return self._legal  # kept by play_card: see TrickPlay.legal_cards
        if phase == ROUND_ONE:
            return act.ROUND_ONE
        if phase == BIDDING:
            high = self.bid or 0
            if self.variant.auction == BID_SUIT:
                return act.SUIT_BIDS_ABOVE[high]
            return act.BIDS_ABOVE[high]
        if phase == DISCARD:
            return tuple(c for c in self.hands[self.dealer] if c != self.turn_up)
        if phase == ROUND_TWO:
            assert self.turn_up_suit is not None
            return act.ROUND_TWO[self.turn_up_suit]
        if phase == TRUMP:
            return act.CALLS
        if phase == DECLARE:
            return act.DECLARING
        if phase == THROW_UP:
            return act.THROWING
        return ()

    # -- acting ---------------------------------------------------------------------------

    def apply(self, action: str, seat: int | None = None) -> None:
        """Take one action for the seat to act (checked against `seat` when given).

        Raises:
            IllegalAction: the action is not open to that seat now; the message says why, and
                the deal is as it was.
        """
        actor = self.to_act
        if actor is None:
            raise IllegalAction(self._over_reason())
        if seat is not None and seat != actor:
            raise IllegalAction("it is not your turn")
        phase = self.phase
        if phase == PLAY:
            # The hot path of a playout: a code from legal_actions() goes straight to the play.
            if action not in self._legal:
                action = self._card_or_refuse(action)
            self.play_card(action)
            if self.to_play is None:
                self._finish()
            elif self._early_end and not self.trick and self._bid_settled():
                self.ended_early = True
                self._finish()
            else:
                self.to_act = self.to_play
        elif phase == ROUND_ONE:
            self._round_one(action, actor)
        elif phase == BIDDING:
            self._bidding(action, actor)
        elif phase == DISCARD:
            self._discard(action)
        elif phase == ROUND_TWO:
            self._round_two(action, actor)
        elif phase == TRUMP:
            self._name_trump(action, actor)
        elif phase == DECLARE:
            self._declare(action, actor)
        else:
            self._throw_up(action, actor)

    def _over_reason(self) -> str:
        if self.ended_early and self.bid is not None and self.maker is not None:
            made = self.won[self.maker] >= self.bid
            how = "is made" if made else "can no longer be made"
            return f"this deal is over: the bid of {act.NUMBER_WORDS[self.bid]} {how}"
        return "this deal is over"

    def _card_or_refuse(self, action: str) -> Card:
        """A card the seat to play may play, read from `action`; else the reason it may not."""
        parsed = act.parse(action)
        if parsed.kind == act.KIND_THROW_UP:
            raise IllegalAction(
                "a hand may be thrown up only after the trump is made, before the first lead"
            )
        if parsed.kind != act.KIND_CARD or parsed.card is None:
            raise IllegalAction("the tricks are being played: play a card")
        if parsed.card not in self._legal:
            raise self.refusal(parsed.card)
        return parsed.card  # the card written another way (`jh`, `10D`)

    def _bid_settled(self) -> bool:
        """After a trick: has the maker made his bid, or can he no longer make it?"""
        maker, bid = self.maker, self.bid
        assert maker is not None and bid is not None  # a bidding variant's play has both
        won = self.won[maker]
        return won >= bid or won + len(self.hands[maker]) < bid

    def _round_one(self, action: str, seat: int) -> None:
        kind = act.parse(action).kind
        if kind not in (act.KIND_PASS, act.KIND_ORDER):
            raise IllegalAction(_refusal(action, "pass, or order up the turn-up"))
        self.declarations.append((seat, kind))
        if kind == act.KIND_PASS:
            self._spoken += 1
            if self._spoken == self.variant.players:
                # Turned down: the same players may now name another suit (H).
                self.phase, self.turned_down, self._spoken = ROUND_TWO, True, 0
            self.to_act = self._order[self._spoken]
            return
        assert self.turn_up is not None and self.turn_up_suit is not None
        self.maker, self.trump = seat, self.turn_up_suit
        # The dealer takes the turn-up and puts out one of his own (H).
        self.hands[self.dealer].append(self.turn_up)
        self.phase, self.to_act = DISCARD, self.dealer

    def _discard(self, action: str) -> None:
        hand = self.hands[self.dealer]
        card = action if action in hand else act.parse(action).card
        if card is None:  # a pass, a bid, a suit named: the dealer is to discard
            raise IllegalAction(_refusal(action, "you put out one of your own cards first"))
        if card not in hand:
            raise IllegalAction("you do not hold that card")
        if card == self.turn_up:
            raise IllegalAction("put out one of your own cards, not the turn-up")
        hand.remove(card)
        self.discarded = card
        self.kitty.append(card)
        self.declarations.append((self.dealer, card))
        self._after_trump()

    def _round_two(self, action: str, seat: int) -> None:
        parsed = act.parse(action)
        down = self.turn_up_suit
        assert down is not None
        if parsed.kind == act.KIND_PASS:
            self.declarations.append((seat, act.PASS))
            self._spoken += 1
            if self._spoken == self.variant.players:
                self._finish()  # both (all) passed twice: the deal passes (H)
            else:
                self.to_act = self._order[self._spoken]
            return
        if parsed.kind != act.KIND_CALL or parsed.suit is None:
            raise IllegalAction(
                _refusal(action, f"name a trump other than {SUIT_NAMES[down]}, or pass")
            )
        if parsed.suit == down:
            raise IllegalAction(f"{SUIT_NAMES[down]} was turned down: name another suit, or pass")
        self.declarations.append((seat, act.call(parsed.suit)))
        self.maker, self.trump = seat, parsed.suit
        self._after_trump()

    def _bidding(self, action: str, seat: int) -> None:
        parsed = act.parse(action)
        with_suit = self.variant.auction == BID_SUIT
        if parsed.kind == act.KIND_PASS:
            self.declarations.append((seat, act.PASS))
            self._next_bidder()
            return
        if parsed.kind != act.KIND_BID or parsed.tricks is None:
            what = "a number of tricks and its trump suit" if with_suit else "a number of tricks"
            raise IllegalAction(_refusal(action, f"bid {what}, or pass"))
        tricks = parsed.tricks
        if tricks > act.MAX_BID:
            raise IllegalAction("no bid can be above five tricks")
        high = self.bid or 0
        if tricks <= high:
            raise IllegalAction(
                f"a bid must be higher than {act.NUMBER_WORDS[high]}"
                if high
                else "a bid must be of one trick at least"
            )
        if with_suit and parsed.suit is None:
            raise IllegalAction("each bid names its trump suit with the number of tricks")
        if not with_suit and parsed.suit is not None:
            raise IllegalAction(
                "a bid names no suit here: the highest bidder names the trump after the bidding"
            )
        self.declarations.append((seat, act.bid(tricks, parsed.suit)))
        self.bid, self._high_bidder, self._high_suit = tricks, seat, parsed.suit
        if tricks == act.MAX_BID:
            self._end_bidding()  # five ends it: no one may bid more
        else:
            self._next_bidder()

    def _next_bidder(self) -> None:
        self._spoken += 1
        if self._spoken == self.variant.players:
            self._end_bidding()
        else:
            self.to_act = self._order[self._spoken]

    def _end_bidding(self) -> None:
        bidder = self._high_bidder
        if bidder is None:
            self._finish()  # all passed: the deal passes (K)
            return
        self.maker = bidder
        if self.variant.auction == BID_SUIT:
            self.trump = self._high_suit
            self._after_trump()
        else:
            self.phase, self.to_act = TRUMP, bidder

    def _name_trump(self, action: str, seat: int) -> None:
        parsed = act.parse(action)
        if parsed.kind != act.KIND_CALL or parsed.suit is None:
            raise IllegalAction(_refusal(action, "you bid highest: name the trump suit"))
        self.declarations.append((seat, act.call(parsed.suit)))
        self.trump = parsed.suit
        self._after_trump()

    def _after_trump(self) -> None:
        v = self.variant
        if v.declare_all and v.scoring == SET_BACK:
            self.phase, self.to_act = DECLARE, self.maker
            return
        self._throw_ups()

    def _declare(self, action: str, seat: int) -> None:
        kind = act.parse(action).kind
        if kind not in (act.KIND_DECLARE, act.KIND_PASS):
            raise IllegalAction(_refusal(action, "declare all five, or pass"))
        self.declarations.append((seat, kind))
        self.declared = kind == act.KIND_DECLARE
        self._throw_ups()

    def _throw_ups(self) -> None:
        if not self.variant.throw_up:
            self._start_play()
            return
        self._spoken = 0
        self.phase = THROW_UP
        self._next_thrower()

    def _next_thrower(self) -> None:
        """The next player after the last to speak, from the eldest, who is not the maker."""
        order = self._order
        while self._spoken < len(order) and order[self._spoken] == self.maker:
            self._spoken += 1
        if self._spoken == len(order):
            self._start_play()
        else:
            self.to_act = order[self._spoken]

    def _throw_up(self, action: str, seat: int) -> None:
        kind = act.parse(action).kind
        if kind not in (act.KIND_THROW_UP, act.KIND_PASS):
            raise IllegalAction(_refusal(action, "throw up your hand, or pass and play it"))
        self.declarations.append((seat, kind))
        if kind == act.KIND_THROW_UP:
            self.thrown.append(seat)
        self._spoken += 1
        self._next_thrower()

    def _start_play(self) -> None:
        thrown = self.thrown
        active = [s for s in range(self.variant.players) if s not in thrown]
        maker = self.maker
        assert maker is not None
        if self.variant.maker_leads or (self.declared and maker != self.dealer):
            leader = maker  # Napoleon's bidder leads; so does a declarer who is not the dealer
        else:
            leader = next(s for s in self._order if s not in thrown)
        self.start_tricks(self.trump, active, leader)
        self.phase, self.to_act = PLAY, leader

    def _finish(self) -> None:
        self.phase, self.to_act, self.is_over = OVER, None, True
        self.result = score_deal(self)

    # -- views ----------------------------------------------------------------------------

    def view_for(self, seat: int) -> VariantDealView:
        """What `seat` may know: its own hand (and its own discard), and everything public."""
        return self._view(seat)

    def public_view(self) -> VariantDealView:
        """What anyone may know: no hand, no discard."""
        return self._view(None)

    def _view(self, seat: int | None) -> VariantDealView:
        declarations = tuple(
            (s, act.HIDDEN_DISCARD)
            if s == self.dealer and a == self.discarded and seat != self.dealer
            else (s, a)
            for s, a in self.declarations
        )
        return VariantDealView(
            seat=seat,
            hand=tuple(sort_hand(self.hands[seat], self.trump)) if seat is not None else None,
            discard=self.discarded if seat == self.dealer else None,
            players=self.variant.players,
            partners=self.variant.partners,
            dealer=self.dealer,
            phase=self.phase,
            to_act=self.to_act,
            legal=tuple(self.legal_actions()) if seat is not None and seat == self.to_act else (),
            turn_up=self.turn_up,
            turn_up_suit=self.turn_up_suit,
            turned_down=self.turned_down,
            trump=self.trump,
            maker=self.maker,
            bid=self.bid,
            declared=self.declared,
            thrown=tuple(self.thrown),
            declarations=declarations,
            trick=tuple(self.trick),
            tricks=tuple((w, tuple(t)) for w, t in self.tricks),
            tricks_won=tuple(self.won),
            hand_sizes=tuple(len(h) for h in self.hands),
            result=self.result,
        )

    @property
    def history(self) -> list[tuple[int, str]]:
        """Every action of the deal in order, as (seat, action): declarations, then cards."""
        plays = [play for _, trick in self.tricks for play in trick]
        return self.declarations + plays + self.trick


def _refusal(action: str, what: str) -> str:
    return f"{act.describe(action)} is not open to you now: {what}"


__all__ = [
    "BID",
    "BIDDING",
    "DECLARE",
    "DISCARD",
    "OVER",
    "PLAY",
    "ROUND_ONE",
    "ROUND_TWO",
    "THROW_UP",
    "TRUMP",
    "VariantDeal",
    "VariantDealView",
    "deal_cards",
    "deal_order",
]
