"""Deals anyone can verify: a secret seed per deal, committed to before the deal, shown after.

Before a deal is dealt, the table shows a commitment: SHA-256 over the deal's secret seed and
the deal's identity. When the deal is over the seed is revealed, and anyone can recompute the
pack order from it and check it against the commitment and the cards that were actually dealt.
The dealer (the bot) therefore cannot change the cards once the commitment is shown, and
cannot reuse one commitment for another deal.

The pack order comes from the seed by this algorithm, which never changes (a record made today
verifies with any later version of the bot):

1. Start from the fresh pack in the engine's fixed order (`make_pack`: spades, hearts, diamonds,
   clubs; in each suit A K Q J 10 9, then 8 7 for a 32-card pack; the Joker last when used).
   The other games of the rule books start from their own pack in the same order
   (`Variant.pack`): 24 cards (A to 9: French, Napoleon for four or fewer), 32 (A to 7: two-
   and three-handed, set-back, Napoleon for five or six), 30 (the 32 without the seven of
   spades and the seven of clubs: six-handed) or 36 (A to 7 and then the 6 in each suit:
   Napoleon for seven).
2. Make a stream of bytes: SHA-256(seed ‖ "pack" ‖ counter), for counter 0, 1, 2, ... written as
   four big-endian bytes, one digest after another. The seed is the 32 bytes its hex names.
3. Shuffle with Fisher-Yates from the last position down: for i = n-1 to 1, read the next four
   bytes as a big-endian number w; while w ≥ 2³² − (2³² mod (i+1)) read another (so every
   position is equally likely); swap the cards at i and w mod (i+1).

The top of the resulting pack is dealt first, as `Deal.from_deck` deals (J.5), or as
`VariantDeal.from_deck` deals a variant (two each then three each, from the dealer's left, or
his right in Napoleon; the next card turned up where the variant turns one).

The commitment is the hex SHA-256 of seed ‖ identity, where the identity is the UTF-8 text
`euchre-bot deal <table>:<match>:<deal>` (the table's id, the match's number at the table and
the deal's number in the match, from 1): a seed shown for one deal proves nothing about another.
"""

from __future__ import annotations

import hashlib
import random
import secrets
from collections.abc import Iterator, Sequence

from bot.engine.cards import Card, make_pack
from bot.engine.deal import Deal, deal_hands
from bot.engine.variants.deal import VariantDeal, deal_cards

SEED_BYTES = 32
_WORD = 1 << 32


def new_seed(rng: random.Random | None = None) -> str:
    """A fresh secret seed, as 64 hex digits, from the operating system's strong generator.

    Args:
        rng: draw it from this generator instead; a table's own is `random.SystemRandom` (the
            same strong source), which tests replace with a seeded one to deal what they need.
    """
    if rng is None:
        return secrets.token_hex(SEED_BYTES)
    return rng.getrandbits(8 * SEED_BYTES).to_bytes(SEED_BYTES, "big").hex()


def deal_identity(table_id: int, match_no: int, deal_no: int) -> str:
    """What a commitment is bound to: one deal of one match at one table."""
    return f"euchre-bot deal {table_id}:{match_no}:{deal_no}"


def _seed_bytes(seed: str) -> bytes:
    try:
        raw = bytes.fromhex(seed)
    except ValueError:
        raise ValueError("a deal's seed is 64 hex digits") from None
    if len(raw) != SEED_BYTES:
        raise ValueError("a deal's seed is 64 hex digits")
    return raw


def commitment(seed: str, identity: str) -> str:
    """The commitment shown before the deal: hex SHA-256 of the seed's bytes and the identity."""
    return hashlib.sha256(_seed_bytes(seed) + identity.encode("utf-8")).hexdigest()


def proof_fields(seed: str | None, identity: str | None, over: bool) -> dict[str, str]:
    """The fields of a deal's record that let anyone verify it: its identity and commitment, and
    its seed once the deal is over (until then the seed would show every hand).

    Returns:
        `deal_id`, `commitment` and (when `over`) `seed`; nothing for a deal dealt without a seed.
    """
    if seed is None or identity is None:
        return {}
    fields = {"deal_id": identity, "commitment": commitment(seed, identity)}
    if over:
        fields["seed"] = seed
    return fields


