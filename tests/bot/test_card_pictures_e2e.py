"""Cards as pictures, with the real bot against the fake Discord: the bot's card emojis are
uploaded once, replaced when their picture changed, shown on the hand's buttons and in the table
message, and when Discord refuses them (at upload, or an emoji gone while the bot runs) the game is
played in text."""

from __future__ import annotations

import asyncio
import logging
import re

from bot.engine.cards import card_label
from bot.ui import emojis
from bot.ui.card_faces import face_png, same_picture
from bot.ui.emojis import CARDS, card_of_emoji, emoji_name
from tests.bot.helpers import (
    act_once,
    cards_shown,
    current_table_message,
    enabled_actions,
    eventually,
    member_at,
    running_bot,
    seat_four,
    start,
    table_of,
)
from tests.support.fake_discord import (
    FakeDiscord,
    FakeEmoji,
    FakeHTTPError,
    FakeMessage,
    iter_components,
)

pytest_plugins = ["tests.support.fixtures"]

# Uploading every face goes through Pillow and 37 requests: generous under a loaded machine.
SYNC_TIMEOUT = 60.0
EMOJI_IN_TEXT = re.compile(r"<:(\w+):(\d+)>")


async def synced(bot) -> None:
    """Wait until the bot's card emoji sync has finished, whatever its outcome."""
    await eventually(
        lambda: bot.card_emojis.task is not None and bot.card_emojis.task.done(),
        timeout=SYNC_TIMEOUT,
        what="the card emojis' sync",
    )


def emoji_uploads(fake: FakeDiscord) -> int:
    path = f"/applications/{fake.application_id}/emojis"
    return sum(1 for method, p in fake.requests if (method, p) == ("POST", path))


def by_name(fake: FakeDiscord) -> dict[str, int]:
    return {emoji.name: emoji.id for emoji in fake.emojis.values()}


def card_buttons(hand: FakeMessage) -> list[dict]:
    """The hand's card buttons (their action is a card code, not a declaration)."""
    found = []
    for button in hand.buttons:
        action = str(button.get("custom_id", "")).split(":")[-1]
        if action in CARDS:
            found.append(button)
    return found


async def open_hand(bot, fake: FakeDiscord, seat: int) -> FakeMessage:
    table = table_of(bot, fake)
    message = await current_table_message(fake, table)
    member = member_at(bot, fake, seat)
    return await (await fake.click(member, message, label="My hand")).message()


async def test_the_card_emojis_are_made_at_first_start_and_never_again(fake_discord, tmp_path):
    fake = fake_discord
    db = tmp_path / "euchre.db"
    async with running_bot(fake, db) as bot:
        await synced(bot)
        assert sorted(bot.card_emojis.created) == sorted(emoji_name(c) for c in CARDS)
        first = by_name(fake)
        assert set(first) == {emoji_name(card) for card in CARDS} and len(fake.emojis) == 37
        for emoji in fake.emojis.values():
            assert same_picture(emoji.image, face_png(card_of_emoji(emoji.name)))
        assert str(emojis.emoji_of("TD")) == f"<:10D:{first['10D']}>"
    uploads = emoji_uploads(fake)
    async with running_bot(fake, db) as bot:
        await synced(bot)
        assert bot.card_emojis.created == [] and bot.card_emojis.replaced == []
        assert emoji_uploads(fake) == uploads
        assert by_name(fake) == first
        assert emojis.emoji_of("JH") is not None


async def test_an_emoji_whose_picture_changed_is_replaced(fake_discord, tmp_path):
    fake = fake_discord
    db = tmp_path / "euchre.db"
    async with running_bot(fake, db) as bot:
        await synced(bot)
    before = by_name(fake)
    # The jack of hearts as an older bot drew it (any other picture will do).
    fake.emojis[before["JH"]].image = face_png("QH")
    async with running_bot(fake, db) as bot:
        await synced(bot)
        assert bot.card_emojis.replaced == ["JH"] and bot.card_emojis.created == []
        after = by_name(fake)
        assert after["JH"] != before["JH"] and before["JH"] not in fake.emojis
        assert {n: i for n, i in after.items() if n != "JH"} == {
            n: i for n, i in before.items() if n != "JH"
        }
        assert same_picture(fake.emojis[after["JH"]].image, face_png("JH"))
        assert str(emojis.emoji_of("JH")) == f"<:JH:{after['JH']}>"


