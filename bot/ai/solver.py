"""An exact search of the rest of a deal's play when every hand is known (a "double dummy").

The expert samples the hands it cannot see; in each sampled world it asks this solver whether
the makers can still take three tricks (and all five), with both sides playing perfectly.
Cards are bits of an int and hands are bitmasks, so a node costs a few integer operations;
the answers are kept per (hands, leader, tricks needed) at each trick's start, and cards of one
suit that sit next to each other once the played cards are gone are searched once.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from bot.engine.cards import EFFECTIVE_SUIT, POWER, SUITS, Card, Suit, make_pack

log = logging.getLogger(__name__)

# Every card the four-handed game may use gets a bit: the 32-card pack and the Joker.
ALL_CARDS: tuple[Card, ...] = tuple(make_pack("7", joker=True))
BIT: dict[Card, int] = {c: 1 << i for i, c in enumerate(ALL_CARDS)}


class Tables:
    """Per-trump lookups by bit index: effective suit, power, and each suit's cards high to low."""

    __slots__ = (
        "trump",
        "suit_of",
        "power",
        "suit_mask",
        "order",
        "trump_index",
        "above",
        "neg_power",
    )

    def __init__(self, trump: Suit) -> None:
        eff, power = EFFECTIVE_SUIT[trump], POWER[trump]
        self.trump = trump
        suit_index = {s: i for i, s in enumerate(SUITS)}
        self.trump_index = suit_index[trump]
        self.suit_of = [suit_index[eff[c]] for c in ALL_CARDS]
        self.power = [power[c] for c in ALL_CARDS]
        self.neg_power = [-p for p in self.power]
        self.suit_mask = [0, 0, 0, 0]
        for i, _c in enumerate(ALL_CARDS):
            self.suit_mask[self.suit_of[i]] |= 1 << i
        # Each suit's cards, strongest first, as bit indices.
        self.order = [
            sorted(
                (i for i in range(len(ALL_CARDS)) if self.suit_of[i] == s),
                key=lambda i: -self.power[i],
            )
            for s in range(4)
        ]
        # For each card, the cards of its suit above it, the nearest first.
        self.above: list[list[int]] = [[] for _ in ALL_CARDS]
        for s in range(4):
            ranked = self.order[s]
            for n, i in enumerate(ranked):
                self.above[i] = [1 << j for j in reversed(ranked[:n])]


TABLES = {t: Tables(t) for t in SUITS}


def to_mask(cards: Sequence[Card]) -> int:
    m = 0
    for c in cards:
        m |= BIT[c]
    return m


