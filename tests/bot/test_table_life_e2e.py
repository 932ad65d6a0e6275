"""The table as players live it, through the real bot and the fake Discord.

A hand that follows the game (pressed open once, then played from), the deal's end left on
view with a Review, pings that notify and do not pile up, and what a whole rubber costs in
channel requests and messages (printed: these are the figures the table is held to).
"""

from __future__ import annotations

import asyncio
import re
import time

from bot.ui.views import deal_number
from tests.bot.helpers import current_table_message, eventually, member_at, running_bot, table_of
from tests.support.fake_discord import FakeDiscord, FakeMessage

pytest_plugins = ["tests.support.fixtures"]

NAMES = ("alice", "bob", "carol", "dave")


async def seat_and_start(fake: FakeDiscord, **options) -> None:
    alice = fake.member("alice")
    await (await fake.slash(alice, fake.channel, "table create", **options)).response()
    for name in NAMES[1:]:
        await (await fake.slash(fake.member(name), fake.channel, "table join")).response()
    await (await fake.slash(alice, fake.channel, "table start", keep_seats=True)).response()


def live(fake: FakeDiscord, message: FakeMessage) -> FakeMessage:
    return fake.messages_by_id[message.id]


def hand_buttons(message: FakeMessage, table) -> list[str]:
    """The enabled buttons of a hand message drawn for the deal being played."""
    prefix = f"euchre:hand:{table.id}:{table.match_no}:{deal_number(table)}:"
    return [
        b["custom_id"]
        for b in message.buttons
        if not b.get("disabled") and b.get("custom_id", "").startswith(prefix)
    ]


def choose(actions: list[str]) -> str:
    """Make trump when one may (a deal then scores), never alone; else the first action."""
    codes = [a.split(":", 5)[5] for a in actions]
    for action, code in zip(actions, codes, strict=True):
        if code == "order" or (code.startswith("call:") and not code.endswith("alone")):
            return action
    for action, code in zip(actions, codes, strict=True):
        if code not in ("order:alone", "alone", "defend") and not code.endswith(":alone"):
            return action
    return actions[0]


async def open_hands(bot, fake: FakeDiscord) -> dict[int, FakeMessage]:
    """Each member presses My hand once; their hand messages by seat."""
    table = table_of(bot, fake)
    message = await current_table_message(fake, table)
    hands = {}
    for seat in range(4):
        member = member_at(bot, fake, seat)
        hands[seat] = await (await fake.click(member, message, label="My hand")).message()
    return hands


async def play_from_hand(bot, fake: FakeDiscord, hands: dict[int, FakeMessage]) -> None:
    """The member to act clicks a button of the hand they opened, once it shows their turn."""
    table = table_of(bot, fake)
    seat = table.match.to_act
    member = member_at(bot, fake, seat)
    hand = live(fake, hands[seat])

    def ready():
        current = live(fake, hands[seat])
        return hand_buttons(current, table) and current

    hand = await eventually(ready, what=f"{member.name}'s hand to show the turn")
    before = len(table.actions)
    clicked = await fake.click(member, hand, choose(hand_buttons(hand, table)))
    assert (await clicked.response()).type == 7  # the same message, edited
    assert table.match is None or len(table.actions) > before or not table.playing


async def test_a_rubber_played_from_hands_opened_once(fake_discord, tmp_path):
    fake = fake_discord
    async with running_bot(fake, tmp_path / "euchre.db") as bot:
        await seat_and_start(fake, preset="modern", match="rubber", points=3)
        table = table_of(bot, fake)
        hands = await open_hands(bot, fake)
        presses = 4
        channel_calls = len([r for r in fake.requests if r[1].startswith("/channels/")])
        public_before = len(fake.public_messages(fake.channel))
        actions = 0
        while table.playing:
            await play_from_hand(bot, fake, hands)
            actions += 1
            assert actions < 3000
        await fake.wait_for(
            lambda: any("win the rubber" in m.text for m in fake.public_messages(fake.channel))
        )
        deals = len(table.match.deals)
        calls = len([r for r in fake.requests if r[1].startswith("/channels/")]) - channel_calls
        posted = len(fake.public_messages(fake.channel)) - public_before
        print(
            f"\nrubber of {deals} deals, {actions} actions: {calls / actions:.2f} channel requests"
            f" an action, {posted / deals:.2f} new public messages a deal,"
            f" {presses / (4 * deals):.2f} My hand presses a player a deal"
        )
        assert calls / actions <= 1.3
        assert posted / deals <= 3
        assert presses <= 4  # each member pressed My hand once for the whole rubber
        # Every hand message stayed private to its holder.
        for message in hands.values():
            assert live(fake, message).ephemeral and live(fake, message).visible_to is not None
        assert not bot.handler_errors