async def test_hand_buttons_and_the_table_message_show_the_card_emojis(fake_discord, tmp_path):
    fake = fake_discord
    async with running_bot(fake, tmp_path / "euchre.db") as bot:
        await synced(bot)
        ids = by_name(fake)
        await seat_four(fake)
        await start(fake)
        table = table_of(bot, fake)
        deal = table.match.deal
        message = await current_table_message(fake, table)
        turn_up = emoji_name(deal.turn_up)
        assert f"<:{turn_up}:{ids[turn_up]}>" in message.text
        assert card_label(deal.turn_up) not in message.text
        for seat in range(4):
            hand = await open_hand(bot, fake, seat)
            buttons = card_buttons(hand)
            held = table.match.view_for(seat).deal.hand
            # Every card button is its picture alone: named by the card, never mixed with text.
            assert [b["emoji"]["name"] for b in buttons] == [emoji_name(c) for c in held]
            assert all(int(b["emoji"]["id"]) == ids[b["emoji"]["name"]] for b in buttons)
            assert all(not b.get("label") for b in buttons)
            assert cards_shown(hand.text) >= set(held)
            assert not any(card_label(c) in hand.text for c in held)
        # Play into the first trick: the cards on the table are pictures too.
        while not table.match.deal.trick:
            await act_once(bot, fake)
        trick = table.match.deal.trick

        def shows_trick():
            current = fake.messages_by_id.get(table.message_id)
            return current is not None and all(
                f"<:{emoji_name(c)}:{ids[emoji_name(c)]}>" in current.text for _, c in trick
            )

        await fake.wait_for(shows_trick)


async def test_with_uploads_refused_cards_are_text_and_the_game_plays_on(
    fake_discord, tmp_path, caplog
):
    fake = fake_discord
    fake.refuse_emoji_uploads = FakeHTTPError(400, 30008, "Maximum number of emojis reached (2000)")
    with caplog.at_level(logging.WARNING, logger="bot.ui.emojis"):
        async with running_bot(fake, tmp_path / "euchre.db") as bot:
            await synced(bot)
            assert emojis.emoji_of("JH") is None
            await seat_four(fake)
            await start(fake)
            table = table_of(bot, fake)
            deals = len(table.match.deals)
            while len(table.match.deals) == deals:
                seat = table.match.to_act
                hand = await open_hand(bot, fake, seat)
                held = table.match.view_for(seat).deal.hand
                assert [b["label"].split()[-1] for b in card_buttons(hand)] == [
                    card_label(c) for c in held
                ]
                assert all("emoji" not in b for b in card_buttons(hand))
                assert not EMOJI_IN_TEXT.search(hand.text)
                assert enabled_actions(hand)
                await act_once(bot, fake)
            assert table.match.hand_results
            for message in fake.public_messages(fake.channel):
                assert not EMOJI_IN_TEXT.search(message.text)
    warnings = [
        r for r in caplog.records if r.name == "bot.ui.emojis" and r.levelno >= logging.WARNING
    ]
    assert len(warnings) == 1 and "shown as text" in warnings[0].getMessage()
    assert fake.emojis == {}


