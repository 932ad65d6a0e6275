"""Deals anyone can verify: the commitment and the pack order a seed gives."""

from __future__ import annotations

import hashlib
from collections import Counter

import pytest

from bot.engine.cards import make_pack
from bot.engine.commitment import commitment, deal_identity, new_seed, pack_order

SEED = "00112233445566778899aabbccddeeff" * 2


def by_the_description(seed: str, pack: int, joker: bool) -> list[str]:
    """The pack order written straight from the algorithm as the module documents it."""
    cards = make_pack("7" if pack == 32 else "9", joker=joker)
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
