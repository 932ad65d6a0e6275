"""Sampling the hands a seat cannot see, consistently with everything it has seen.

A sampled "world" gives every other seat a hand of the right size, never a card of a suit the
seat has shown it lacks, puts the turn-up in the dealer's hand when he took it up, and leaves
the rest (with the dealer's secret discard) in the kitty. The bidding is a softer clue: a seat
that passed the turn-up is unlikely to hold three high trumps. Each candidate world is weighted
by how likely the seats' declarations were with those hands under a simple bidding model, and
the worlds kept are drawn by those weights.

`build_deal` turns a world into an engine `Deal` by dealing the hands as they were before the
first declaration and replaying the public history, so the search plays by the engine's rules.
"""

from __future__ import annotations

import logging
import math
import random
from dataclasses import dataclass

from bot.ai.common import hand_after_pickup, strength
from bot.ai.knowledge import Knowledge, partner
from bot.engine.actions import (
    ALONE,
    HIDDEN_DISCARD,
    ORDER,
    ORDER_ALONE,
    PASS,
    call,
    is_alone,
    is_call,
    is_card,
    suit_called,
)
from bot.engine.cards import (
    EFFECTIVE_SUIT,
    JOKER,
    POWER,
    SAME_COLOUR,
    SUITS,
    Card,
    Suit,
)
from bot.engine.deal import SEATS, Deal
from bot.engine.errors import IllegalAction

log = logging.getLogger(__name__)

# The bidding model: a seat makes the trump when its hand's strength (tricks it expects, see
# common.strength) passes these marks; the softness is how sure the model is.
MAKE_MARK = 2.4
ALONE_MARK = 3.6
SOFTNESS = 0.15
# The marks by position from the dealer's left (eldest, second, third, dealer), round one and
# round two, fitted with the softness by maximum likelihood to the standard player's
# declarations in 20,000 simulated `modern` deals at random scores (a declaration's chance is
# 0.1 + 0.9 * sigmoid((strength - mark) / softness); floors of 0.01-0.05 fitted worse). The
# third hand needs most. Fitted position by position, the log-likelihood of those declarations
# rose 2-13% over the marks before (softness 0.25; round one 2.55, 2.25, 2.65, 2.2; round two
# 2.35, 2.3, 3.1): see bench/README.md for what it did to the expert's games.
ROUND_ONE_MARKS = (2.6, 2.25, 2.55, 2.2)
ROUND_TWO_MARKS = (2.55, 2.35, 3.1, 2.3)
# What the turn-up is worth to the dealer's side, and costs the other side, in round one.
_TURN_UP_GIFT = 0.35


@dataclass
class World:
    """One guess at the unseen cards: every seat's hand now, and the kitty."""

    hands: list[list[Card]]
    kitty: list[Card]
    weight: float = 1.0


def true_world(k: Knowledge, hands: list[list[Card]]) -> World:
    """The world as it is, from every seat's real hand: a yardstick for benches and tests
    (`bench/ceiling.py`), never for a seat at a table. The kitty is every card the seat has not
    seen that no hand holds."""
    held = {c for h in hands for c in h}
    return World([list(h) for h in hands], [c for c in k.unseen if c not in held])


def _sigmoid(x: float) -> float:
    if x < -30:
        return 0.0
    if x > 30:
        return 1.0
    return 1.0 / (1.0 + math.exp(-x))


def round_one_strength(
    hand: list[Card], seat: int, dealer: int, turn_up: Card, trump: Suit, may_discard_turn_up: bool
) -> float:
    """How strong a seat is for making the turn-up's suit trump, from its own hand."""
    if seat == dealer:
        return strength(hand_after_pickup(hand, turn_up, trump, False, may_discard_turn_up), trump)
    gift = _TURN_UP_GIFT + (0.4 if turn_up[0] == "J" or turn_up == JOKER else 0.0)
    if seat == partner(dealer):
        return strength(hand, trump) + gift
    return strength(hand, trump) - gift


def best_call(hand: list[Card], turned_down: Suit) -> tuple[Suit, float]:
    """The strongest suit to name in round two and its strength."""
    best, best_s = SUITS[0], -1.0
    for s in SUITS:
        if s == turned_down:
            continue
        v = strength(hand, s)
        if v > best_s:
            best, best_s = s, v
    return best, best_s