async def test_the_review_of_a_finished_deal_shows_every_card_as_a_picture(fake_discord, tmp_path):
    fake = fake_discord
    async with running_bot(fake, tmp_path / "euchre.db") as bot:
        await synced(bot)
        await seat_four(fake)
        await start(fake)
        table = table_of(bot, fake)
        first = await current_table_message(fake, table)
        while len(table.match.deals) == 1:
            await act_once(bot, fake)
        deal = table.match.deals[0]
        message = await fake.wait_for(
            lambda: (
                "Review" in str(fake.messages_by_id[first.id].buttons)
                and fake.messages_by_id[first.id]
            )
        )
        review = await (await fake.click(fake.member("dave"), message, label="Review")).message()
        dealt = {card for hand in deal.dealt for card in hand}
        assert dealt | {deal.turn_up} <= cards_shown(review.text)
        assert not any(card_label(card) in review.text for card in dealt)


def replace_elsewhere(fake: FakeDiscord, card: str, picture: bytes | None) -> None:
    """What another process of the same application does to a card's emoji while this bot runs
    (a rolling deploy uploading a redrawn face): delete it and upload `picture` under a new id;
    or, with no picture, what the application's owner does in the developer portal: delete it."""
    old = fake.emoji_named(emoji_name(card))
    assert old is not None
    del fake.emojis[old.id]
    if picture is not None:
        new = FakeEmoji(fake.snowflake(), old.name, picture, old.content_type, old.user)
        fake.emojis[new.id] = new


def emoji_buttons(hand: FakeMessage) -> list[str]:
    return [b["emoji"]["name"] for b in card_buttons(hand) if b.get("emoji")]


async def test_a_card_emoji_replaced_elsewhere_the_hand_shows_in_text_then_the_new_picture(
    fake_discord, tmp_path
):
    fake = fake_discord
    async with running_bot(fake, tmp_path / "euchre.db") as bot:
        await synced(bot)
        await seat_four(fake)
        await start(fake)
        table = table_of(bot, fake)
        seat = table.match.to_act
        held = table.match.view_for(seat).deal.hand
        redrawn = face_png("QH")  # the newer face another process drew (any other picture)
        replace_elsewhere(fake, held[0], redrawn)
        hand = await open_hand(bot, fake, seat)
        # Discord refused the pictures: the hand came all the same, every card as text.
        assert [b["label"].split()[-1] for b in card_buttons(hand)] == [card_label(c) for c in held]
        assert emoji_buttons(hand) == [] and not EMOJI_IN_TEXT.search(hand.text)
        assert enabled_actions(hand)
        # The set is checked again: the new picture is taken as it is, not replaced.
        await synced(bot)
        new = fake.emoji_named(emoji_name(held[0]))
        assert new is not None and new.image == redrawn
        assert bot.card_emojis.created == [] and bot.card_emojis.replaced == []
        assert str(emojis.emoji_of(held[0])) == f"<:{new.name}:{new.id}>"
        again = await open_hand(bot, fake, seat)
        assert emoji_buttons(again) == [emoji_name(c) for c in held]
        assert int(card_buttons(again)[0]["emoji"]["id"]) == new.id


async def test_a_card_emoji_deleted_while_hands_are_open_they_follow_the_game_in_text(
    fake_discord, tmp_path
):
    fake = fake_discord
    async with running_bot(fake, tmp_path / "euchre.db") as bot:
        await synced(bot)
        await seat_four(fake)
        await start(fake)
        table = table_of(bot, fake)
        hands = {seat: await open_hand(bot, fake, seat) for seat in range(4)}
        first = table.match.to_act
        watcher = (first + 1) % 4
        held = table.match.view_for(watcher).deal.hand
        replace_elsewhere(fake, held[0], None)
        hand = fake.messages_by_id[hands[first].id]
        passing = next(c for c in enabled_actions(hand) if c.endswith(":pass"))
        await (await fake.click(member_at(bot, fake, first), hand, passing)).response()
        # The watcher's hand, which holds that card, is now theirs to act from: it follows
        # the game still (not called expired), its cards as text.
        watched = await fake.wait_for(
            lambda: (
                enabled_actions(fake.messages_by_id[hands[watcher].id])
                and fake.messages_by_id[hands[watcher].id]
            )
        )
        assert emoji_buttons(watched) == [] and not EMOJI_IN_TEXT.search(watched.text)
        assert bot.live_hands.has_live(table.id, member_at(bot, fake, watcher).id)
        assert not any("expired" in m.content for m in fake.public_messages(fake.channel))
        # The card deleted is uploaded again.
        await synced(bot)
        assert bot.card_emojis.created == [emoji_name(held[0])]
        assert emojis.emoji_of(held[0]) is not None
        # The watcher plays on from the same message.
        watched_pass = next(c for c in enabled_actions(watched) if c.endswith(":pass"))
        await (await fake.click(member_at(bot, fake, watcher), watched, watched_pass)).response()
        assert table.match.to_act != watcher


