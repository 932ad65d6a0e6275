"""The other variants at a Discord table: creating each with its seat counts, the table message,
bids as buttons or a select menu, set-back's throw-up, and every refusal private and changing
nothing."""

from __future__ import annotations

import copy
import json
import random

import pytest

from bot.engine.variants import NAMES, seats_allowed
from bot.engine.variants.deal import (
    BIDDING,
    DECLARE,
    DISCARD,
    PLAY,
    ROUND_ONE,
    THROW_UP,
    TRUMP,
)
from bot.tables.table import Table
from tests.bot.helpers import eventually
from tests.support.fake_discord import WAIT, FakeMember, FakeMessage
from tests.support.interactions import InteractionHarness, cards_in, enabled_ids

pytest_plugins = ["tests.support.fixtures"]

MEMBERS = ("alice", "bob", "carol", "dave", "erin", "frank", "gina")


async def seat_members(
    h: InteractionHarness, variant: str, seats: int, seed: int = 1, **options
) -> Table:
    """alice opens a `variant` table for `seats` and the next members take the other seats;
    the table's shuffle is seeded so a test can look for the deal it needs."""
    exchange = await h.command("alice", "table create", variant=variant, seats=seats, **options)
    assert exchange.ephemeral, exchange.text
    table = h.table()
    assert table is not None
    table._rng = random.Random(seed)
    for name in MEMBERS[1:seats]:
        assert (await h.command(name, "table join")).ephemeral
    assert table.full
    return table


async def start(h: InteractionHarness, variant: str, seats: int, seed: int = 1, **options) -> Table:
    table = await seat_members(h, variant, seats, seed, **options)
    assert (await h.command("alice", "table start")).ephemeral
    assert table.playing and table.variant_match is not None
    return table


def to_act(h: InteractionHarness) -> tuple[FakeMember, int]:
    seat = h.table().variant_match.to_act
    return h.member_at(seat), seat


def legal(h: InteractionHarness) -> tuple[str, ...]:
    return tuple(h.table().variant_match.legal_actions())


async def open_hand(h: InteractionHarness, member: FakeMember) -> FakeMessage:
    table = h.table()
    exchange = await h.click(member, f"euchre:table:{table.id}:hand")
    assert exchange.ephemeral and exchange.reply.visible_to == member.id
    return exchange.reply


def action_buttons(hand: FakeMessage) -> set[str]:
    """The actions of a hand's enabled buttons."""
    return {cid.split(":", 5)[5] for cid in enabled_ids(hand, "euchre:hand:")}


async def click_action(h: InteractionHarness, action: str) -> None:
    """The member to act opens the hand and clicks `action`'s button."""
    member, _ = to_act(h)
    hand = await open_hand(h, member)
    wanted = [cid for cid in enabled_ids(hand, "euchre:hand:") if cid.split(":", 5)[5] == action]
    assert wanted, (action, hand.custom_ids)
    exchange = await h.click(member, wanted[0], message=hand)
    assert exchange.ephemeral


async def refused(h: InteractionHarness, member: FakeMember | str, name: str, **options) -> str:
    async with h.unchanged():
        exchange = await h.command(member, name, **options)
    assert exchange.ephemeral
    return exchange.text.lower()


# -- creating a table ------------------------------------------------------------------------


@pytest.mark.parametrize("variant", NAMES)
async def test_create_each_variant_with_its_most_seats_and_the_table_message_names_them(
    interactions, variant: str
):
    h = interactions
    seats = seats_allowed(variant)[1]
    table = await seat_members(h, variant, seats)
    assert len(table.seats) == seats and table.variant.name == variant
    text = h.table_message().text
    names = [f"Seat {n}" for n in range(1, seats + 1)] if seats != 4 else ["North", "West"]
    assert all(name in text for name in names), text
    assert (await h.command("alice", "table start")).ephemeral
    text = h.table_message().text
    assert "Score" in text and "Turn" in text and "deals first" in h.public_messages()[-2].text