async def test_a_hand_follows_computers_moving_while_its_click_is_answered(fake_discord, tmp_path):
    """A click's answer on a slow network lands after the computers have moved: the hand is
    drawn once more, so it always comes to show the turn's own buttons."""
    fake = fake_discord
    fake.callback_delay = 0.15  # the computers (no delay) move while each answer is on its way
    async with running_bot(fake, tmp_path / "euchre.db") as bot:
        alice, bob = fake.member("alice"), fake.member("bob")
        await (
            await fake.slash(alice, fake.channel, "table create", preset="modern", points=5)
        ).response()
        await (await fake.slash(bob, fake.channel, "table join", seat="east")).response()
        for seat in ("south", "west"):
            await (
                await fake.slash(alice, fake.channel, "table addbot", seat=seat, level="standard")
            ).response()
        await (await fake.slash(alice, fake.channel, "table start", keep_seats=True)).response()
        table = table_of(bot, fake)
        message = await current_table_message(fake, table)
        hands = {
            seat: await (await fake.click(member, message, label="My hand")).message()
            for seat, member in ((0, alice), (1, bob))
        }
        clicks = 0
        while table.playing and len(table.match.deals) <= 2:
            seat = table.match.to_act
            if seat not in hands:
                await asyncio.sleep(0.01)  # a computer's turn
                continue
            legal = set(table.match.legal_actions())

            def shows_the_turn(seat=seat, legal=legal):
                current = live(fake, hands[seat])
                codes = {b.split(":", 5)[5] for b in hand_buttons(current, table)}
                return codes == legal and current

            hand = await eventually(shows_the_turn, what="the hand to show the turn's buttons")
            if table.match.to_act != seat:
                continue
            member = alice if seat == 0 else bob
            clicked = await fake.click(member, hand, choose(hand_buttons(hand, table)))
            assert (await clicked.response()).type == 7
            clicks += 1
        assert clicks >= 8
        assert not bot.handler_errors


async def test_a_hand_waits_while_a_computer_holds_the_seat_and_comes_back(fake_discord, tmp_path):
    """Two time-outs: the open hand says a computer plays the seat and how to take it back (not
    "not seated"); after /table back the same message is the hand again, with its buttons."""
    fake = fake_discord
    async with running_bot(fake, tmp_path / "euchre.db", timers=True) as bot:
        await seat_and_start(fake, preset="modern")
        table = table_of(bot, fake)
        hands = await open_hands(bot, fake)
        # From the next turn on every turn times out, until the test says otherwise; the
        # computers take their time, so the game is still on when the test looks.
        bot.manager.turn_timeout = 0.4
        bot.manager.computer_delay = 0.3
        await play_from_hand(bot, fake, hands)
        # Every member times out twice: computers hold the four seats (so once one member is
        # back, the game comes round to them at the computers' pace).
        await fake.wait_for(lambda: all(o.held_for is not None for o in table.seats), timeout=60)
        bot.manager.turn_timeout = 120
        held = table.match.to_act  # one whose hand has just gone by without them
        member = fake.guild.members[table.seats[held].held_for]
        waiting = await eventually(
            lambda: "a computer plays" in live(fake, hands[held]).text and live(fake, hands[held])
        )
        assert "/table back" in waiting.text and "not seated" not in waiting.text
        assert not hand_buttons(waiting, table)
        text = (await (await fake.slash(member, fake.channel, "table back")).message()).text
        assert "welcome back" in text.lower()

        def back_in_hand():
            current = live(fake, hands[held])
            return "Your hand" in current.text and "a computer plays" not in current.text

        await eventually(back_in_hand, what="the hand to come back after /table back")
        while table.playing and table.match.to_act != held:
            await asyncio.sleep(0.05)  # the computers and the timers play on
        if table.playing:
            await eventually(
                lambda: (
                    set(b.split(":", 5)[5] for b in hand_buttons(live(fake, hands[held]), table))
                    == set(table.match.legal_actions())
                ),
                what="the turn's buttons in the hand that came back",
            )
        assert not bot.handler_errors


async def test_a_finished_deal_keeps_its_last_trick_and_offers_a_review(fake_discord, tmp_path):
    fake = fake_discord
    async with running_bot(fake, tmp_path / "euchre.db") as bot:
        await seat_and_start(fake, preset="modern")
        table = table_of(bot, fake)
        hands = await open_hands(bot, fake)
        first = await eventually(lambda: table.message_id, what="the first deal's message")
        while len(table.match.deals) == 1:
            await play_from_hand(bot, fake, hands)
        result = table.match.deals[0].result

        def finished():
            message = fake.messages_by_id[first]
            return "Deal 1: over" in message.text and message

        message = await fake.wait_for(finished)
        # The last trick is on view, the result names the makers' side, and only Review is left.
        if result.outcome != "passed":
            assert "Last trick" in message.text
            assert re.search(r"(North–South|East–West|alone)", message.text)
        assert [b["label"] for b in message.buttons] == ["Review"]
        dave = fake.member("dave")  # anyone may review, privately
        review = await (await fake.click(dave, message, label="Review")).message()
        assert review.ephemeral and review.visible_to == dave.id
        dealt = table.match.deals[0].dealt
        assert "Review of deal 1" in review.text
        for hand in dealt:  # the four hands as dealt
            for card in hand:
                assert card[0].replace("T", "10") in review.text
        # The next deal has a table message of its own, below (posted after the first is
        # finished).
        following = await current_table_message(fake, table)
        assert following.id > first and table.message_deal == 2
        assert not bot.handler_errors


