"""The four-handed table as players live it, through the real bot and the fake Discord: what
is left of a table once it closes; a click Discord delivers twice; the offer of a seat once
it is answered, replaced or its table closed."""

from __future__ import annotations

import logging

from tests.bot.helpers import (
    current_table_message,
    enabled_actions,
    eventually,
    running_bot,
    seat_four,
    start,
    table_of,
)
from tests.bot.test_table_life_e2e import (
    choose,
    hand_buttons,
    live,
    member_at,
    open_hands,
    seat_and_start,
)

pytest_plugins = ["tests.support.fixtures"]


async def play_out(bot, fake, hands):
    """Play the match from the hands opened; the last click (its handle)."""
    table = table_of(bot, fake)
    clicked = None
    while table.playing:
        seat = table.match.to_act
        member = member_at(bot, fake, seat)

        def ready(seat=seat):
            current = live(fake, hands[seat])
            return hand_buttons(current, table) and current

        hand = await eventually(ready, what=f"{member.name}'s hand to show the turn")
        clicked = await fake.click(member, hand, choose(hand_buttons(hand, table)))
        assert (await clicked.response()).type == 7
    return clicked


async def test_the_last_click_delivered_twice_is_answered_without_an_error(
    fake_discord, tmp_path, caplog
):
    """The click that ends the match reaches the bot twice (a gateway replaying events after a
    resumed session). It is applied once, and the second delivery, already answered, is let
    go: no second acknowledgement, which Discord refuses, and no error logged."""
    fake = fake_discord
    caplog.set_level(logging.INFO)
    async with running_bot(fake, tmp_path / "euchre.db") as bot:
        await seat_and_start(fake, preset="modern", points=1)
        table = table_of(bot, fake)
        hands = await open_hands(bot, fake)
        last = await play_out(bot, fake, hands)
        actions = len(table.actions)
        await fake.redeliver(last)
        await eventually(
            lambda: "delivered again" in caplog.text or bot.handler_errors,
            what="the second delivery to be handled",
        )
        assert len(table.actions) == actions and not table.playing
        assert not [e for e in fake.errors if "40060" in e], fake.errors
        assert not bot.handler_errors, bot.handler_errors
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


def kept_of(hands, table_id: int) -> dict[str, object]:
    """What the bot's live hands keep of a table, by where it is kept (nothing: empty)."""
    kept = {
        "hands": [k for k in hands._hands if k[0] == table_id],
        "at": hands._at.get(table_id),
        "drawing": [k for k in hands._drawing if k[0] == table_id],
        "expired": [k for k in hands._expired if k[0] == table_id],
        "restarted": [k for k in hands._restarted if k[0] == table_id],
        "turn rounds": table_id in hands._turn._tasks or table_id in hands._turn._again,
        "waiting rounds": table_id in hands._waiting._tasks or table_id in hands._waiting._again,
    }
    return {where: what for where, what in kept.items() if what}


async def test_a_closed_table_leaves_no_hand_behind_and_its_old_hands_say_it_closed(
    fake_discord, tmp_path
):
    """The four open their hands; the bot restarts (their hands no longer follow the game);
    the player to act opens theirs again and plays from it; Alice closes the table. The hand
    that followed the game says it is closed, the bot keeps nothing of the table's hands any
    more, and their hand from before the restart, pressed now, says the table has closed."""
    fake = fake_discord
    db = tmp_path / "euchre.db"
    async with running_bot(fake, db) as bot:
        await seat_four(fake)
        await start(fake)
        old_hands = await open_hands(bot, fake)
    async with running_bot(fake, db) as bot:
        table = table_of(bot, fake)
        hands = bot.live_hands
        assert kept_of(hands, table.id)["restarted"]  # told at their turn how to get it back
        seat = table.match.to_act
        member = member_at(bot, fake, seat)
        message = await current_table_message(fake, table)
        hand = await (await fake.click(member, message, label="My hand")).message()
        clicked = await fake.click(member, hand, choose(hand_buttons(hand, table)))
        assert (await clicked.response()).type == 7
        assert kept_of(hands, table.id)["hands"]
        alice = fake.member("alice")
        asked = await (await fake.slash(alice, fake.channel, "table close")).message()
        await (await fake.click(alice, asked, label="Close the table")).response()
        assert table_of(bot, fake) is None
        await eventually(
            lambda: "This hand is closed" in live(fake, hand).text,
            what="the live hand to say it is closed",
        )
        await eventually(
            lambda: not kept_of(hands, table.id),
            what="the live hands to keep nothing of the table",
        )
        # The hand the player opened before the restart: nothing followed it since.
        stale = live(fake, old_hands[seat])
        pressed = await fake.click(member, stale, enabled_actions(stale)[0])
        answer = await pressed.message()
        assert answer.ephemeral and answer.visible_to == member.id
        assert "That table has closed" in answer.text, answer.text
        assert not kept_of(hands, table.id)
        assert not bot.handler_errors


def offer_to(fake, member):
    """The latest public message offering `member` a seat (its buttons gone or not)."""
    return next(
        (
            m
            for m in reversed(fake.public_messages(fake.channel))
            if f"<@{member.id}>" in m.content and "asks you to take their seat" in m.content
        ),
        None,
    )


async def name_substitute(fake, holder, substitute):
    """`holder` names `substitute`: the offer, once posted with its buttons."""
    await (await fake.slash(holder, fake.channel, "table substitute", member=substitute)).response()
    return await fake.wait_for(
        lambda: (offer := offer_to(fake, substitute)) and offer.buttons and offer
    )