async def test_create_with_the_fewest_seats_of_napoleon_and_set_back(interactions):
    h = interactions
    exchange = await h.command("alice", "table create", variant="napoleon", seats=2)
    assert "2 players" in exchange.text and len(h.table().seats) == 2


@pytest.mark.parametrize(
    ("variant", "seats", "allowed"),
    [("two-handed", 3, "2 players"), ("french", 6, "4 players"), ("set-back", 7, "2 to 6")],
)
async def test_a_seat_count_the_variant_does_not_allow_is_refused_naming_the_allowed(
    interactions, variant: str, seats: int, allowed: str
):
    h = interactions
    text = await refused(h, "alice", "table create", variant=variant, seats=seats)
    assert allowed in text and h.table() is None


async def test_four_handed_takes_only_four_seats_and_keeps_the_compass(interactions):
    h = interactions
    text = await refused(h, "alice", "table create", variant="four-handed", seats=6)
    assert "4 players" in text and h.table() is None
    exchange = await h.command("alice", "table create", variant="four-handed", seats=4)
    assert "north" in exchange.text and h.table().variant is None


async def test_four_handed_rule_options_are_refused_at_a_variant_table(interactions):
    h = interactions
    text = await refused(h, "alice", "table create", variant="french", preset="jerome")
    assert "four-handed" in text and h.table() is None


@pytest.mark.parametrize("variant", sorted(NAMES))
async def test_hints_asked_for_at_a_variant_table_are_refused_at_create(interactions, variant):
    """The coach knows four-handed euchre only: a variant's table is not opened promising
    hints it would refuse; left unset (or off) the table opens as before."""
    h = interactions
    seats = min(seats_allowed(variant))
    text = await refused(h, "alice", "table create", variant=variant, seats=seats, hints=True)
    assert text.startswith("hints are for four-handed euchre") and "hints left out" in text
    assert h.table() is None
    for hints in ({}, {"hints": False}):
        exchange = await h.command("alice", "table create", variant=variant, seats=seats, **hints)
        assert exchange.ephemeral and "Your table is open" in exchange.text, exchange.text
        table = h.table()
        assert table.variant is not None
        await h.manager.close_table(table.channel_id, table.host_id)


async def test_hint_at_a_variant_table_names_the_game_played_there(interactions):
    """A variant's table plays without hints: /hint there says which game it plays."""
    h = interactions
    await start(h, "napoleon", 4)
    member, _ = to_act(h)
    text = await refused(h, member, "hint")
    assert text == "hints are for four-handed euchre: napoleon is played without them", text


async def test_hints_asked_for_at_four_handed_named_as_the_game_are_given(interactions):
    h = interactions
    exchange = await h.command("alice", "table create", variant="four-handed", hints=True)
    assert "Your table is open" in exchange.text and h.table().hints_allowed


async def test_six_handed_partnerships_alternate_round_the_table(interactions):
    h = interactions
    await start(h, "six-handed", 6)
    text = "\n".join(m.text for m in h.public_messages())
    assert "Seats 1, 3, 5: alice, carol, erin" in text and "seats 2, 4, 6: bob, dave, frank" in text


# -- bids as buttons and a select menu -------------------------------------------------------


async def test_french_bids_are_buttons_and_only_higher_bids_are_offered(interactions):
    h = interactions
    await start(h, "french", 4)
    member, _ = to_act(h)
    hand = await open_hand(h, member)
    assert action_buttons(hand) == {"pass", "bid:1", "bid:2", "bid:3", "bid:4", "bid:5"}
    cards = [cid for cid in hand.custom_ids if len(cid.rsplit(":", 1)[1]) == 2]
    assert len(cards) == 5 and not any(cid in enabled_ids(hand) for cid in cards)
    await click_action(h, "bid:2")
    member, _ = to_act(h)
    assert action_buttons(await open_hand(h, member)) == {"pass", "bid:3", "bid:4", "bid:5"}
    assert "bid two" in h.table_message().text
    # Every public message was checked against the hands and the kitty (24 cards).
    assert len(h.hidden_cards()) == 24 and h.public_checked and h.leaks == []