def make_probability(s: float, mark: float = MAKE_MARK) -> float:
    """The model's chance that a seat of strength `s` makes the trump."""
    return _sigmoid((s - mark) / SOFTNESS)


def bidding_weight(k: Knowledge, original: list[list[Card]]) -> float:
    """How likely the other seats' declarations were, had they held `original` (5 cards each)."""
    weight = 1.0
    trump1 = k.turn_up_suit
    if trump1 is None:
        return weight
    deal = k.view.deal
    passes = 0
    for seat, action in deal.declarations:
        if action == PASS and passes < SEATS:
            passes += 1
            if seat != k.seat:
                s = round_one_strength(
                    original[seat], seat, k.dealer, k.turn_up, trump1, k.options.discard_turn_up
                )
                weight *= 1.0 - 0.9 * make_probability(s, ROUND_ONE_MARKS[k.position(seat)])
            continue
        if action == PASS:
            passes += 1
            if seat != k.seat and not (k.options.stick_the_dealer and seat == k.dealer):
                _, s = best_call(original[seat], trump1)
                weight *= 1.0 - 0.9 * make_probability(s, ROUND_TWO_MARKS[k.position(seat)])
            continue
        if seat == k.seat:
            if action in (ORDER, ORDER_ALONE) or (is_call(action) and passes >= SEATS):
                break
            continue
        if action in (ORDER, ORDER_ALONE):
            s = round_one_strength(
                original[seat], seat, k.dealer, k.turn_up, trump1, k.options.discard_turn_up
            )
            weight *= 0.1 + 0.9 * make_probability(s, ROUND_ONE_MARKS[k.position(seat)])
            if action == ORDER_ALONE:
                weight *= 0.02 + 0.98 * make_probability(s, ALONE_MARK)
            break
        suit = suit_called(action)
        if suit is not None and passes >= SEATS:
            s = strength(original[seat], suit)
            weight *= 0.1 + 0.9 * make_probability(s, ROUND_TWO_MARKS[k.position(seat)])
            if is_alone(action):
                weight *= 0.02 + 0.98 * make_probability(s, ALONE_MARK)
            break
    # A partner who took it alone ("I take it from you") showed a lone hand.
    if k.trump is not None and k.alone is not None and k.alone != k.seat and k.alone != k.maker:
        hand = original[k.alone]
        if k.alone == k.dealer and not k.turned_down:
            hand = hand_after_pickup(hand, k.turn_up, k.trump, True, k.options.discard_turn_up)
        weight *= 0.02 + 0.98 * make_probability(strength(hand, k.trump), ALONE_MARK)
    return weight


# The play model: how much less likely a seat's card becomes when the world gives it a hand
# where a plain player would have played otherwise.
LEAD_UNDER_HIGHER = 0.3  # led a plain card while holding a higher one of the suit
DUCK_LAST = 0.25  # last to play, could win a trick the adversaries held, did not
REFUSE_RUFF_LAST = 0.4  # last to play, void, could win with a trump, threw a card instead


def play_weight(k: Knowledge, world: World) -> float:
    """How likely the other seats' cards so far were, had they held this world's hands.

    "Consider what the play of your adversaries means, as well as that of your partner"
    (Somerset, "Coups"): a seat leading the king of a suit seldom holds its ace.
    """
    trump = k.trump
    deal = k.view.deal
    if trump is None or not deal.tricks and not deal.trick:
        return 1.0
    eff, power = EFFECTIVE_SUIT[trump], POWER[trump]
    held = [set(h) for h in world.hands]
    tricks = [t for _, t in deal.tricks]
    if deal.trick:
        tricks.append(deal.trick)
    for trick in tricks:
        for seat, card in trick:
            held[seat].add(card)
    weight = 1.0
    active = 4 - len(k.sitting_out)
    for trick in tricks:
        led = eff[trick[0][1]]
        best_seat, best = trick[0][0], trick[0][1]
        for n, (seat, card) in enumerate(trick):
            hand = held[seat]
            if seat != k.seat:
                if n == 0:
                    if led != trump and any(eff[c] == led and power[c] > power[card] for c in hand):
                        weight *= LEAD_UNDER_HIGHER
                elif n == active - 1 and (best_seat & 1) != (seat & 1):
                    suit = eff[card]
                    won = (suit == trump or suit == led) and _stronger(card, best, trump, led)
                    if not won:
                        follows = [c for c in hand if eff[c] == led]
                        pool = follows or list(hand)
                        if any(_stronger(c, best, trump, led) for c in pool):
                            weight *= DUCK_LAST if follows else REFUSE_RUFF_LAST
            hand.discard(card)
            if n and _stronger(card, best, trump, led):
                best_seat, best = seat, card
    return weight


