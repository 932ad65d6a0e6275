"""The action codes of every game (bot.engine.actions): built, read and told apart in one place.

The codes are stored in records, EGN files and button ids, so the spellings are pinned here;
the quick readers the engine and the computer players use must agree with `parse` on every
code the engines give.
"""

from __future__ import annotations

import random

import pytest

from bot.engine import actions as act
from bot.engine.cards import SUITS, make_pack
from bot.engine.deal import Deal
from bot.engine.errors import IllegalAction
from bot.engine.rules import PRESETS, build_options
from bot.engine.variants import VariantDeal, make_variant
from bot.engine.variants.rules import NAMES

# -- the spellings, as stored -----------------------------------------------------------------


def test_codes_are_spelled_as_records_and_buttons_store_them():
    assert (act.PASS, act.ORDER, act.ORDER_ALONE) == ("pass", "order", "order:alone")
    assert (act.ALONE, act.DEFEND, act.DECLARE, act.THROW_UP) == (
        "alone",
        "defend",
        "declare",
        "throw_up",
    )
    assert act.call("H") == "call:H" and act.call("H", alone=True) == "call:H:alone"
    assert act.order() == "order" and act.order(alone=True) == "order:alone"
    assert act.bid(3) == "bid:3" and act.bid(3, "H") == "bid:3:H"
    assert act.HIDDEN_DISCARD == "discard"


# -- build, then parse ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("code", "kind"),
    [
        (act.PASS, act.KIND_PASS),
        (act.order(), act.KIND_ORDER),
        (act.order(alone=True), act.KIND_ORDER_ALONE),
        (act.ALONE, act.KIND_ALONE),
        (act.DEFEND, act.KIND_DEFEND),
        (act.DECLARE, act.KIND_DECLARE),
        (act.THROW_UP, act.KIND_THROW_UP),
    ],
)
def test_each_word_round_trips(code, kind):
    assert act.parse(code) == act.Action(kind)
    assert act.is_declaration(code) and not act.is_card(code)


@pytest.mark.parametrize("suit", SUITS)
def test_calls_round_trip_alone_or_not(suit):
    plain, alone = act.parse(act.call(suit)), act.parse(act.call(suit, alone=True))
    assert plain == act.Action(act.KIND_CALL, suit=suit)
    assert alone == act.Action(act.KIND_CALL_ALONE, suit=suit)
    assert act.read_call(act.call(suit)) == (suit, False)
    assert act.read_call(act.call(suit, alone=True)) == (suit, True)
    assert act.suit_called(act.call(suit)) == act.suit_called(act.call(suit, True)) == suit
    assert act.is_alone(act.call(suit, True)) and not act.is_alone(act.call(suit))
    assert act.makes_trump(act.call(suit)) and act.is_call(act.call(suit, True))


@pytest.mark.parametrize("tricks", range(1, act.MAX_BID + 1))
def test_bids_round_trip_with_and_without_a_suit(tricks):
    assert act.parse(act.bid(tricks)) == act.Action(act.KIND_BID, tricks=tricks)
    for suit in SUITS:
        assert act.parse(act.bid(tricks, suit)) == act.Action(act.KIND_BID, tricks, suit)
        assert act.is_bid(act.bid(tricks, suit)) and act.is_declaration(act.bid(tricks, suit))
    assert not act.makes_trump(act.bid(tricks)) and act.suit_called(act.bid(tricks)) is None


def test_cards_round_trip_and_are_no_declarations():
    for card in make_pack("6", joker=True):
        assert act.parse(card) == act.Action(act.KIND_CARD, card=card)
        assert act.is_card(card) and not act.is_declaration(card)
        assert act.suit_called(card) is None and not act.makes_trump(card)


def test_the_hidden_discard_is_neither_card_nor_declaration():
    assert not act.is_card(act.HIDDEN_DISCARD) and not act.is_declaration(act.HIDDEN_DISCARD)
    assert act.parse(act.HIDDEN_DISCARD).kind == act.KIND_UNKNOWN


# -- what players type ------------------------------------------------------------------------