def _words(seed: bytes) -> Iterator[int]:
    """The 32-bit words of the seed's byte stream, in order."""
    counter = 0
    while True:
        block = hashlib.sha256(seed + b"pack" + counter.to_bytes(4, "big")).digest()
        for k in range(0, len(block), 4):
            yield int.from_bytes(block[k : k + 4], "big")
        counter += 1


def pack_order(seed: str, pack: int, joker: bool) -> list[Card]:
    """The pack order a seed gives, top card first (see the module's docstring).

    Args:
        seed: the deal's seed, 64 hex digits.
        pack: 32 or 24 cards.
        joker: whether the Joker is in the pack.
    """
    return shuffled_pack(seed, make_pack("7" if pack == 32 else "9", joker=joker))


def shuffled_pack(seed: str, fresh: Sequence[Card]) -> list[Card]:
    """The order a seed gives any pack, from its fresh order (see the module's docstring).

    Args:
        seed: the deal's seed, 64 hex digits.
        fresh: the pack in its fixed order (`make_pack`, or a variant's `Variant.pack`).
    """
    cards = list(fresh)
    words = _words(_seed_bytes(seed))
    for i in range(len(cards) - 1, 0, -1):
        span = i + 1
        limit = _WORD - _WORD % span
        word = next(words)
        while word >= limit:
            word = next(words)
        j = word % span
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def _seed_problem(seed: str | None, deal_id: str | None, recorded: str | None) -> str | None:
    """Why a deal's seed does not give the commitment recorded for it, or None when it does."""
    if seed is None or deal_id is None:
        return "it shows no seed (a deal not over yet, or dealt before seeds were kept)"
    try:
        committed = commitment(seed, deal_id)
    except ValueError as exc:
        return str(exc)
    if recorded != committed:
        return f"the seed does not give the commitment recorded for {deal_id}"
    return None


def _dealt_problem(
    dealt: Sequence[Sequence[Card]],
    hands: Sequence[Sequence[Card]],
    turn_up: Card | None,
    expected_turn_up: Card | None,
    kitty: list[Card],
    expected_kitty: list[Card],
) -> str | None:
    """Why the cards recorded are not the cards the seed deals, or None when they are."""
    for seat, (cards, expected) in enumerate(zip(dealt, hands, strict=True)):
        if list(cards) != list(expected):
            return (
                f"the seed deals seat {seat} {' '.join(expected)}, "
                f"but the record deals {' '.join(cards)}"
            )
    if turn_up != expected_turn_up:
        return f"the seed turns up {expected_turn_up}, but the record turns up {turn_up}"
    if kitty != expected_kitty:
        return "the kitty recorded is not the rest of the seed's pack"
    return None


def proof_problem(deal: Deal, recorded: str | None) -> str | None:
    """Why a recorded deal does not verify against its seed, or None when it does.

    Args:
        deal: the deal as recorded (its `seed` and `deal_id` read from the record).
        recorded: the commitment the record says was shown before the deal.
    """
    problem = _seed_problem(deal.seed, deal.deal_id, recorded)
    if problem is not None or deal.seed is None:
        return problem
    options = deal.options
    hands, turn_up, kitty = deal_hands(
        pack_order(deal.seed, options.pack, options.joker), deal.dealer
    )
    recorded_kitty = [c for c in deal.kitty if c != deal.discarded]
    return _dealt_problem(deal.dealt, hands, deal.turn_up, turn_up, recorded_kitty, kitty)


def variant_proof_problem(deal: VariantDeal, recorded: str | None) -> str | None:
    """`proof_problem` for a variant's deal: its own pack, dealt its own way.

    Args:
        deal: the deal as recorded (its `seed` and `deal_id` read from the record).
        recorded: the commitment the record says was shown before the deal.
    """
    problem = _seed_problem(deal.seed, deal.deal_id, recorded)
    if problem is not None or deal.seed is None:
        return problem
    order = shuffled_pack(deal.seed, deal.variant.pack)
    hands, turn_up, kitty = deal_cards(deal.variant, order, deal.dealer)
    recorded_kitty = [c for c in deal.kitty if c != deal.discarded]
    return _dealt_problem(deal.dealt, hands, deal.turn_up, turn_up, recorded_kitty, kitty)