async def test_the_table_message_goes_on_when_a_card_emoji_is_gone(fake_discord, tmp_path):
    fake = fake_discord
    async with running_bot(fake, tmp_path / "euchre.db") as bot:
        await synced(bot)
        await seat_four(fake)
        await start(fake)
        table = table_of(bot, fake)
        turn_up = table.match.deal.turn_up
        replace_elsewhere(fake, turn_up, None)
        # Its buttons show no card (only its text does, which Discord never refuses): its
        # edits are taken, and it follows the game.
        before = (await current_table_message(fake, table)).text
        await act_once(bot, fake)
        await fake.wait_for(lambda: fake.messages_by_id[table.message_id].text != before)
        assert not fake.messages_by_id[table.message_id].deleted


async def test_emojis_discord_refuses_though_it_lists_them_cost_one_check_a_while(
    fake_discord, tmp_path, monkeypatch, caplog
):
    """Discord may refuse an emoji it still lists (one just uploaded, or made unavailable): the
    check finds the set whole, so the bot stays in text for a while (the wait, doubled each
    time, is the bot's own `sleep`, held here until the test lets it end) instead of checking
    again and sending each hand twice on every move, and warns once."""
    fake = fake_discord
    refusing = True

    def refuse_listed(msg: FakeMessage) -> None:
        for component in iter_components(msg.components):
            emoji = component.get("emoji")
            if refusing and emoji and card_of_emoji(emoji.get("name", "")):
                raise FakeHTTPError(400, 50035, "Invalid Form Body: components: Invalid emoji")
        check_emojis(msg)

    check_emojis = fake._check_emojis
    monkeypatch.setattr(fake, "_check_emojis", refuse_listed)
    waits: list[float] = []
    ended = asyncio.Semaphore(0)

    async def held(seconds: float) -> None:
        waits.append(seconds)
        await ended.acquire()

    path = f"/applications/{fake.application_id}/emojis"

    def checks() -> int:
        return sum(1 for method, p in fake.requests if (method, p) == ("GET", path))

    with caplog.at_level(logging.INFO, logger="bot.ui.emojis"):
        async with running_bot(fake, tmp_path / "euchre.db") as bot:
            bot.card_emojis.sleep = held
            await synced(bot)
            listed = checks()
            await seat_four(fake)
            await start(fake)
            for _ in range(12):
                await act_once(bot, fake)
            await synced(bot)
            assert checks() == listed + 1  # one check, not one for every hand refused
            await eventually(lambda: waits == [emojis.BACKOFF], what="the first wait in text")
            assert emojis.emoji_of("AS") is None
            # The wait over, the pictures are tried again; refused again, the next wait doubles.
            ended.release()
            for _ in range(3):  # the first hand drawn with pictures is refused
                if len(waits) == 2:
                    break
                await act_once(bot, fake)
            await synced(bot)
            await eventually(lambda: len(waits) == 2, what="the second wait in text")
            assert waits == [emojis.BACKOFF, 2 * emojis.BACKOFF] and checks() == listed + 2
            # Discord takes them at last: after the wait, the hands show pictures again.
            refusing = False
            ended.release()
            await eventually(lambda: emojis.emoji_of("AS") is not None, what="pictures again")
            hand = await open_hand(bot, fake, table_of(bot, fake).match.to_act)
            assert card_buttons(hand) and all(b.get("emoji") for b in card_buttons(hand))
            assert not bot.handler_errors
    warnings = [
        r for r in caplog.records if r.name == "bot.ui.emojis" and r.levelno >= logging.WARNING
    ]
    assert len(warnings) == 1 and "shown as text" in warnings[0].getMessage(), warnings