async def test_six_handed_bids_are_one_select_of_twenty_one_choices(interactions):
    h = interactions
    table = await start(h, "six-handed", 6)
    member, seat = to_act(h)
    hand = await open_hand(h, member)
    picks = [cid for cid in hand.custom_ids if cid.startswith("euchre:pick:")]
    assert len(picks) == 1
    options = [o["value"] for o in hand.component(picks[0])["options"]]
    assert len(options) == 21 and set(options) == set(legal(h))
    assert len(hand.components) <= 5
    await h.click(member, picks[0], message=hand, values=["bid:2:H"])
    assert table.variant_match.deal.declarations[0] == (seat, "bid:2:H")
    # The next bidder is offered only higher bids.
    member, _ = to_act(h)
    hand = await open_hand(h, member)
    pick = next(cid for cid in hand.custom_ids if cid.startswith("euchre:pick:"))
    offered = {o["value"] for o in hand.component(pick)["options"]}
    assert "bid:2:S" not in offered and "bid:3:S" in offered


async def test_the_highest_bidder_names_trump_with_suit_buttons(interactions):
    h = interactions
    table = await start(h, "french", 4)
    await click_action(h, "bid:5")  # five ends the bidding
    assert table.variant_match.deal.phase == TRUMP
    member, _ = to_act(h)
    assert action_buttons(await open_hand(h, member)) == {"call:S", "call:H", "call:D", "call:C"}
    await click_action(h, "call:H")
    assert table.variant_match.deal.trump == "H" and table.variant_match.deal.phase == PLAY


# -- bad input -------------------------------------------------------------------------------


async def test_a_bid_out_of_turn_is_refused(interactions):
    h = interactions
    table = await start(h, "french", 4)
    waiting = h.member_at((table.variant_match.to_act + 1) % 4)
    assert "not your turn" in await refused(h, waiting, "bid", tricks=2)


async def test_a_bid_not_higher_than_the_last_is_refused(interactions):
    h = interactions
    await start(h, "napoleon", 3)
    member, _ = to_act(h)
    assert (await h.command(member, "bid", tricks=3)).ephemeral
    member, _ = to_act(h)
    assert "higher than three" in await refused(h, member, "bid", tricks=3)
    assert "higher than three" in await refused(h, member, "bid", tricks=2)


async def test_a_bid_above_five_is_refused(interactions):
    h = interactions
    await start(h, "french", 4)
    member, _ = to_act(h)
    assert "above five" in await refused(h, member, "bid", tricks=6)


async def test_a_suit_named_where_the_variant_takes_none_is_refused(interactions):
    h = interactions
    await start(h, "french", 4)
    member, _ = to_act(h)
    assert "names no suit" in await refused(h, member, "bid", tricks=2, suit="hearts")


async def test_a_six_handed_bid_without_its_suit_is_refused(interactions):
    h = interactions
    await start(h, "six-handed", 6)
    member, _ = to_act(h)
    assert "names its trump suit" in await refused(h, member, "bid", tricks=2)


async def test_a_bid_at_a_turn_up_variant_is_refused_with_what_is_open(interactions):
    h = interactions
    table = await start(h, "two-handed", 2)
    assert table.variant_match.deal.phase == ROUND_ONE
    member, _ = to_act(h)
    assert "order up the turn-up" in await refused(h, member, "bid", tricks=2)


# -- set-back: throwing up a hand -------------------------------------------------------------