class Solver:
    """Answers "can the makers reach `target` tricks?" for one world's remaining play.

    Args:
        trump: the trump suit.
        hands: the cards each seat holds (every seat; those sitting out are ignored).
        active: the seats that play, in seat order.
        maker_side: 0 or 1.
    """

    __slots__ = ("t", "active", "next", "maker_side", "memo", "nodes")

    def __init__(self, trump: Suit, active: Sequence[int], maker_side: int) -> None:
        self.t = TABLES[trump]
        self.active = tuple(sorted(active))
        nxt = [0, 0, 0, 0]
        for i, s in enumerate(self.active):
            nxt[s] = self.active[(i + 1) % len(self.active)]
        self.next = nxt
        self.maker_side = maker_side
        self.memo: dict[tuple, bool] = {}
        self.nodes = 0

    def makers_reach(
        self,
        hands: list[int],
        trick: list[tuple[int, int]],
        to_play: int,
        maker_tricks: int,
        tricks_left: int,
        target: int,
    ) -> bool:
        """Whether the makers, having `maker_tricks`, take at least `target` in all.

        Args:
            hands: each seat's remaining cards as a bitmask (index by seat).
            trick: the cards on the table as (seat, bit index), in the order played.
            to_play: the seat to play next.
            maker_tricks: tricks the makers have taken.
            tricks_left: tricks still to finish, the one on the table included.
            target: tricks the makers must reach.
        """
        return self._search(list(hands), list(trick), to_play, maker_tricks, tricks_left, target)

    def _search(
        self,
        hands: list[int],
        trick: list[tuple[int, int]],
        seat: int,
        made: int,
        left: int,
        target: int,
    ) -> bool:
        if made >= target:
            return True
        if made + left < target:
            return False
        memo_key = None
        t = self.t
        if not trick:
            if left == 1:
                # The last trick: every card is forced.
                return self._last_trick(hands, seat, made, target)
            memo_key = (hands[0], hands[1], hands[2], hands[3], seat, target - made)
            got = self.memo.get(memo_key)
            if got is not None:
                return got
            got = self._sure(hands, made, left, target)
            if got is not None:
                self.memo[memo_key] = got
                return got
        self.nodes += 1
        hand = hands[seat]
        if trick:
            led = t.suit_of[trick[0][1]]
            legal = hand & t.suit_mask[led]
            if not legal:
                legal = hand
        else:
            legal = hand
        maker = (seat & 1) == self.maker_side
        moves = self._moves(hands, legal, trick, seat)
        size = len(self.active)
        result = not maker
        for i in moves:
            bit = 1 << i
            hands[seat] = hand ^ bit
            trick.append((seat, i))
            if len(trick) == size:
                win = self._winner(trick)
                gained = made + ((win & 1) == self.maker_side)
                saved = trick[:]
                trick.clear()
                ok = self._search(hands, trick, win, gained, left - 1, target)
                trick.extend(saved)
            else:
                ok = self._search(hands, trick, self.next[seat], made, left, target)
            trick.pop()
            hands[seat] = hand
            if ok == maker:
                result = ok
                break
        if memo_key is not None:
            self.memo[memo_key] = result
        return result

    def _sure(self, hands: list[int], made: int, left: int, target: int) -> bool | None:
        """The answer when the master trumps settle it at a trick's start, else None.

        The highest trump still out always wins a trick: whoever holds it plays it only to a
        trump lead, on a void, or as a last card, and nothing beats it. A seat holding the
        highest few trumps in a row takes a trick with each (it never has to play two of them
        to one trick). Those tricks are sure for that seat's side, whatever else happens.
        """
        t = self.t
        active = self.active
        run = 0
        holder = -1
        for i in t.order[t.trump_index]:
            bit = 1 << i
            for s in active:
                if hands[s] & bit:
                    break
            else:
                continue  # already played, or in no hand that plays
            if holder < 0:
                holder = s
            elif s != holder:
                break
            run += 1
        if not run:
            return None
        if (holder & 1) == self.maker_side:
            return True if made + run >= target else None
        return False if made + left - run < target else None

    def _last_trick(self, hands: list[int], leader: int, made: int, target: int) -> bool:
        t = self.t
        suit_of, power, trump = t.suit_of, t.power, t.trump_index
        i = hands[leader].bit_length() - 1
        led = suit_of[i]
        best_seat, best = leader, power[i]
        seat = self.next[leader]
        while seat != leader:
            i = hands[seat].bit_length() - 1
            s = suit_of[i]
            if (s == trump or s == led) and power[i] > best:
                best_seat, best = seat, power[i]
            seat = self.next[seat]
        return made + ((best_seat & 1) == self.maker_side) >= target

    def _winner(self, trick: list[tuple[int, int]]) -> int:
        t = self.t
        suit_of, power, trump = t.suit_of, t.power, t.trump_index
        led = suit_of[trick[0][1]]
        best_seat, best = trick[0][0], power[trick[0][1]]
        for seat, i in trick[1:]:
            s = suit_of[i]
            if (s == trump or s == led) and power[i] > best:
                best_seat, best = seat, power[i]
        return best_seat

    def _moves(
        self, hands: list[int], legal: int, trick: list[tuple[int, int]], seat: int
    ) -> list[int]:
        """The legal cards worth trying, likeliest best first.

        Two cards of one suit with no card between them still out in another hand win and lose
        the same tricks, so only one of them is searched. On a lead the strongest cards come
        first; following, the cheapest card that wins unless the partner is winning, then the
        lowest cards.
        """
        t = self.t
        others = hands[0] | hands[1] | hands[2] | hands[3]
        power = t.power
        above = t.above
        mine = hands[seat]
        moves: list[int] = []
        m = legal
        while m:
            low = m & -m
            m ^= low
            i = low.bit_length() - 1
            for bit in above[i]:
                if others & bit:
                    if not mine & bit:
                        moves.append(i)
                    break
            else:
                moves.append(i)
        if len(moves) < 2:
            return moves
        if not trick:
            moves.sort(key=t.neg_power.__getitem__)
            return moves
        suit_of, trump = t.suit_of, t.trump_index
        led = suit_of[trick[0][1]]
        best_seat, best = trick[0][0], power[trick[0][1]]
        for s, i in trick[1:]:
            su = suit_of[i]
            if (su == trump or su == led) and power[i] > best:
                best_seat, best = s, power[i]
        # Playing to the trick: cheapest first (the card that plays its part at least cost),
        # except that a winner, when the partner is not winning, goes before the rest.
        moves.sort(key=power.__getitem__)
        if (best_seat & 1) != (seat & 1):
            for n, i in enumerate(moves):
                su = suit_of[i]
                if (su == trump or su == led) and power[i] > best:
                    if n:
                        moves.insert(0, moves.pop(n))
                    break
        return moves


def card_index(card: Card) -> int:
    return BIT[card].bit_length() - 1