async def test_an_expired_hand_is_told_on_the_next_turn(fake_discord, tmp_path):
    fake = fake_discord
    async with running_bot(fake, tmp_path / "euchre.db") as bot:
        await seat_and_start(fake, preset="modern")
        table = table_of(bot, fake)
        hands = await open_hands(bot, fake)
        seat = table.match.to_act
        member = member_at(bot, fake, seat)
        fake.token_lifetime = 0  # every hand's token has run out
        await play_from_hand(bot, fake, hands)  # the clicker's own hand is answered anyway
        # Play on until the first player's turn comes round again.
        while table.match.to_act != seat:
            other = table.match.to_act
            who = member_at(bot, fake, other)
            hand = await (await fake.slash(who, fake.channel, "hand")).message()
            enabled = [
                b["custom_id"]
                for b in hand.buttons
                if not b.get("disabled") and b["custom_id"].startswith("euchre:hand:")
            ]
            await (await fake.click(who, hand, choose(enabled))).response()
        # Another player's hand expired too, and their ping is deleted only once the table has
        # shown the turn leaving them: it may still be there when this one comes.
        ping = await fake.wait_for(
            lambda: next(
                (
                    m
                    for m in fake.public_messages(fake.channel)
                    if "expired" in m.content and member.mention in m.content and not m.deleted
                ),
                None,
            ),
        )
        assert f"<@{member.id}>" in ping.content and member.id in ping.notified
        assert "My hand" in ping.content
        assert not bot.handler_errors


async def test_a_ping_on_every_turn_notifies_and_only_one_stays(fake_discord, tmp_path):
    fake = fake_discord
    async with running_bot(fake, tmp_path / "euchre.db", timers=True) as bot:
        await seat_and_start(fake, preset="modern", ping="every turn")
        table = table_of(bot, fake)
        hands = await open_hands(bot, fake)
        for _ in range(6):
            seat = table.match.to_act
            member = member_at(bot, fake, seat)

            def pinged(member=member):
                alive = [
                    m
                    for m in fake.public_messages(fake.channel)
                    if "it is your turn" in m.content and not m.deleted
                ]
                return len(alive) == 1 and f"<@{member.id}>" in alive[0].content and alive[0]

            ping = await fake.wait_for(pinged)
            # The mention is in the content, allowed to notify that member and no one else.
            assert ping.notified == {member.id}
            assert not ping.embeds
            await play_from_hand(bot, fake, hands)
        assert not bot.handler_errors


async def test_five_at_a_table_are_told_the_cut_decides_and_who_sits_out(fake_discord, tmp_path):
    fake = fake_discord
    erin = fake.add_member(fake.guild, "erin")
    async with running_bot(fake, tmp_path / "euchre.db") as bot:
        alice = fake.member("alice")
        await (await fake.slash(alice, fake.channel, "table create")).response()
        for name in NAMES[1:]:
            await (await fake.slash(fake.member(name), fake.channel, "table join")).response()
        told = await (await fake.slash(erin, fake.channel, "table join")).message()
        assert "wait in line" in told.text and "four highest play" in told.text
        await (await fake.slash(alice, fake.channel, "table start")).response()
        table = table_of(bot, fake)
        out = table.waiting[0]
        cut = await fake.wait_for(
            lambda: next(
                (m for m in fake.public_messages(fake.channel) if "The cut" in m.text), None
            )
        )
        assert f"{out.name}" in cut.text and "sits out this rubber" in cut.text
        assert "deals first" in cut.text and "North–South:" in cut.text
        assert not cut.notified  # names in the cut mention no one
        assert not bot.handler_errors


async def test_six_at_a_table_two_sit_out_and_are_named_with_why(fake_discord, tmp_path):
    fake = fake_discord
    extra = [fake.add_member(fake.guild, name) for name in ("erin", "frank")]
    async with running_bot(fake, tmp_path / "euchre.db") as bot:
        alice = fake.member("alice")
        await (await fake.slash(alice, fake.channel, "table create")).response()
        for name in NAMES[1:]:
            await (await fake.slash(fake.member(name), fake.channel, "table join")).response()
        for member in extra:
            told = await (await fake.slash(member, fake.channel, "table join")).message()
            assert "everyone cuts and the four highest play" in told.text
        await (await fake.slash(alice, fake.channel, "table start")).response()
        table = table_of(bot, fake)
        cut = await fake.wait_for(
            lambda: next(
                (m for m in fake.public_messages(fake.channel) if "The cut" in m.text), None
            )
        )
        assert len(table.waiting) == 2
        for out in table.waiting:
            assert f"{out.name}" in cut.text
        assert cut.text.count("sits out this rubber: cut lowest") == 2
        assert not bot.handler_errors