async def reach_throw_up(h: InteractionHarness) -> Table:
    """Two at set-back: the eldest orders up, the dealer discards, and the dealer (the only
    other player) may now throw up his hand."""
    table = await start(h, "set-back", 2)
    deal = table.variant_match.deal
    await click_action(h, "order")
    assert deal.phase == DISCARD
    member, _ = to_act(h)
    hand = await open_hand(h, member)
    discard = enabled_ids(hand, "euchre:hand:")[0]
    await h.click(member, discard, message=hand)
    assert deal.phase == THROW_UP and deal.to_act == deal.dealer
    return table


async def test_set_back_throw_up_is_a_button_and_throws_the_hand_up(interactions):
    h = interactions
    table = await reach_throw_up(h)
    deal = table.variant_match.deal
    member, seat = to_act(h)
    hand = await open_hand(h, member)
    assert action_buttons(hand) == {"throw_up", "pass"}
    throw = next(cid for cid in enabled_ids(hand) if cid.endswith(":throw_up"))
    await h.click(member, throw, message=hand)
    # Two players, one threw up: the maker plays alone and the deal ends as he plays.
    assert seat in deal.thrown or deal.result is not None and seat in deal.result.thrown
    assert "threw up" in "\n".join(m.text for m in h.public_messages()).lower()


async def test_set_back_throw_up_after_the_first_lead_is_refused(interactions):
    h = interactions
    table = await reach_throw_up(h)
    deal = table.variant_match.deal
    member, _ = to_act(h)
    hand = await open_hand(h, member)
    old = copy.deepcopy(hand)  # the hand as drawn with its throw-up button
    await click_action(h, "pass")
    assert deal.phase == PLAY
    leader, _ = to_act(h)
    lead = await open_hand(h, leader)
    await h.click(leader, enabled_ids(lead, "euchre:hand:")[0], message=lead)
    assert to_act(h)[0] is member and deal.phase == PLAY and deal.trick
    throw = next(cid for cid in enabled_ids(old) if cid.endswith(":throw_up"))
    async with h.unchanged():
        exchange = await h.click(member, throw, message=old)
    assert "before the first lead" in exchange.text.lower()


# -- Napoleon: the deal ends when the bid is settled ------------------------------------------


async def test_napoleons_maker_playing_on_after_the_deal_ended_gets_a_stale_answer(interactions):
    h = interactions
    for seed in range(1, 30):
        if h.table() is not None:
            table = h.table()
            await h.manager.close_table(table.channel_id, table.host_id)
        table = await start(h, "napoleon", 2, seed=seed)
        match = table.variant_match
        deal = match.deal
        await h.command(to_act(h)[0], "bid", tricks=1)
        await h.command(to_act(h)[0], "pass")
        assert deal.phase == TRUMP
        await click_action(h, "call:S")
        maker = deal.maker
        kept: FakeMessage | None = None
        while match.deal is deal:
            member, seat = to_act(h)
            hand = await open_hand(h, member)
            if seat == maker:
                kept = copy.deepcopy(hand)
            await h.click(member, enabled_ids(hand, "euchre:hand:")[0], message=hand)
        if not deal.ended_early or kept is None or deal.hands[maker] == []:
            continue
        card = next(cid for cid in kept.custom_ids if cid.rsplit(":", 1)[1] in deal.hands[maker])
        assert match.deal is not deal and match.deal.phase == BIDDING
        async with h.unchanged():
            exchange = await h.click(h.member_at(maker), card, message=kept)
        assert "earlier deal" in exchange.text
        return
    raise AssertionError("no Napoleon deal ended early")


# -- results: /stats variant:, /history, /record ----------------------------------------------


async def play_out(h: InteractionHarness, table: Table, rng: random.Random) -> None:
    """Members take random legal actions, by the buttons of their hands, to the game's end."""
    for _ in range(2000):
        if not table.playing:
            return
        member, _ = to_act(h)
        hand = await open_hand(h, member)
        chosen = rng.choice(legal(h))
        ids = [cid for cid in enabled_ids(hand, "euchre:hand:") if cid.endswith(":" + chosen)]
        picks = [cid for cid in hand.custom_ids if cid.startswith("euchre:pick:")]
        if ids:
            await h.click(member, ids[0], message=hand)
        else:
            await h.click(member, picks[0], message=hand, values=[chosen])
    raise AssertionError("the game did not end")