async def offer_closed(fake, offer, why: str):
    """The offer once its buttons are gone: it keeps what it asked, and says `why`."""
    closed = await fake.wait_for(
        lambda: not live(fake, offer).buttons and live(fake, offer),
        what="the offer's buttons to go",
    )
    assert "asks you to take their seat" in closed.content, closed.content
    assert why in closed.content, closed.content
    return closed


async def consent_all(fake, table, holder):
    """Every player but `holder` presses Consent to substitute."""
    for occupant in list(table.seats):
        if occupant and not occupant.is_bot and occupant.user_id != holder.id:
            message = await current_table_message(fake, table)
            consent = await fake.click(
                fake.guild.members[occupant.user_id], message, label="Consent to substitute"
            )
            await consent.response()


async def test_an_offer_of_a_seat_loses_its_buttons_once_the_last_consent_seats_the_substitute(
    fake_discord, tmp_path
):
    """Bob names Erin, who presses Take the seat: the offer keeps its buttons while the other
    players' consent is awaited. The last consent seats her: the offer's buttons go, and it
    says she took the seat."""
    fake = fake_discord
    erin, bob = fake.add_member(fake.guild, "erin"), fake.member("bob")
    async with running_bot(fake, tmp_path / "euchre.db") as bot:
        await seat_four(fake)
        await start(fake)
        table = table_of(bot, fake)
        offer = await name_substitute(fake, bob, erin)
        took = await (await fake.click(erin, offer, label="Take the seat")).message()
        assert "once the other players consent" in took.text, took.text
        assert live(fake, offer).buttons  # she may still decline while consent is awaited
        await consent_all(fake, table, bob)
        assert table.seat_of(erin.id) is not None
        await offer_closed(fake, offer, "erin took the seat.")
        assert not bot.handler_errors


async def test_an_offer_replaced_or_withdrawn_or_of_a_closed_table_loses_its_buttons(
    fake_discord, tmp_path
):
    """Bob names Erin; Carol names Frank, which replaces Bob's request; the host removes
    Frank from the waiting line, which withdraws Carol's; Dave names Erin; the table closes.
    Each offer in turn loses its buttons and says what became of it."""
    fake = fake_discord
    erin, frank = fake.add_member(fake.guild, "erin"), fake.add_member(fake.guild, "frank")
    alice, bob, carol = fake.member("alice"), fake.member("bob"), fake.member("carol")
    dave = fake.member("dave")
    async with running_bot(fake, tmp_path / "euchre.db") as bot:
        await seat_four(fake)
        await start(fake)
        first = await name_substitute(fake, bob, erin)
        await (await fake.slash(frank, fake.channel, "table join")).response()
        second = await name_substitute(fake, carol, frank)
        await offer_closed(fake, first, "This request was replaced by a newer one.")
        assert live(fake, second).buttons
        await (await fake.slash(alice, fake.channel, "table kick", member=frank)).response()
        await offer_closed(fake, second, "This request was withdrawn.")
        third = await name_substitute(fake, dave, erin)
        asked = await (await fake.slash(alice, fake.channel, "table close")).message()
        await (await fake.click(alice, asked, label="Close the table")).response()
        await offer_closed(fake, third, "The table closed: this seat is no longer offered.")
        assert not bot.handler_errors


async def test_an_offer_from_before_a_restart_keeps_its_buttons_and_refuses_clearly(
    fake_discord, tmp_path
):
    """Bob names Erin; the bot restarts (it keeps its offers in memory only); Carol names
    Frank, which replaces Bob's request. Erin's offer still has its buttons, and her press is
    refused, saying the request was replaced; Frank's offer loses its buttons once he takes
    the seat and every other player consents."""
    fake = fake_discord
    erin, frank = fake.add_member(fake.guild, "erin"), fake.add_member(fake.guild, "frank")
    bob, carol = fake.member("bob"), fake.member("carol")
    db = tmp_path / "euchre.db"
    async with running_bot(fake, db) as bot:
        await seat_four(fake)
        await start(fake)
        first = await name_substitute(fake, bob, erin)
    async with running_bot(fake, db) as bot:
        table = await eventually(lambda: table_of(bot, fake), what="the table restored")
        second = await name_substitute(fake, carol, frank)
        refused = await (await fake.click(erin, live(fake, first), label="Take the seat")).message()
        assert refused.ephemeral and "replaced by a newer one" in refused.text, refused.text
        assert table.seat_of(erin.id) is None
        await (await fake.click(frank, second, label="Take the seat")).response()
        await consent_all(fake, table, carol)
        await offer_closed(fake, second, "frank took the seat.")
        assert not bot.handler_errors


async def test_an_offer_of_a_seat_loses_its_buttons_when_the_rubber_ends(fake_discord, tmp_path):
    """Bob names Erin, who has not answered when the last card ends the match: a seat is
    offered for the rest of the rubber only, so the offer's buttons go, saying it is over."""
    fake = fake_discord
    erin = fake.add_member(fake.guild, "erin")
    async with running_bot(fake, tmp_path / "euchre.db") as bot:
        await seat_and_start(fake, preset="modern", points=1)
        hands = await open_hands(bot, fake)
        offer = await name_substitute(fake, fake.member("bob"), erin)
        await play_out(bot, fake, hands)
        # Modern plays single games: the offer was for the rest of the game.
        await offer_closed(fake, offer, "That game is over: this seat is no longer offered.")
        assert not bot.handler_errors