async def test_a_member_who_leaves_is_named_once_in_the_table_message(fake_discord, tmp_path):
    fake = fake_discord
    async with running_bot(fake, tmp_path / "euchre.db") as bot:
        await seat_and_start(fake, preset="modern")
        table = table_of(bot, fake)
        seat = (table.match.to_act + 1) % 4  # not the one to act: no computer move at once
        leaver = member_at(bot, fake, seat)
        await (await fake.slash(leaver, fake.channel, "table leave")).response()

        def told():
            message = fake.messages_by_id.get(table.message_id)
            return message is not None and "At the table" in message.text and message

        message = await fake.wait_for(told)
        assert f"{leaver.name} left: Computer (expert) plays" in message.text
        said = [m for m in fake.public_messages(fake.channel) if f"{leaver.name} left" in m.text]
        assert said == [message]  # once, in the table message, not in a message of its own
        assert not bot.handler_errors


# -- the deal's end, pings and restarts when edits wait (the REST budget, a 429, a stop) ---------


async def quiet(fake: FakeDiscord, span: float = 0.5) -> None:
    """Until the bot has sent no request for `span` seconds."""
    while True:
        sent = len(fake.requests)
        await asyncio.sleep(span)
        if len(fake.requests) == sent:
            return


def hold_the_budget(bot) -> None:
    """The REST budget gives no slot for a long while (a busy process, or one shard of many):
    every counted request waits, the hands' edits (not counted) go on."""
    bot.rest_budget._next = time.monotonic() + 1000.0


async def last_card_of_the_deal(bot, fake: FakeDiscord, hands) -> None:
    """Play from the hands until one card is left to play in the deal."""
    table = table_of(bot, fake)
    while True:
        deal = table.match.deal
        cards = sum(len(deal.hands[s]) for s in range(4) if s not in deal.sitting_out)
        if deal.phase == "play" and cards == 1:
            return
        await play_from_hand(bot, fake, hands)


def alive_pings(fake: FakeDiscord) -> list[FakeMessage]:
    return [m for m in fake.public_messages(fake.channel) if "it is your turn" in m.content]


async def test_a_deal_played_while_its_edits_wait_ends_shown_as_it_ended(fake_discord, tmp_path):
    """Every edit of the table message waits for the REST budget over a whole deal: once the
    budget lets them go, the deal's message shows how it ended, not a trick in the middle,
    and the next deal has a message of its own."""
    fake = fake_discord
    async with running_bot(fake, tmp_path / "euchre.db", settings={"rest_budget": 40.0}) as bot:
        await eventually(lambda: bot.card_emojis.task is not None and bot.card_emojis.task.done())
        await seat_and_start(fake, preset="modern")
        table = table_of(bot, fake)
        hands = await open_hands(bot, fake)
        await quiet(fake)
        first = table.message_id
        hold_the_budget(bot)
        while len(table.match.deals) == 1:
            await play_from_hand(bot, fake, hands)
        bot.rest_budget.release()
        await quiet(fake, 1.0)
        shown = fake.messages_by_id[first]
        assert not shown.deleted and "Deal 1: over" in shown.text
        assert [b.get("label") for b in shown.buttons] == ["Review"]
        latest = await current_table_message(fake, table)
        assert (
            latest.id != first
            and "deal 2" in latest.text
            and "My hand" in components_labels(latest)
        )
        assert not bot.handler_errors


async def test_a_429_before_the_last_card_still_ends_the_deal_on_view(fake_discord, tmp_path):
    """No budget (a bot behind a REST proxy), one of Discord's own 429s on the edit before the
    last cards, which come quickly: the deal's message still ends finished."""
    fake = fake_discord
    async with running_bot(fake, tmp_path / "euchre.db") as bot:
        await seat_and_start(fake, preset="modern")
        table = table_of(bot, fake)
        hands = await open_hands(bot, fake)
        first = table.message_id
        deal = table.match.deal
        while not (deal.phase == "play" and sum(len(h) for h in deal.hands) <= 4):
            await play_from_hand(bot, fake, hands)
            await quiet(fake, 0.1)
        fake.rate_limit_retry_after = 1.0
        fake.rate_limit_next = 1  # the next counted request gets a 429
        while len(table.match.deals) == 1:
            await play_from_hand(bot, fake, hands)
            await asyncio.sleep(0.2)
        await quiet(fake, 2.0)
        assert "Deal 1: over" in fake.messages_by_id[first].text
        assert not bot.handler_errors