async def test_a_finished_variant_game_is_on_stats_history_and_record(
    interactions, tmp_path, capsys
):
    from bot.engine.variants.records import variant_match_from_record
    from tests.test_cli import run

    h = interactions
    table = await start(h, "two-handed", 2, points=1)
    await play_out(h, table, random.Random(2))
    match = table.variant_match
    winner = h.member_at(match.winner)
    assert any("wins the game" in m.text for m in h.public_messages())
    board = (await h.command("carol", "stats", variant="two-handed", member=winner)).reply
    assert "Two-handed euchre: leaderboard" in board.text
    points = match.scores[match.winner]
    assert f"Rank 1: 1 won of 1, {points} point" in board.text
    history = (await h.command(winner, "history")).reply
    game_id = next(w for w in history.text.replace("*", " ").split() if w.startswith("V"))
    assert "Two-handed euchre, 2 players: won" in history.text
    record = (await h.command("carol", "record", game_id=game_id)).reply
    assert record.attachments[0].filename == f"euchre-{game_id}.json"
    replayed, names = variant_match_from_record(json.loads(record.attachments[0].data))
    assert replayed.scores == match.scores and set(names) == {"alice", "bob"}
    path = tmp_path / "game.json"
    path.write_bytes(record.attachments[0].data)
    code, out, _ = run(capsys, "replay", str(path), "--json")
    assert code == 0 and json.loads(out)["final_score"] == match.scores
    # Variant games are never mixed into the four-handed rubbers and games.
    assert await h.bot.db.fetchval("SELECT COUNT(*) FROM matches") == 0


async def test_a_game_with_computers_counts_only_when_computers_are_included(interactions):
    h = interactions
    assert (await h.command("alice", "table create", variant="two-handed", points=1)).ephemeral
    table = h.table()
    assert (await h.command("alice", "table addbot", level="standard")).ephemeral
    assert (await h.command("alice", "table start")).ephemeral
    alice = table.seat_of(h.member("alice").id)
    for _ in range(2000):  # alice's turns: a bound on the game's length, never on time
        # The computer's move is a task of its own: wait for its effect, not for a count of
        # loops (under load it may not have started when the loop comes round).
        await eventually(
            lambda: not table.playing or table.variant_match.to_act == alice,
            WAIT,
            "alice's turn or the end of the game",
        )
        if not table.playing:
            break
        taken = len(table.actions)
        if "pass" in legal(h):
            await h.command("alice", "pass")
        else:  # a card: her discard, when the computer ordered up her turn-up, or her play
            phase = table.variant_match.deal.phase
            command = "discard" if phase == DISCARD else "play"
            await h.command("alice", command, card=legal(h)[0])
        assert len(table.actions) > taken or not table.playing  # accepted, not refused
    assert not table.playing
    without = (await h.command("alice", "stats", variant="two-handed")).reply
    assert "No Two-handed euchre game of theirs counts here" in without.text
    assert "without computers or substitutes (`include_bots`)" in without.text
    counted = (await h.command("alice", "stats", variant="two-handed", include_bots=True)).reply
    assert "Rank 1" in counted.text


async def test_record_of_an_unknown_variant_game_is_refused(interactions):
    h = interactions
    assert "no game v77" in await refused(h, "alice", "record", game_id="V77")


async def test_play_autocomplete_offers_the_legal_cards_and_discard_in_the_play_is_refused(
    interactions,
):
    h = interactions
    table = await start(h, "french", 4)
    await click_action(h, "bid:5")
    await click_action(h, "call:H")
    member, _ = to_act(h)
    choices = await h.autocomplete(member, "play", "card", "")
    assert {c["value"] for c in choices} == set(legal(h))
    assert "play a card with /play" in await refused(h, member, "discard", card=legal(h)[0])
    assert table.variant_match.deal.phase == PLAY


