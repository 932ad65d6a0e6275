"""/hand, the declarations and the play, by slash command and by the hand's buttons, with every
refusal private and changing nothing. Any deal will do: choices are read from the engine."""

from __future__ import annotations

import copy

from bot.engine.cards import SUIT_NAMES
from bot.engine.deal import DEFEND_ALONE, DISCARD, PARTNER_ALONE, PLAY, ROUND_ONE, ROUND_TWO
from tests.interaction.helpers import (
    act,
    action_ids,
    close_table,
    command_for,
    hand_of,
    legal,
    making_choice,
    open_hand,
    start_four,
    to_act,
)
from tests.support.fake_discord import CALLBACK_UPDATE_MESSAGE, FakeMember
from tests.support.interactions import InteractionHarness, cards_in, enabled_ids

pytest_plugins = ["tests.support.fixtures"]


async def refused(
    h: InteractionHarness, member: FakeMember | str, command: str, /, **options
) -> str:
    async with h.unchanged():
        exchange = await h.command(member, command, **options)
    return exchange.text.lower()


def assert_hand_shown(h: InteractionHarness, text: str, seat: int) -> None:
    """A hand message shows the seat's own cards, and of the rest only what is public."""
    deal = h.table().match.deal
    own = set(deal.hands[seat])
    played = {c for _, trick in deal.tricks for _, c in trick}
    public = {deal.turn_up} | {c for _, c in deal.trick} | played
    if seat == deal.dealer and deal.discarded:
        public.add(deal.discarded)  # the dealer's own discard, shown to the dealer only
    shown = cards_in(text)
    assert own <= shown, (own, text)
    assert shown - own <= public, f"{sorted(shown - own - public)} of another hand shown: {text}"


# -- seeing one's hand --------------------------------------------------------------------


async def test_hand_is_private_and_shows_only_the_holders_cards(interactions):
    h = interactions
    table = await start_four(h)
    for seat in range(4):
        member = h.member_at(seat)
        exchange = await h.command(member, "hand")
        reply = exchange.reply
        assert reply.ephemeral and reply.visible_to == member.id
        assert_hand_shown(h, reply.text, seat)
        # One button per card of the hand, and no other card's.
        cards = [
            cid.rsplit(":", 1)[1] for cid in reply.custom_ids if len(cid.rsplit(":", 1)[1]) == 2
        ]
        assert sorted(cards) == sorted(hand_of(h, seat))
        # Declarations only for the seat to act; cards are not playable in the bidding.
        actions = set(action_ids(reply))
        assert actions == (set(legal(h)) if seat == table.match.to_act else set())
    assert "not seated" in await refused(h, "erin", "hand")


async def test_my_hand_button_for_a_player_and_for_an_onlooker(interactions):
    h = interactions
    table = await start_four(h)
    member, seat = to_act(h)
    hand = await open_hand(h, member)
    assert_hand_shown(h, hand.text, seat)
    async with h.unchanged():
        exchange = await h.click("erin", f"euchre:table:{table.id}:hand")
    assert "only the players seated" in exchange.text.lower()


async def test_hand_before_the_game_starts_is_refused(interactions):
    h = interactions
    await h.command("alice", "table create")
    assert "no game" in await refused(h, "alice", "hand")
    assert "no game" in await refused(h, "alice", "pass")


# -- declarations by slash command ---------------------------------------------------------


async def test_a_deal_played_by_slash_commands(interactions):
    h = interactions
    table = await start_four(h, points=1)
    deal = table.match.deal
    seen_phases = set()
    while table.match.deal is deal and table.playing:
        member, seat = to_act(h)
        phase = deal.phase
        seen_phases.add(phase)
        chosen = making_choice(legal(h))
        before = len(table.actions)
        exchange = await act(h, chosen)
        # Stored before the answer, and the answer is the member's own hand as it now is.
        assert table.actions[before] == (seat, chosen)
        stored = await h.bot.db.fetchval(
            "SELECT action FROM table_events WHERE table_id = ? AND kind = 'game' ORDER BY seq DESC LIMIT 1",
            (table.id,),
        )
        assert stored == chosen
        if table.match.deal is deal:
            assert_hand_shown(h, exchange.text, seat)
    assert {ROUND_ONE, PLAY} <= seen_phases
    # The hand's result is announced in public; a one-point game is then over.
    assert any("Tricks" in m.text for m in h.public_messages())
    assert not table.playing and any("win the game" in m.text for m in h.public_messages())
    assert (
        await h.bot.db.fetchval("SELECT status FROM matches WHERE id = ?", (table.match_id,))
        == "finished"
    )