async def test_the_last_deal_of_a_game_keeps_its_result_in_the_channel(fake_discord, tmp_path):
    """The deal that ends the game is shown as it ended, and the table's next message (start
    another) comes after it, not in its place."""
    fake = fake_discord
    async with running_bot(fake, tmp_path / "euchre.db") as bot:
        await seat_and_start(fake, preset="modern", points=1)
        table = table_of(bot, fake)
        hands = await open_hands(bot, fake)
        while table.playing:
            deal_message = table.message_id
            await play_from_hand(bot, fake, hands)
        await quiet(fake)
        ended = fake.messages_by_id[deal_message]
        assert not ended.deleted and "over" in ended.text
        assert [b.get("label") for b in ended.buttons] == ["Review"]
        assert table.message_id != deal_message
        assert not fake.messages_by_id[table.message_id].deleted


async def test_pings_under_the_budget_never_outlive_their_turn(fake_discord, tmp_path):
    """Pings on every turn with the REST budget at its default, members clicking as soon as
    their ping shows: once play pauses, the only ping alive is for the member to act."""
    fake = fake_discord
    async with running_bot(
        fake, tmp_path / "euchre.db", timers=True, settings={"rest_budget": 40.0}
    ) as bot:
        await eventually(lambda: bot.card_emojis.task is not None and bot.card_emojis.task.done())
        await seat_and_start(fake, preset="somerset", ping="every turn")
        table = table_of(bot, fake)
        hands = await open_hands(bot, fake)
        for _ in range(24):
            member = member_at(bot, fake, table.match.to_act)
            await fake.wait_for(
                lambda m=member: any(f"<@{m.id}>" in p.content for p in alive_pings(fake)),
                timeout=20,
            )
            await play_from_hand(bot, fake, hands)
        await quiet(fake, 1.0)
        to_act = member_at(bot, fake, table.match.to_act)
        alive = alive_pings(fake)
        assert all(f"<@{to_act.id}>" in p.content for p in alive), [p.content for p in alive]
        assert len(alive) <= 1


async def test_a_stop_with_a_deal_end_waiting_and_a_ping_alive_is_put_right_at_the_start(
    fake_discord, tmp_path
):
    """The bot stops with the finished deal's edit waiting for the budget and a ping in the
    channel: at the next start the deal's message shows how it ended, the stale ping is
    deleted, and the members, whose open hands no longer follow, are told at their turn how
    to get them back."""
    fake = fake_discord
    db = tmp_path / "euchre.db"
    async with running_bot(fake, db, timers=True, settings={"rest_budget": 40.0}) as bot:
        await seat_and_start(fake, preset="modern", ping="every turn")
        table = table_of(bot, fake)
        hands = await open_hands(bot, fake)
        first = table.message_id
        await last_card_of_the_deal(bot, fake, hands)
        member = member_at(bot, fake, table.match.to_act)
        stale = await fake.wait_for(
            lambda: next((p for p in alive_pings(fake) if f"<@{member.id}>" in p.content), None)
        )
        hold_the_budget(bot)
        await play_from_hand(bot, fake, hands)  # the deal's last card: its edit waits
        assert len(table.match.deals) == 2
        await asyncio.sleep(0.3)
    async with running_bot(fake, db, timers=True, settings={"rest_budget": 40.0}) as bot:
        await fake.wait_for(
            lambda: any("restored" in m.text for m in fake.public_messages(fake.channel))
        )
        # Shown when the channel is next brought up to date, which on a busy machine may come
        # after a second without requests: waited for, not assumed.
        await fake.wait_for(lambda: "Deal 1: over" in fake.messages_by_id[first].text)
        # Its turn passed while the bot was down.
        await fake.wait_for(lambda: fake.messages_by_id[stale.id].deleted)
        table = table_of(bot, fake)
        to_act = member_at(bot, fake, table.match.to_act)
        told = await fake.wait_for(
            lambda: next((p for p in alive_pings(fake) if f"<@{to_act.id}>" in p.content), None)
        )
        assert "The bot restarted" in told.content and "My hand" in told.content
        assert not bot.handler_errors