async def test_a_seat_the_table_does_not_have_is_refused(interactions):
    h = interactions
    assert (await h.command("alice", "table create", variant="two-handed")).ephemeral
    assert "2 seats, seat 1 or seat 2" in await refused(h, "bob", "table join", seat="south")
    assert "2 seats, seat 1 or seat 2" in await refused(h, "alice", "table addbot", seat="west")
    assert "seat 2" in (await h.command("bob", "table join")).text


async def test_a_finished_deal_has_a_review_of_every_card(interactions):
    h = interactions
    table = await start(h, "three-handed", 3)
    deal = table.variant_match.deal
    rng = random.Random(4)
    while table.variant_match.deal is deal:  # the first deal, to its end
        await click_action(h, rng.choice(legal(h)))
    review_id = f"euchre:review:{table.id}:{table.match_no}:1"
    exchange = await h.click("erin", review_id)
    reply = exchange.reply
    assert reply.ephemeral and "Review of deal 1" in reply.text
    assert all(card in cards_in(reply.text) for hand in deal.dealt for card in hand)


async def test_rules_at_a_variant_table_are_the_variants_own(interactions):
    h = interactions
    assert (await h.command("alice", "table create", variant="set-back", seats=3)).ephemeral
    exchange = await h.command("bob", "rules")
    assert exchange.ephemeral and "Rules: Set-back euchre" in exchange.text
    assert "throw up" in exchange.text and "first down to 0 wins" in exchange.text


# -- the variants' own options at /table create -----------------------------------------------


async def test_set_back_options_at_create_show_on_the_table_message_and_rules(interactions):
    h = interactions
    await seat_members(h, "set-back", 3, declare_all=True, euchre_deducts=True)
    variant = h.table().variant
    assert variant.declare_all and variant.euchre_deducts
    text = h.table_message().text
    assert "may declare all five" in text and "each adversary deduct 2" in text
    rules = (await h.command("bob", "rules")).text
    assert "may declare all five" in rules and "each adversary deduct 2" in rules


async def test_set_back_without_its_options_shows_neither(interactions):
    h = interactions
    await seat_members(h, "set-back", 3)
    text = h.table_message().text
    assert "declare all five" not in text and "deduct 2" not in text


async def test_napoleon_rounds_at_create_sets_how_often_each_deals(interactions):
    h = interactions
    await seat_members(h, "napoleon", 3, rounds=2)
    assert h.table().variant.rounds == 2
    assert "the most chips after 6 deals (each deals 2 times)" in h.table_message().text
    assert "each deals 2 times" in (await h.command("bob", "rules")).text


@pytest.mark.parametrize(
    ("variant", "option", "owner"),
    [
        ("french", {"rounds": 2}, "napoleon"),
        ("napoleon", {"declare_all": True}, "set-back"),
        ("two-handed", {"euchre_deducts": True}, "set-back"),
        ("set-back", {"points": 7}, "two-handed"),
    ],
)
async def test_an_option_the_variant_does_not_have_is_refused_naming_who_has_it(
    interactions, variant: str, option: dict, owner: str
):
    h = interactions
    text = await refused(h, "alice", "table create", variant=variant, **option)
    key = next(iter(option))
    assert f"{variant} has no option '{key}'" in text and owner in text and h.table() is None


@pytest.mark.parametrize(
    "option", [{"rounds": 3}, {"declare_all": True}, {"euchre_deducts": False}]
)
async def test_a_variant_option_is_refused_at_four_handed(interactions, option: dict):
    h = interactions
    for game in ({}, {"variant": "four-handed"}):
        text = await refused(h, "alice", "table create", **game, **option)
        assert f"four-handed euchre has no option '{next(iter(option))}'" in text
        assert h.table() is None