async def test_refusals_while_bidding(interactions):
    h = interactions
    table = await start_four(h, preset="somerset")
    member, seat = to_act(h)
    other = h.member_at((seat + 1) % 4)
    assert "not your turn" in await refused(h, other, "pass")
    assert "not your turn" in await refused(h, other, "order")
    assert "not seated" in await refused(h, "erin", "pass")
    # Declarations that are not open in the first round.
    turn_up_suit = table.match.deal.turn_up[1]
    suit = SUIT_NAMES[turn_up_suit]
    assert f"{suit} cannot be named now: in the first round" in await refused(
        h, member, "call", suit=suit
    )
    assert "cannot take it alone from your partner now" in await refused(h, member, "alone")
    # A card in the bidding: what is going on, and the commands open now.
    for command in ("play", "discard"):
        text = await refused(h, member, command, card=hand_of(h, seat)[0])
        assert "the bidding is on" in text and "use /pass or /order" in text, text
        text = await refused(h, other, command, card=hand_of(h, (seat + 1) % 4)[0])
        assert "the bidding is on" in text and "wait for your turn" in text, text
    assert "unknown suit" in await refused(h, member, "call", suit="purple")
    assert "unknown card" in await refused(h, member, "play", card="zz")
    # Round two: ordering the turn-up is over, and naming the turned-down suit is a pass.
    for _ in range(4):
        await act(h, "pass")
    assert table.match.deal.phase == ROUND_TWO
    member, seat = to_act(h)
    assert "the turn-up cannot be ordered now" in await refused(h, member, "order")
    text = await refused(h, member, "play", card=hand_of(h, seat)[0])
    assert "the bidding is on" in text and "use /pass or /call" in text, text
    await h.command(member, "call", suit=SUIT_NAMES[turn_up_suit])
    assert table.actions[-1] == (seat, "pass")


async def test_stick_the_dealer_refuses_the_dealers_pass(interactions):
    h = interactions
    table = await start_four(h)  # modern rules stick the dealer
    turn_up_suit = table.match.deal.turn_up[1]
    for _ in range(7):
        await act(h, "pass")
    dealer, seat = to_act(h)
    assert seat == table.match.deal.dealer
    assert "must name a trump" in await refused(h, dealer, "pass")
    assert "must name another suit" in await refused(
        h, dealer, "call", suit=SUIT_NAMES[turn_up_suit]
    )
    other = next(s for s in ("H", "D", "S", "C") if s != turn_up_suit)
    exchange = await h.command(dealer, "call", suit=SUIT_NAMES[other], alone=True)
    assert exchange.ephemeral and table.match.deal.trump == other and table.match.deal.alone == seat
    assert "alone" in h.table_message().text


async def test_order_alone_by_slash_command(interactions):
    h = interactions
    table = await start_four(h)
    member, seat = to_act(h)
    exchange = await h.command(member, "order", alone=True)
    deal = table.match.deal
    assert exchange.ephemeral and deal.maker == seat and deal.alone == seat
    assert table.actions[-1] == (seat, "order:alone")
    assert "alone" in h.table_message().text