async def test_a_substitute_taking_the_seat_mid_turn_is_pinged_and_the_old_ping_goes(
    fake_discord, tmp_path
):
    """Bob is to act and pinged; he names Erin, who sits once she accepts and Alice consents
    (the other seats are computers'): the turn is Erin's now, so Bob's ping goes and she is
    pinged."""
    fake = fake_discord
    erin = fake.add_member(fake.guild, "erin")
    alice, bob = fake.member("alice"), fake.member("bob")
    async with running_bot(fake, tmp_path / "euchre.db", timers=True) as bot:
        created = await fake.slash(
            alice, fake.channel, "table create", preset="modern", ping="every turn"
        )
        await created.response()
        await (await fake.slash(bob, fake.channel, "table join", seat="east")).response()
        for seat in ("south", "west"):
            await (await fake.slash(alice, fake.channel, "table addbot", seat=seat)).response()
        await (await fake.slash(alice, fake.channel, "table start", keep_seats=True)).response()
        table = table_of(bot, fake)
        for _ in range(40):  # Alice plays from her hand until it is Bob's turn
            await eventually(lambda: table.match.to_act in (0, 1), what="a member's turn")
            if table.match.to_act == 1:
                break
            hand = await (await fake.slash(alice, fake.channel, "hand")).message()
            await (await fake.click(alice, hand, choose(hand_buttons(hand, table)))).response()
        assert table.match.to_act == 1
        await fake.wait_for(lambda: any(f"<@{bob.id}>" in p.content for p in alive_pings(fake)))
        await (await fake.slash(bob, fake.channel, "table substitute", member=erin)).response()
        asked = await fake.wait_for(
            lambda: next(
                (
                    m
                    for m in fake.public_messages(fake.channel)
                    if "Consent to substitute" in components_labels(m)
                ),
                None,
            )
        )
        await (await fake.click(alice, asked, label="Consent to substitute")).response()
        offer = await fake.wait_for(lambda: offer_to(fake, erin))
        await (await fake.click(erin, offer, label="Take the seat")).response()
        await eventually(lambda: table.seat_of(erin.id) == 1, what="Erin seated")
        assert table.match.to_act == 1
        await fake.wait_for(lambda: any(f"<@{erin.id}>" in p.content for p in alive_pings(fake)))
        await quiet(fake)
        alive = alive_pings(fake)
        assert [p for p in alive if erin.id in p.notified] and not [
            p for p in alive if bob.id in p.notified
        ], [p.content for p in alive]
        assert not bot.handler_errors


def offer_to(fake: FakeDiscord, member) -> FakeMessage | None:
    """The public message offering ``member`` a seat, with its Take the seat button."""
    return next(
        (
            m
            for m in reversed(fake.public_messages(fake.channel))
            if f"<@{member.id}>" in m.content and "Take the seat" in components_labels(m)
        ),
        None,
    )


async def test_a_member_named_substitute_is_asked_and_can_take_the_seat_after_a_restart(
    fake_discord, tmp_path
):
    """Bob names Erin and the others consent; Erin is asked in a message that notifies her
    alone, and is not seated. The bot restarts before she answers: her button still works,
    from the request as stored, and she takes the seat."""
    fake = fake_discord
    erin = fake.add_member(fake.guild, "erin")
    bob = fake.member("bob")
    db = tmp_path / "euchre.db"
    async with running_bot(fake, db) as bot:
        await seat_and_start(fake, preset="modern")
        asked = await fake.slash(bob, fake.channel, "table substitute", member=erin)
        await asked.response()
        offer = await fake.wait_for(lambda: offer_to(fake, erin))
        assert offer.notified == {erin.id}
        table = table_of(bot, fake)
        consent = await fake.wait_for(
            lambda: next(
                (
                    m
                    for m in fake.public_messages(fake.channel)
                    if "Consent to substitute" in components_labels(m)
                ),
                None,
            )
        )
        for name in ("alice", "carol", "dave"):
            click = await fake.click(fake.member(name), consent, label="Consent to substitute")
            await click.response()
        await eventually(lambda: not table.substitute_consenters(), what="every consent")
        assert table.seat_of(erin.id) is None and table.seat_of(bob.id) == 1
        assert not bot.handler_errors
    async with running_bot(fake, db) as bot:
        table = await eventually(lambda: table_of(bot, fake), what="the table restored")
        assert table.seat_of(erin.id) is None and table.substitution is not None
        refused = await fake.click(bob, offer, label="Take the seat")
        assert "only the member this seat was offered to" in (await refused.message()).text.lower()
        assert table.seat_of(bob.id) == 1
        took = await fake.click(erin, offer, label="Take the seat")
        await took.response()
        await eventually(lambda: table.seat_of(erin.id) == 1, what="Erin seated")
        assert table.seats[1].substitute and table.flagged
        assert "takes bob's seat (east)" in live(fake, offer).content
        assert not bot.handler_errors
    async with running_bot(fake, db) as bot:  # stored before it was shown
        table = await eventually(lambda: table_of(bot, fake), what="the table restored")
        assert table.seat_of(erin.id) == 1 and table.substitution is None


async def test_members_who_chose_never_to_be_pinged_are_told_of_a_restart_unnotified(
    fake_discord, tmp_path
):
    fake = fake_discord
    db = tmp_path / "euchre.db"
    async with running_bot(fake, db, timers=True) as bot:
        await seat_and_start(fake, preset="modern", ping="never")
        hands = await open_hands(bot, fake)
        await play_from_hand(bot, fake, hands)
    async with running_bot(fake, db, timers=True) as bot:
        await fake.wait_for(
            lambda: any("restored" in m.text for m in fake.public_messages(fake.channel))
        )
        table = table_of(bot, fake)
        first = member_at(bot, fake, table.match.to_act)
        hand = await (await fake.slash(first, fake.channel, "hand")).message()
        await (await fake.click(first, hand, choose(hand_buttons(hand, table)))).response()
        # The next member's open hand no longer follows: they are told at their turn.
        to_act = member_at(bot, fake, table.match.to_act)
        told = await fake.wait_for(
            lambda: next((p for p in alive_pings(fake) if f"<@{to_act.id}>" in p.content), None)
        )
        assert "The bot restarted" in told.content
        await quiet(fake)
        assert not [m.content for m in fake.messages_by_id.values() if m.notified]