def test_parse_reads_codes_as_players_write_them():
    assert act.parse(" Pass ") == act.Action(act.KIND_PASS)
    assert act.parse("jh") == act.Action(act.KIND_CARD, card="JH")
    assert act.parse("10D") == act.Action(act.KIND_CARD, card="TD")
    assert act.parse("call:hearts") == act.Action(act.KIND_CALL, suit="H")
    assert act.parse("call:hearts:alone") == act.Action(act.KIND_CALL_ALONE, suit="H")


def test_read_call_takes_a_bare_suit_as_the_four_handed_engine_did():
    assert act.read_call("H") == ("H", False)
    assert act.read_call("hearts") == ("H", False)
    assert act.read_call("hearts:alone") == ("H", True)
    assert act.read_call("call:spades:alone") == ("S", True)


@pytest.mark.parametrize(
    "code", ["", "call:", "call:X", "call:H:alone:alone", "bid:x", "bid:3:X", "bid:", "lead"]
)
def test_bad_codes_are_unknown(code):
    assert act.parse(code).kind == act.KIND_UNKNOWN


@pytest.mark.parametrize("code", ["X", "call:X", "order", "pass", "JH", "call:H:lone"])
def test_read_call_refuses_what_names_no_suit(code):
    assert act.read_call(code) is None


def test_quick_readers_take_only_the_engine_spellings():
    # A player's spelling goes through parse or read_call; the quick readers are for the
    # engine's own codes, and say no to anything else rather than guess.
    assert act.suit_called("call:hearts") is None and act.suit_called("H") is None
    assert not act.makes_trump("Order") and not act.is_declaration("PASS")


def test_describe_gives_words_for_every_kind():
    assert act.describe(act.bid(3, "H")) == "bid three tricks in hearts"
    assert act.describe(act.bid(1)) == "bid one trick"
    assert act.describe(act.call("S")) == "name spades"
    assert act.describe(act.call("S", alone=True)) == "name spades alone"
    assert act.describe(act.ORDER_ALONE) == "order up alone"
    assert act.describe(act.ALONE) == "take it alone"
    assert act.describe(act.DEFEND) == "defend alone"
    assert act.describe("JH") == "jack of hearts"
    assert act.describe("call:X") == "that action"


# -- agreement with the engines ---------------------------------------------------------------


def _check(code: str) -> None:
    parsed = act.parse(code)
    assert act.is_card(code) == (parsed.kind == act.KIND_CARD), code
    assert act.is_declaration(code) == (parsed.kind not in (act.KIND_CARD, act.KIND_UNKNOWN))
    assert act.suit_called(code) == (
        parsed.suit if parsed.kind in (act.KIND_CALL, act.KIND_CALL_ALONE) else None
    )
    assert act.is_alone(code) == (
        parsed.kind in (act.KIND_ORDER_ALONE, act.KIND_CALL_ALONE, act.KIND_ALONE)
    )
    assert act.makes_trump(code) == (
        parsed.kind in (act.KIND_ORDER, act.KIND_ORDER_ALONE, act.KIND_CALL, act.KIND_CALL_ALONE)
    )


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_quick_readers_agree_with_parse_on_every_four_handed_code(preset):
    rng = random.Random(7)
    options = build_options(preset, joker=True, defend_alone=True, partner_alone=True)
    for n in range(40):
        deal = Deal.shuffled(options, n % 4, rng)
        while not deal.is_over:
            legal = deal.legal_actions()
            for code in legal:
                _check(code)
            deal.apply(rng.choice(legal))
        for _, code in deal.history:
            _check(code)


@pytest.mark.parametrize("name", NAMES)
def test_quick_readers_agree_with_parse_on_every_variant_code(name):
    rng = random.Random(11)
    variant = make_variant(name)
    for n in range(20):
        deal = VariantDeal.shuffled(variant, n % variant.players, rng)
        while deal.to_act is not None:
            legal = deal.legal_actions()
            for code in legal:
                _check(code)
            deal.apply(rng.choice(legal))


def test_a_game_without_lone_hands_refuses_the_alone_codes_by_kind():
    variant = make_variant("two-handed")
    deal = VariantDeal.shuffled(variant, 0, random.Random(3))
    for code in (act.ORDER_ALONE, act.ALONE, act.DEFEND):
        with pytest.raises(IllegalAction, match="is not open to you now"):
            deal.apply(code)