async def test_order_take_it_alone_discard_and_defend_alone(interactions):
    # Somerset with defending alone: the eldest orders up, the partner takes it alone, the
    # dealer discards, and the first adversary defends alone, all by slash command.
    h = interactions
    table = await start_four(h, preset="somerset", defend_alone=True)
    deal = table.match.deal
    eldest, dealer = (deal.dealer + 1) % 4, deal.dealer
    partner, first_adversary = (eldest + 2) % 4, (dealer + 2) % 4
    await h.command(h.member_at(eldest), "order")
    assert deal.phase == PARTNER_ALONE and deal.to_act == partner
    assert "not your turn" in await refused(h, h.member_at(eldest), "alone")
    text = await refused(h, h.member_at(partner), "play", card=hand_of(h, partner)[0])
    assert "may take it alone" in text and "use /alone or /pass" in text, text
    await h.command(h.member_at(partner), "alone")
    assert deal.alone == partner and deal.sitting_out == (eldest,)
    assert deal.phase == DISCARD and deal.to_act == dealer
    # A declaration while the dealer discards: trump is made, and each is told what to do.
    text = await refused(h, h.member_at(dealer), "pass")
    assert (
        "dealer discards now" in text and "use /discard" in text and "unknown card" not in text
    ), text
    assert "wait for your turn" in await refused(h, h.member_at(partner), "pass")
    assert "you sit out this hand" in await refused(h, h.member_at(eldest), "order")
    # The turn-up cannot be discarded (S.88), nor a card the dealer does not hold.
    assert "turn-up cannot be discarded" in await refused(
        h, h.member_at(dealer), "discard", card=deal.turn_up
    )
    stranger = next(c for c in deal.hands[eldest] if c not in deal.hands[dealer])
    assert "do not hold" in await refused(h, h.member_at(dealer), "discard", card=stranger)
    assert "use /discard" in await refused(h, h.member_at(dealer), "play", card=legal(h)[0])
    discard = legal(h)[0]
    exchange = await h.command(h.member_at(dealer), "discard", card=discard)
    assert "You discarded" in exchange.text and discard not in deal.hands[dealer]
    assert deal.phase == DEFEND_ALONE and deal.to_act == first_adversary
    text = await refused(
        h, h.member_at(first_adversary), "play", card=hand_of(h, first_adversary)[0]
    )
    assert "defend alone" in text and "use /alone or /pass" in text, text
    await h.command(h.member_at(first_adversary), "alone")
    assert deal.defender == first_adversary and deal.phase == PLAY
    text = h.table_message().text
    assert "took it alone" in text and "defends alone" in text and "discarded" in text
    # Two play it out, one against one, and the hand is scored as such.
    while table.match.deal is deal:
        await act(h)
    assert deal.result.alone == partner and deal.result.defender == first_adversary
    assert sum(deal.result.tricks) == 5
    assert any("Tricks" in m.text for m in h.public_messages())


async def test_refusals_while_playing(interactions):
    # Play on (any deal) until the seat to act holds a card it may not play; then every
    # kind of wrong card is refused.
    h = interactions
    table = await start_four(h)
    for _ in range(300):
        deal = table.match.deal
        if deal.phase == PLAY:
            member, seat = to_act(h)
            unplayable = [c for c in hand_of(h, seat) if c not in legal(h)]
            if unplayable:
                break
        await act(h)
    else:
        raise AssertionError("no seat was ever held to follow suit")
    elsewhere = next(c for s in range(4) if s != seat for c in hand_of(h, s))
    assert "must follow" in await refused(h, member, "play", card=unplayable[0])
    assert "do not hold" in await refused(h, member, "play", card=elsewhere)
    assert "unknown card" in await refused(h, member, "play", card="eleven of cups")
    assert "not your turn" in await refused(
        h, h.member_at(seat ^ 1), "play", card=hand_of(h, seat ^ 1)[0]
    )
    # /discard is not /play: it is refused during the play, whatever the card.
    assert "nothing to discard" in await refused(h, member, "discard", card=legal(h)[0])
    # A card written another way is played: the code, lower case.
    card = legal(h)[0]
    await h.command(member, "play", card=card.lower())
    assert table.actions[-1] == (seat, card)


async def test_declarations_during_the_play_are_refused_with_what_to_do(interactions):
    # Every declaration command, by the seat to play, by a seat waiting its turn and by the
    # partner of a lone hand: each is told the bidding is over (never "unknown card 'pass'"),
    # privately, and nothing changes.
    h = interactions
    table = await start_four(h, preset="somerset")
    deal = table.match.deal
    eldest = (deal.dealer + 1) % 4
    await h.command(h.member_at(eldest), "order", alone=True)
    while deal.phase != PLAY:
        await act(h)
    member, seat = to_act(h)
    waiting = next(s for s in range(4) if s != seat and s not in deal.sitting_out)
    (sitting_out,) = deal.sitting_out
    suit = SUIT_NAMES[deal.trump]
    declarations = [
        ("pass", {}),
        ("order", {}),
        ("order", {"alone": True}),
        ("call", {"suit": suit}),
        ("call", {"suit": suit, "alone": True}),
        ("alone", {}),
    ]
    for command, options in declarations:
        text = await refused(h, member, command, **options)
        assert "the bidding is over" in text and "use /play or the buttons in /hand" in text, (
            command,
            text,
        )
        assert "unknown card" not in text
        text = await refused(h, h.member_at(waiting), command, **options)
        assert "the bidding is over" in text and "wait for your turn" in text, (command, text)
        text = await refused(h, h.member_at(sitting_out), command, **options)
        assert "the bidding is over" in text and "you sit out this hand" in text, (command, text)
    # The play goes on as before.
    card = legal(h)[0]
    await h.command(member, "play", card=card)
    assert table.actions[-1] == (seat, card)