async def test_someone_joining_and_leaving_the_waiting_line_gives_the_player_no_more_time(
    fake_discord, tmp_path
):
    fake = fake_discord
    erin = fake.add_member(fake.guild, "erin")
    async with running_bot(fake, tmp_path / "euchre.db", timers=True) as bot:
        await seat_and_start(fake, preset="modern", ping="every turn", timeout=60)
        table = table_of(bot, fake)
        await eventually(lambda: bot.manager.deadlines.get(table.id))
        deadline = bot.manager.deadlines[table.id]
        turn = (len(table.actions), table.match.to_act)
        for _ in range(2):
            await asyncio.sleep(0.3)  # a clock started again would end later
            await (await fake.slash(erin, fake.channel, "table join")).response()
            await (await fake.slash(erin, fake.channel, "table leave")).response()
        assert (len(table.actions), table.match.to_act) == turn
        assert bot.manager.deadlines[table.id] == deadline


def components_labels(message: FakeMessage) -> list[str]:
    return [b.get("label") for b in message.buttons]


def is_ping(body) -> bool:
    return "it is your turn" in (body.get("content") or "")


async def test_a_ping_posted_as_the_bot_stops_is_deleted_at_the_next_start(fake_discord, tmp_path):
    """The bot stops while a ping's request is on its way: Discord posted it, but the bot never
    heard its id. At the next start the bot finds it in the channel and deletes it, and the
    member to act is pinged once, anew."""
    fake = fake_discord
    db = tmp_path / "euchre.db"
    async with running_bot(fake, db, timers=True) as bot:
        fake.hold_post_answers = is_ping
        await seat_and_start(fake, preset="modern", ping="every turn")
        lost = await fake.wait_for(lambda: next(iter(alive_pings(fake)), None))
        assert table_of(bot, fake).pings == []  # the bot never heard of it
    fake.release_posts()
    async with running_bot(fake, db, timers=True) as bot:
        await fake.wait_for(lambda: live(fake, lost).deleted)
        table = table_of(bot, fake)
        to_act = member_at(bot, fake, table.match.to_act)
        await fake.wait_for(lambda: any(f"<@{to_act.id}>" in p.content for p in alive_pings(fake)))
        await quiet(fake)
        assert len(alive_pings(fake)) == 1
        assert table.pings_sent == []
        assert not bot.handler_errors


async def test_a_ping_given_up_on_the_way_as_the_turn_moves_is_found_and_deleted(
    fake_discord, tmp_path
):
    """A ping's request is on its way when its member acts: the bot gives the request up (its
    turn has passed), but Discord had posted it. The bot looks through the channel and deletes
    it; the next member's ping stays, alone."""
    fake = fake_discord
    async with running_bot(fake, tmp_path / "euchre.db", timers=True) as bot:
        await seat_and_start(fake, preset="modern", ping="every turn")
        table = table_of(bot, fake)
        hands = await open_hands(bot, fake)
        await fake.wait_for(lambda: alive_pings(fake))
        fake.hold_post_answers = is_ping
        first = member_at(bot, fake, table.match.to_act)
        await play_from_hand(bot, fake, hands)  # the next member's ping is posted, unanswered
        held = await fake.wait_for(
            lambda: next((p for p in alive_pings(fake) if f"<@{first.id}>" not in p.content), None)
        )
        await play_from_hand(bot, fake, hands)  # that turn passes while its ping is on its way
        # Given up, and the next member's ping on its way (one at a time): both unanswered.
        await eventually(lambda: len(table.pings_sent) == 2, what="the next ping on its way")
        fake.release_posts()  # the next member's ping is answered; the one given up never is
        await fake.wait_for(lambda: live(fake, held).deleted)
        to_act = member_at(bot, fake, table.match.to_act)
        await fake.wait_for(lambda: any(f"<@{to_act.id}>" in p.content for p in alive_pings(fake)))
        await quiet(fake)
        alive = alive_pings(fake)
        assert len(alive) == 1 and f"<@{to_act.id}>" in alive[0].content, [p.content for p in alive]
        assert table.pings_sent == []
        assert not bot.handler_errors


async def test_a_match_start_posts_one_message_for_its_first_deal(fake_discord, tmp_path):
    """A change shown before the start's own draws the first deal's message: the start keeps
    it rather than posting it again and deleting the one members may be clicking."""
    fake = fake_discord
    async with running_bot(
        fake, tmp_path / "euchre.db", timers=True, settings={"rest_budget": 40.0}
    ) as bot:
        await eventually(lambda: bot.card_emojis.task is not None and bot.card_emojis.task.done())
        await seat_and_start(fake, preset="modern", ping="every turn")
        table = table_of(bot, fake)
        message = await current_table_message(fake, table)
        await quiet(fake)
        posted = [
            m
            for m in fake.messages
            if m.channel_id == fake.channel.id and "My hand" in str(m.buttons)
        ]
        assert [m.id for m in posted] == [message.id] and not message.deleted
        assert not bot.handler_errors


