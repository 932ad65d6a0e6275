"""The easy computer player: legal, plain, sound habits and nothing more.

It orders or names a trump only with three trumps including a bower, never plays alone (nor
takes it from its partner, nor defends alone), leads its aces, follows with the cheapest card that wins or the lowest that cannot,
and lets a partner's winning card stand. It keeps no count of the cards.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from bot.ai.common import (
    cheapest_winner,
    discard_choice,
    hand_after_pickup,
    has_left,
    has_right,
    highest,
    lowest,
    strength,
    trick_winner,
    trump_cards,
)
from bot.ai.knowledge import Knowledge, partner
from bot.ai.player import ComputerPlayer
from bot.engine.actions import ORDER, PASS, call
from bot.engine.cards import EFFECTIVE_SUIT, JOKER, SUITS, Card, Suit
from bot.engine.deal import (
    DISCARD,
    JOKER_SUIT,
    PARTNER_ALONE,
    PLAY,
    ROUND_ONE,
    ROUND_TWO,
)

log = logging.getLogger(__name__)


def _good_enough(hand: Sequence[Card], trump: Suit) -> bool:
    """Three trumps, one of them a bower (or the Joker)."""
    trumps = trump_cards(hand, trump)
    bower = has_right(hand, trump) or has_left(hand, trump) or JOKER in hand
    return len(trumps) >= 3 and bower


class EasyPlayer(ComputerPlayer):
    """Plays legally and plainly. `seed` is kept for the common interface; no choice is random."""

    level = "easy"

    def decide(self, k: Knowledge) -> str:
        phase = k.phase
        hand = list(k.hand)
        if phase == JOKER_SUIT:
            best = max(SUITS, key=lambda s: strength(hand, s))
            return call(best)
        if phase == ROUND_ONE:
            trump = k.turn_up_suit
            assert trump is not None  # the Joker's suit is named before the bidding
            if k.seat == k.dealer:
                hand = hand_after_pickup(hand, k.turn_up, trump, False, k.options.discard_turn_up)
            return ORDER if _good_enough(hand, trump) else PASS
        if phase == ROUND_TWO:
            suits = [s for s in SUITS if s != k.turn_up_suit]
            best = max(suits, key=lambda s: strength(hand, s))
            if _good_enough(hand, best):
                return call(best)
            if PASS in k.legal:
                return PASS
            return call(best)
        if phase == PARTNER_ALONE:
            return PASS
        if phase == DISCARD:
            assert k.trump is not None  # the turn-up was made trump
            return discard_choice(
                hand, k.trump, k.turn_up, k.alone == k.seat, k.options.discard_turn_up
            )
        if phase == PLAY:
            return self._card(k)
        # Defending alone: the easy player never does.
        return PASS

    def _card(self, k: Knowledge) -> str:
        trump = k.trump
        assert trump is not None  # made before this is asked
        legal = list(k.legal)
        eff = EFFECTIVE_SUIT[trump]
        if not k.trick:
            # Lead: an ace, then a trump if our side made it, else the lowest card.
            aces = [c for c in legal if c[0] == "A" and eff[c] != trump]
            if aces:
                return aces[0]
            trumps = [c for c in legal if eff[c] == trump]
            if trumps and k.we_made:
                return highest(trumps, trump)
            return lowest(legal, trump)
        winner_seat, _ = trick_winner(k.trick, trump)
        if winner_seat == partner(k.seat):
            return lowest(legal, trump)
        win = cheapest_winner(legal, k.trick, trump)
        return win if win is not None else lowest(legal, trump)