def _stronger(card: Card, best: Card, trump: Suit, led: Suit) -> bool:
    eff, power = EFFECTIVE_SUIT[trump], POWER[trump]
    suit = eff[card]
    if suit != trump and suit != led:
        return False
    if eff[best] == trump and suit != trump:
        return False
    return power[card] > power[best]


def _assign(k: Knowledge, rng: random.Random, strict: bool) -> World | None:
    """One random placement of the unseen cards, or None at a dead end."""
    sizes = k.view.deal.hand_sizes
    hands: list[list[Card]] = [[] for _ in range(SEATS)]
    need = [0] * SEATS
    for s in range(SEATS):
        if s == k.seat:
            hands[s] = list(k.hand)
            continue
        hands[s] = list(k.holds[s])
        need[s] = sizes[s] - len(hands[s])
    unseen = list(k.unseen)
    rng.shuffle(unseen)
    kitty_room = len(unseen) - sum(need)
    if kitty_room < 0:
        return None
    trump = k.trump
    eff = EFFECTIVE_SUIT[trump] if trump is not None else None

    def allowed(card: Card) -> list[int]:
        if not strict or eff is None:
            return [s for s in range(SEATS) if need[s] > 0]
        suit = eff[card]
        return [s for s in range(SEATS) if need[s] > 0 and suit not in k.voids[s]]

    # The most constrained cards first, so a void does not leave a card with nowhere to go.
    if eff is not None and strict:
        unseen.sort(
            key=lambda c: sum(1 for s in range(SEATS) if eff[c] in k.voids[s]), reverse=True
        )
    kitty: list[Card] = []
    chance = 1.0
    for card in unseen:
        seats = allowed(card)
        total = sum(need[s] for s in seats) + kitty_room
        if total <= 0:
            return None
        pick = rng.randrange(total)
        placed = False
        for s in seats:
            if pick < need[s]:
                chance *= need[s] / total
                hands[s].append(card)
                need[s] -= 1
                placed = True
                break
            pick -= need[s]
        if not placed:
            chance *= kitty_room / total
            kitty.append(card)
            kitty_room -= 1
    if any(need):
        return None
    # The weight, until the caller gives it one: the chance of drawing this placement.
    return World(hands, kitty, chance)


def original_hands(k: Knowledge, world: World) -> tuple[list[list[Card]], Card | None]:
    """The hands as dealt, in this world, and the dealer's discard (None if not yet made)."""
    deal = k.view.deal
    played: list[list[Card]] = [[] for _ in range(SEATS)]
    for _, trick in deal.tricks:
        for seat, card in trick:
            played[seat].append(card)
    for seat, card in deal.trick:
        played[seat].append(card)
    hands = [world.hands[s] + played[s] for s in range(SEATS)]
    discard = None
    # The dealer's discard is his declaration after the trump: a card code, or "discard" in
    # the views of the others.
    discarded = any(
        seat == k.dealer and (action == HIDDEN_DISCARD or is_card(action))
        for seat, action in deal.declarations
    )
    if discarded:
        dealer_hand = hands[k.dealer]
        if k.seat == k.dealer:
            discard = deal.discard
        elif k.turn_up not in dealer_hand:
            # Neither held nor played: he threw the turn-up itself out (`knowledge.read`).
            discard = k.turn_up
        else:
            candidates = [c for c in world.kitty if c != k.turn_up]
            discard = candidates[0] if candidates else None
        if discard is not None:
            dealer_hand.append(discard)
        if k.turn_up in dealer_hand:
            dealer_hand.remove(k.turn_up)
    elif k.phase == "discard":
        # The dealer is deciding his discard: his six cards hold the turn-up.
        if k.turn_up in hands[k.dealer]:
            hands[k.dealer].remove(k.turn_up)
    return hands, discard