async def test_a_declaration_button_from_the_bidding_clicked_in_the_play(interactions):
    # A hand opened in the bidding keeps its declaration buttons; clicked once the play has
    # begun, it shows the hand as it is now with why, and nothing changes.
    h = interactions
    table = await start_four(h, preset="somerset", partner_alone=False)
    deal = table.match.deal
    member, seat = to_act(h)
    old_hand = await open_hand(h, member)
    old_pass = action_ids(old_hand)["pass"]
    stale = copy.deepcopy(old_hand)  # as a client that missed the hand's edits sees it
    await h.command(member, "order")
    while deal.phase != PLAY:
        await act(h)
    assert deal.to_act == seat  # the eldest leads
    async with h.unchanged():
        exchange = await h.click(member, old_pass, message=stale)
    assert exchange.response_type == CALLBACK_UPDATE_MESSAGE and exchange.reply.id == old_hand.id
    assert "The bidding is over" in exchange.text and "unknown card" not in exchange.text
    assert_hand_shown(h, exchange.text, seat)
    assert set(action_ids(exchange.reply)) == set(legal(h))


# -- the hand's buttons --------------------------------------------------------------------


async def test_a_game_played_with_the_buttons(interactions):
    h = interactions
    table = await start_four(h, points=1)
    clicks = 0
    while table.playing:
        member, seat = to_act(h)
        hand = await open_hand(h, member)
        actions = action_ids(hand)
        deal = table.match.deal
        if deal.phase in (PLAY, DISCARD):
            # Only the legal cards are enabled.
            assert set(actions) == set(legal(h))
        chosen = making_choice(tuple(actions))
        exchange = await h.click(member, actions[chosen], message=hand.id)
        clicks += 1
        # The hand is edited in place, still private.
        assert exchange.response_type == CALLBACK_UPDATE_MESSAGE and exchange.reply.id == hand.id
        assert exchange.reply.ephemeral and exchange.reply.visible_to == member.id
        assert table.actions[-1] == (seat, chosen)
    assert clicks >= 6
    assert any("win the game" in m.text for m in h.public_messages())
    assert h.public_checked > clicks and h.leaks == []


async def test_a_button_from_an_earlier_deal_shows_the_hand_as_it_is(interactions):
    h = interactions
    table = await start_four(h, preset="somerset")
    member, seat = to_act(h)
    old_hand = (await h.command(member, "hand")).reply
    old_pass = action_ids(old_hand)["pass"]
    stale = copy.deepcopy(old_hand)  # as a client that missed the hand's edits sees it
    for _ in range(8):  # all pass twice: the deal passes to the next dealer
        await act(h, "pass")
    assert len(table.match.deals) == 2
    async with h.unchanged():
        exchange = await h.click(member, old_pass, message=stale)
    assert exchange.response_type == CALLBACK_UPDATE_MESSAGE and exchange.reply.id == old_hand.id
    assert "earlier deal" in exchange.text
    assert_hand_shown(h, exchange.text, seat)


async def test_a_button_clicked_twice_and_a_button_of_a_closed_table(interactions):
    h = interactions
    table = await start_four(h, preset="somerset")
    member, seat = to_act(h)
    hand = (await h.command(member, "hand")).reply
    stale = copy.deepcopy(hand)  # as a client that missed the edit sees it
    pass_id = action_ids(hand)["pass"]
    await h.click(member, pass_id, message=hand.id)
    assert table.actions[-1] == (seat, "pass")
    async with h.unchanged():
        exchange = await h.click(member, pass_id, message=stale)
    assert "not your turn" in exchange.text.lower()
    await close_table(h, "alice")
    async with h.unchanged():
        exchange = await h.click(member, pass_id, message=stale)
    assert "no longer in use" in exchange.text


async def test_actions_by_button_equal_the_slash_commands_they_stand_for(interactions):
    h = interactions
    table = await start_four(h, preset="somerset", partner_alone=False)
    member, _ = to_act(h)
    hand = await open_hand(h, member)
    labels = {
        b["custom_id"].split(":", 5)[5]: b["label"] for b in hand.buttons if not b.get("disabled")
    }
    assert (
        labels["pass"] == "Pass"
        and labels["order"] == "Order up"
        and labels["order:alone"] == "Order up alone"
    )
    deal = table.match.deal
    name, options = command_for("order:alone", deal.phase)
    assert (name, options) == ("order", {"alone": True})
    await h.click(member, action_ids(hand)["order:alone"], message=hand.id)
    assert deal.alone == deal.maker and deal.trump == deal.turn_up[1]
    assert enabled_ids(h.table_message()) == [f"euchre:table:{table.id}:hand"]
