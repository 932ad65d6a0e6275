"""Deals anyone can verify: the commitment and the pack order a seed gives."""

from __future__ import annotations

import hashlib
from collections import Counter

import pytest

from bot.engine.cards import make_pack
from bot.engine.commitment import (
    commitment,
    deal_identity,
    new_seed,
    pack_order,
    shuffled_pack,
    variant_proof_problem,
)
from bot.engine.variants import NAMES, make_variant, seats_allowed
from bot.engine.variants.deal import VariantDeal

SEED = "00112233445566778899aabbccddeeff" * 2


def by_the_description(seed: str, pack: int, joker: bool) -> list[str]:
    """The pack order written straight from the algorithm as the module documents it."""
    return shuffled_by_the_description(seed, make_pack("7" if pack == 32 else "9", joker=joker))


# The fresh orders of the variants' packs, written out as the module's docstring gives them.
_SUITS = "SHDC"
DOCUMENTED_PACKS = {
    24: [rank + suit for suit in _SUITS for rank in ("A", "K", "Q", "J", "T", "9")],
    30: [
        rank + suit
        for suit in _SUITS
        for rank in ("A", "K", "Q", "J", "T", "9", "8", "7")
        if rank + suit not in ("7S", "7C")
    ],
    32: [rank + suit for suit in _SUITS for rank in ("A", "K", "Q", "J", "T", "9", "8", "7")],
    36: [rank + suit for suit in _SUITS for rank in ("A", "K", "Q", "J", "T", "9", "8", "7", "6")],
}


def shuffled_by_the_description(seed: str, fresh: list[str]) -> list[str]:
    """Fisher-Yates over the seed's byte stream, as documented, from a given fresh order."""
    cards = list(fresh)
    stream = b"".join(
        hashlib.sha256(bytes.fromhex(seed) + b"pack" + n.to_bytes(4, "big")).digest()
        for n in range(64)
    )
    at = 0
    for i in range(len(cards) - 1, 0, -1):
        while True:
            word = int.from_bytes(stream[at : at + 4], "big")
            at += 4
            if word < 2**32 - 2**32 % (i + 1):
                break
        j = word % (i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return cards


@pytest.mark.parametrize(("pack", "joker"), [(32, False), (24, False), (24, True), (32, True)])
def test_the_pack_order_is_the_documented_algorithm(pack, joker):
    for seed in (SEED, "f" * 64, new_seed()):
        assert pack_order(seed, pack, joker) == by_the_description(seed, pack, joker)


def test_a_seed_gives_one_whole_pack_and_always_the_same_order():
    order = pack_order(SEED, 24, False)
    assert sorted(order) == sorted(make_pack("9")) and order == pack_order(SEED, 24, False)
    assert pack_order(new_seed(), 24, False) != order


def test_every_card_is_as_likely_to_come_first():
    # 2,400 derived seeds: each of the 24 cards should lead about 100 times.
    firsts = Counter(
        pack_order(hashlib.sha256(str(n).encode()).hexdigest(), 24, False)[0] for n in range(2400)
    )
    assert len(firsts) == 24 and min(firsts.values()) > 50 and max(firsts.values()) < 160


def test_the_commitment_binds_the_seed_and_the_deal():
    here = deal_identity(3, 1, 2)
    committed = commitment(SEED, here)
    assert committed == hashlib.sha256(bytes.fromhex(SEED) + here.encode()).hexdigest()
    assert commitment("f" * 64, here) != committed  # another seed
    assert commitment(SEED, deal_identity(3, 1, 3)) != committed  # another deal
    assert commitment(SEED, deal_identity(3, 2, 2)) != committed  # another match


@pytest.mark.parametrize("seed", ["", "zz" * 32, "ab" * 31, "ab" * 33])
def test_a_seed_that_is_not_64_hex_digits_is_refused(seed):
    with pytest.raises(ValueError, match="64 hex digits"):
        pack_order(seed, 24, False)
    with pytest.raises(ValueError, match="64 hex digits"):
        commitment(seed, deal_identity(1, 1, 1))


def every_variant_pack() -> list[tuple[str, int]]:
    """Each variant at each number of players it takes."""
    out = []
    for name in NAMES:
        low, high = seats_allowed(name)
        out += [(name, players) for players in range(low, high + 1)]
    return out


@pytest.mark.parametrize(("name", "players"), every_variant_pack())
def test_a_variant_pack_is_in_the_documented_fresh_order(name, players):
    pack = make_variant(name, players).pack
    assert list(pack) == DOCUMENTED_PACKS[len(pack)]


@pytest.mark.parametrize("size", [24, 30, 32, 36])
def test_a_variant_pack_order_is_the_documented_algorithm(size):
    for seed in (SEED, "f" * 64, new_seed()):
        fresh = DOCUMENTED_PACKS[size]
        assert shuffled_pack(seed, fresh) == shuffled_by_the_description(seed, fresh)


def test_four_handed_pack_orders_are_unchanged_by_the_variants():
    # The first cards this seed gave before the variants had seeds: the output is unchanged.
    assert pack_order(SEED, 24, False) == shuffled_pack(SEED, make_pack("9"))
    assert pack_order(SEED, 24, False)[:6] == ["QC", "9S", "JC", "9D", "9H", "AD"]  # as before


def seeded_variant_deal(name: str, players: int, dealer: int = 0) -> VariantDeal:
    variant = make_variant(name, players)
    deal = VariantDeal.from_deck(variant, dealer, shuffled_pack(SEED, variant.pack))
    deal.seed, deal.deal_id = SEED, deal_identity(9, 1, 1)
    return deal


@pytest.mark.parametrize(("name", "players"), every_variant_pack())
def test_a_variant_deal_from_its_seed_verifies(name, players):
    deal = seeded_variant_deal(name, players, dealer=players - 1)
    assert variant_proof_problem(deal, commitment(SEED, deal.deal_id)) is None


def test_a_variant_deal_with_other_cards_does_not_verify():
    deal = seeded_variant_deal("napoleon", 7)
    deal.dealt = (deal.dealt[1], deal.dealt[0], *deal.dealt[2:])
    problem = variant_proof_problem(deal, commitment(SEED, deal.deal_id))
    assert problem is not None and problem.startswith("the seed deals seat 0")
    assert "does not give the commitment" in (variant_proof_problem(deal, "0" * 64) or "")


def test_a_seed_drawn_from_a_given_generator_is_64_hex_digits_and_repeats_with_it():
    import random

    seed = new_seed(random.Random(5))
    assert len(seed) == 64 and bytes.fromhex(seed) and seed == new_seed(random.Random(5))
    assert len(new_seed(random.SystemRandom())) == 64