def weighted_worlds(
    k: Knowledge, count: int, rng: random.Random, even: bool = False
) -> list[World]:
    """`count` placements of the unseen cards drawn at random (fewer if few fit), each with its
    weight: how likely the other seats' declarations and cards were with those hands.

    The draw places the cards a void restricts first, so with voids shown it does not give
    every placement the same chance. With `even`, each weight is also divided by its
    placement's chance of being drawn, so that every placement that fits counts alike
    (importance weights): the weighted shares are then those of a count over every placement.
    """
    candidates: list[World] = []
    tries = 0
    while len(candidates) < count and tries < count * 4:
        tries += 1
        world = _assign(k, rng, strict=tries < count * 3)
        if world is None:
            continue
        drawn = world.weight
        original, _ = original_hands(k, World([h[:] for h in world.hands], world.kitty[:]))
        world.weight = bidding_weight(k, original) * play_weight(k, world)
        if even:
            world.weight /= drawn
        candidates.append(world)
    return candidates


def sample_worlds(k: Knowledge, count: int, rng: random.Random, spread: int = 3) -> list[World]:
    """`count` worlds drawn by their bidding weight from `spread * count` candidates."""
    candidates = weighted_worlds(k, count * spread, rng)
    if not candidates:
        return []
    total = sum(w.weight for w in candidates)
    if total <= 0:
        return candidates[:count]
    # Systematic resampling: `count` picks spread evenly over the weights.
    step = total / count
    start = rng.random() * step
    picks: list[World] = []
    acc = 0.0
    i = 0
    for n in range(count):
        target = start + n * step
        while acc + candidates[i].weight < target and i < len(candidates) - 1:
            acc += candidates[i].weight
            i += 1
        w = candidates[i]
        picks.append(World([h[:] for h in w.hands], w.kitty[:], 1.0))
    return picks


def build_deal(k: Knowledge, world: World) -> Deal | None:
    """The world as an engine deal at this seat's decision: dealt, then the history replayed.

    Returns None when the world cannot be replayed (it breaks a rule the sampler does not know).
    """
    deal_view = k.view.deal
    hands, discard = original_hands(k, world)
    deal = Deal(k.options, k.dealer, hands, k.turn_up, [])
    try:
        for seat, action in deal_view.declarations:
            if action == HIDDEN_DISCARD:
                action = discard or action  # no discard known: refused below, like any misfit
            deal.apply(action, seat)
        for _, trick in deal_view.tricks:
            for seat, card in trick:
                deal.apply(card, seat)
        for seat, card in deal_view.trick:
            deal.apply(card, seat)
    except (IllegalAction, TypeError, ValueError) as exc:
        log.debug("world refused on replay: %s", exc)
        return None
    return deal


def quick_bid(deal: Deal, seat: int) -> str:
    """A fast bidding policy for the seats of a playout: strength marks, nothing more.

    It reads only `seat`'s own hand and public facts of `deal`.
    """
    legal = deal.legal_actions()
    if len(legal) == 1:
        return legal[0]
    hand = deal.hands[seat]
    phase = deal.phase
    if phase == "round_one":
        trump = deal.turn_up_suit
        assert trump is not None  # named before round one when the Joker is turned
        s = round_one_strength(
            hand, seat, deal.dealer, deal.turn_up, trump, deal.options.discard_turn_up
        )
        if s >= ALONE_MARK:
            return ORDER_ALONE
        return ORDER if s >= ROUND_ONE_MARKS[(seat - deal.dealer - 1) % SEATS] else PASS
    if phase == "round_two":
        assert deal.turn_up_suit is not None
        suit, s = best_call(hand, deal.turn_up_suit)
        if s >= ALONE_MARK:
            return call(suit, alone=True)
        if s >= ROUND_TWO_MARKS[(seat - deal.dealer - 1) % SEATS] or PASS not in legal:
            return call(suit)
        return PASS
    if phase == "discard":
        from bot.ai.common import discard_choice

        assert deal.trump is not None  # the turn-up was made trump
        return discard_choice(
            hand, deal.trump, deal.turn_up, deal.alone == seat, deal.options.discard_turn_up
        )
    if phase == "joker_suit":
        return call(max(SUITS, key=lambda s: strength(hand, s)))
    if phase == "partner_alone":
        assert deal.trump is not None
        return ALONE if strength(hand, deal.trump) >= ALONE_MARK + 0.3 else PASS
    return PASS  # defend alone: not in a playout


def next_suit(suit: Suit) -> Suit:
    return SAME_COLOUR[suit]