async def test_a_member_who_chooses_text_has_his_own_hand_and_review_in_text(
    fake_discord, tmp_path
):
    """/settings cards look:text: the member's open hand is redrawn in text at once, and his
    review of a deal is in text, while the others' hands and the table message keep their
    pictures; the choice is stored, so after a restart his hand is still text."""
    fake = fake_discord
    db = tmp_path / "euchre.db"
    async with running_bot(fake, db) as bot:
        await synced(bot)
        await seat_four(fake)
        await start(fake)
        table = table_of(bot, fake)
        reader = member_at(bot, fake, 1)
        other = member_at(bot, fake, 2)
        reader_hand = await open_hand(bot, fake, 1)
        other_hand = await open_hand(bot, fake, 2)
        assert emoji_buttons(reader_hand) and emoji_buttons(other_hand)
        answer = await (
            await fake.slash(reader, fake.channel, "settings cards", look="text")
        ).message()
        assert answer.ephemeral and "as text" in answer.text
        held = table.match.view_for(1).deal.hand
        redrawn = await fake.wait_for(
            lambda: (
                not emoji_buttons(fake.messages_by_id[reader_hand.id])
                and fake.messages_by_id[reader_hand.id]
            )
        )
        labels = [b.get("label") for b in card_buttons(redrawn)]
        assert labels == [card_label(c) for c in held]
        assert not EMOJI_IN_TEXT.search(redrawn.text)
        # Everyone else's look is theirs: the other hand and the table message keep pictures.
        assert emoji_buttons(fake.messages_by_id[other_hand.id])
        assert EMOJI_IN_TEXT.search((await current_table_message(fake, table)).text)
        # A review the member asks for is in text; the same review for another, pictures.
        first = await current_table_message(fake, table)
        while len(table.match.deals) == 1:
            await act_once(bot, fake)
        message = await fake.wait_for(
            lambda: (
                "Review" in str(fake.messages_by_id[first.id].buttons)
                and fake.messages_by_id[first.id]
            )
        )
        mine = await (await fake.click(reader, message, label="Review")).message()
        theirs = await (await fake.click(other, message, label="Review")).message()
        assert not EMOJI_IN_TEXT.search(mine.text) and EMOJI_IN_TEXT.search(theirs.text)
        seat = 1
    async with running_bot(fake, db) as bot:
        await synced(bot)
        hand = await open_hand(bot, fake, seat)
        assert card_buttons(hand) and not emoji_buttons(hand)
        # And back to pictures, which his open hand shows at once.
        reader = member_at(bot, fake, seat)
        await (await fake.slash(reader, fake.channel, "settings cards", look="pictures")).message()
        await fake.wait_for(lambda: emoji_buttons(fake.messages_by_id[hand.id]))


async def test_with_the_network_failing_under_the_uploads_one_warning_and_text(
    fake_discord, tmp_path, caplog
):
    """A connection dropped under an emoji upload is no bug of the bot: it is said in one
    warning, as a refusal is, and cards are text; no error with a traceback is logged."""
    fake = fake_discord
    fake.drop_emoji_uploads = True
    with caplog.at_level(logging.WARNING, logger="bot.ui.emojis"):
        async with running_bot(fake, tmp_path / "euchre.db") as bot:
            await synced(bot)
            assert emojis.emoji_of("JH") is None
    said = [r for r in caplog.records if r.name == "bot.ui.emojis" and r.levelno >= logging.WARNING]
    assert len(said) == 1 and said[0].levelno == logging.WARNING, said
    assert "shown as text" in said[0].getMessage() and said[0].exc_info is None