async def test_set_back_declare_all_five_is_a_button_the_maker_presses(interactions):
    h = interactions
    table = await start(h, "set-back", 2, declare_all=True)
    deal = table.variant_match.deal
    maker, maker_seat = to_act(h)
    await click_action(h, "order")
    dealer, _ = to_act(h)
    hand = await open_hand(h, dealer)
    await h.click(dealer, enabled_ids(hand, "euchre:hand:")[0], message=hand)
    assert deal.phase == DECLARE and deal.to_act == maker_seat
    hand = await open_hand(h, maker)
    assert action_buttons(hand) == {"declare", "pass"}
    labels = [str(b.get("label", "")).lower() for b in hand.buttons]
    assert any("all five" in label for label in labels), labels
    await click_action(h, "declare")
    assert deal.declared and deal.phase != DECLARE
    assert "declare" in h.table_message().text.lower()


# -- numbered seats in commands ---------------------------------------------------------------


async def test_join_and_addbot_take_numbered_seats_at_a_table_not_of_four(interactions):
    h = interactions
    assert (await h.command("alice", "table create", variant="napoleon", seats=5)).ephemeral
    assert "seat 3" in (await h.command("bob", "table join", seat="seat 3")).text
    assert "seat 5" in (await h.command("carol", "table join", seat="5")).text
    assert "seat 2" in (await h.command("alice", "table addbot", seat="Seat 2")).text
    table = h.table()
    assert table.seat_of(h.member("bob").id) == 2 and table.seat_of(h.member("carol").id) == 4
    assert table.seats[1] is not None and table.seats[1].is_bot


@pytest.mark.parametrize("seat", ["seat 6", "6", "south", "seat 0", "seat three"])
async def test_a_seat_the_table_does_not_have_is_refused_naming_its_seats(interactions, seat):
    h = interactions
    assert (await h.command("alice", "table create", variant="napoleon", seats=5)).ephemeral
    for name, command in (("bob", "table join"), ("alice", "table addbot")):
        text = await refused(h, name, command, seat=seat)
        assert "this table has 5 seats, seat 1 to seat 5" in text, text


async def test_seat_autocomplete_offers_the_free_numbered_seats(interactions):
    h = interactions
    assert (await h.command("alice", "table create", variant="napoleon", seats=5)).ephemeral
    assert (await h.command("bob", "table join", seat="seat 3")).ephemeral
    for command in ("table join", "table addbot"):
        offered = [c["value"] for c in await h.autocomplete("carol", command, "seat", "")]
        assert offered == ["seat 2", "seat 4", "seat 5"]
        assert [c["value"] for c in await h.autocomplete("carol", command, "seat", "4")] == [
            "seat 4"
        ]


async def test_seat_autocomplete_keeps_the_compass_at_four_handed(interactions):
    h = interactions
    assert (await h.command("alice", "table create")).ephemeral
    offered = [c["value"] for c in await h.autocomplete("bob", "table join", "seat", "")]
    assert offered == ["east", "south", "west"]
    assert [c["value"] for c in await h.autocomplete("bob", "table join", "seat", "so")] == [
        "south"
    ]
    assert "seat 3" not in offered and "choose north" in await refused(
        h, "bob", "table join", seat="seat 3"
    )


async def test_rules_of_a_topic_at_a_variant_table_say_why_the_whole_game_is_shown(interactions):
    """The topics of /rules are four-handed euchre's: asked for one at Napoleon's table, the
    answer says it shows that game's rules in full, privately; with no topic it says nothing
    more."""
    h = interactions
    await seat_members(h, "napoleon", 4)
    asked = await h.command("bob", "rules", topic="lone")
    assert asked.ephemeral
    assert asked.text.startswith("This table plays **Napoleon**: the topics of /rules are")
    assert "Rules: Napoleon" in asked.text
    plain = await h.command("bob", "rules")
    assert "topics of /rules" not in plain.text and "Rules: Napoleon" in plain.text