async def test_a_turn_a_members_own_click_gives_them_is_not_pinged_at_once(fake_discord, tmp_path):
    """Pings on every turn: the dealer who takes it up is to discard at once, and is not
    notified for it (they are at the table, clicking); the member the discard gives the turn
    is pinged at once, as every turn."""
    fake = fake_discord
    async with running_bot(fake, tmp_path / "euchre.db", timers=True) as bot:
        await seat_and_start(fake, preset="modern", ping="every turn")
        table = table_of(bot, fake)
        hands = await open_hands(bot, fake)
        deal = table.match.deal
        while table.match.to_act != deal.dealer:  # the others pass
            seat = table.match.to_act
            hand = await eventually(
                lambda s=seat: hand_buttons(live(fake, hands[s]), table) and live(fake, hands[s])
            )
            passing = next(b for b in hand_buttons(hand, table) if b.endswith(":pass"))
            await (await fake.click(member_at(bot, fake, seat), hand, passing)).response()
        dealer = member_at(bot, fake, deal.dealer)
        hand = await eventually(
            lambda: (
                hand_buttons(live(fake, hands[deal.dealer]), table)
                and live(fake, hands[deal.dealer])
            )
        )
        order = next(b for b in hand_buttons(hand, table) if b.endswith(":order"))
        before = {m.id for m in fake.messages}
        await (await fake.click(dealer, hand, order)).response()
        assert deal.phase == "discard" and table.match.to_act == deal.dealer
        await quiet(fake)
        assert not [
            m for m in fake.messages if m.id not in before and f"<@{dealer.id}>" in m.content
        ], "pinged right after their own click"
        await play_from_hand(bot, fake, hands)  # the discard
        to_act = member_at(bot, fake, table.match.to_act)
        told = await fake.wait_for(
            lambda: next((p for p in alive_pings(fake) if f"<@{to_act.id}>" in p.content), None)
        )
        assert to_act.id in told.notified
        assert not bot.handler_errors


async def test_a_hand_found_lost_after_the_turns_ping_is_told_in_that_ping(fake_discord, tmp_path):
    """Pings on every turn: the turn's ping is out when the bot finds the member's open hand can
    no longer be edited; the ping then says how to get it back (an edit, not a second ping)."""
    fake = fake_discord
    async with running_bot(fake, tmp_path / "euchre.db", timers=True) as bot:
        await seat_and_start(fake, preset="modern", ping="every turn")
        table = table_of(bot, fake)
        hands = await open_hands(bot, fake)
        await eventually(lambda: hand_buttons(live(fake, hands[table.match.to_act]), table))
        fake.token_lifetime = 0  # no open hand can be edited any more (as if dismissed)
        await play_from_hand(bot, fake, hands)
        member = member_at(bot, fake, table.match.to_act)
        await eventually(
            lambda: not bot.live_hands.has_live(table.id, member.id), what="the hand dropped"
        )
        ping = await fake.wait_for(
            lambda: next(
                (
                    p
                    for p in alive_pings(fake)
                    if f"<@{member.id}>" in p.content and "My hand" in p.content
                ),
                None,
            )
        )
        await quiet(fake)
        assert [p.id for p in alive_pings(fake)] == [ping.id]
        assert not bot.handler_errors


async def test_a_ping_given_up_before_it_left_is_not_looked_for(fake_discord, tmp_path):
    """The REST budget holds a ping back until its member has acted: the request never left,
    so nothing was posted, and the bot spends no request on looking through the channel."""
    fake = fake_discord
    async with running_bot(
        fake, tmp_path / "euchre.db", timers=True, settings={"rest_budget": 40.0}
    ) as bot:
        await seat_and_start(fake, preset="modern", ping="every turn")
        table = table_of(bot, fake)
        hands = await open_hands(bot, fake)
        await fake.wait_for(lambda: alive_pings(fake))
        await quiet(fake)
        hold_the_budget(bot)  # the next ping waits for its slot; the hands' edits do not
        before = len(table.actions)
        await play_from_hand(bot, fake, hands)
        held = await eventually(
            lambda: list(table.pings_sent), what="the next ping held by the budget"
        )
        await play_from_hand(bot, fake, hands)  # that turn passes before its ping can leave
        assert len(table.actions) == before + 2
        # Forgotten (the next turn's ping now waits in its place).
        await eventually(lambda: not set(held) & set(table.pings_sent), what="forgotten")
        looked = [r for r in fake.requests if r[0] == "GET" and r[1].endswith("/messages")]
        assert looked == []
        assert not bot.handler_errors
