"""The four-handed table as players live it, through the real bot and the fake Discord (round
7): a long evening at one table, rubber after rubber, with members leaving and computers
sitting between them; and a newcomer's first evening, from /help to the first deal."""

from __future__ import annotations

from tests.bot.helpers import current_table_message, eventually, running_bot, seat_four, table_of
from tests.bot.test_table_life_e2e import open_hands, play_from_hand

pytest_plugins = ["tests.support.fixtures"]


async def play_the_match(bot, fake) -> None:
    table = table_of(bot, fake)
    hands = await open_hands(bot, fake)
    actions = 0
    while table.playing:
        await play_from_hand(bot, fake, hands)
        actions += 1
        assert actions < 1000


async def test_the_table_message_between_rubbers_names_no_one_for_a_deal_they_did_not_play(
    fake_discord, tmp_path
):
    """Dave leaves once the rubber is won, and the host seats a computer in his place. The
    table message went on drawing the rubber's last deal against the seats as they stood
    now: the computer had discarded and played dave's card to the last trick, the dealer's
    mark stayed on a seat the next cut gives anew, and the winners named were whoever sat at
    their seats by then. Between rubbers it shows the table as it stands and the last
    rubber's result; the last deal's own message keeps it as dave played it."""
    fake = fake_discord
    async with running_bot(fake, tmp_path / "euchre.db") as bot:
        await seat_four(fake, preset="modern", match="rubber", points=1)
        alice = fake.member("alice")
        await (await fake.slash(alice, fake.channel, "table start", keep_seats=True)).response()
        table = table_of(bot, fake)
        await play_the_match(bot, fake)
        await (await fake.slash(fake.member("dave"), fake.channel, "table leave")).response()
        await (await fake.slash(alice, fake.channel, "table addbot")).response()

        def between_rubbers():
            message = fake.messages_by_id.get(table.message_id)
            return (
                message and "Computer" in message.text and "dave left" in message.text and message
            )

        shown = await eventually(between_rubbers, what="the table message with the computer")
        text = shown.text
        assert "**West**: Computer (expert)\n" in text, text
        for stale in ("(dealer)", "Declarations", "Last trick", "discarded", "won by"):
            assert stale not in text, (stale, text)
        assert "win the rubber" in text and "(alice and carol)" not in text, text
        assert "the host runs /table start" in text, text
        assert [b["label"] for b in shown.buttons] == ["Join", "Start"]
        last_deal = [m for m in fake.public_messages(fake.channel) if "Review" in str(m.buttons)][
            -1
        ]
        assert "**West**: dave" in last_deal.text, last_deal.text
        # The next rubber's table message is a deal's again, with its dealer and turn.
        await (await fake.slash(alice, fake.channel, "table start")).response()
        message = await current_table_message(fake, table)
        assert "(dealer)" in message.text and "Turn" in message.text, message.text
        assert "Last rubber" not in message.text
        assert not bot.handler_errors


async def test_a_newcomer_opening_a_table_is_told_how_to_start_it(fake_discord, tmp_path):
    """Alice, new to the bot, opens a table: the answer told her how others join and how to
    add computers, never how the game begins, and the Start button she then saw was named
    nowhere. It names /table start. Bob, joining, presses Start: he read only that the host
    could do that, not to ask her. Once two computers sit, /table start deals."""
    fake = fake_discord
    alice, bob = fake.member("alice"), fake.member("bob")
    async with running_bot(fake, tmp_path / "euchre.db") as bot:
        opened = await (await fake.slash(alice, fake.channel, "table create")).message()
        assert opened.ephemeral and "/table start" in opened.text, opened.text
        table = table_of(bot, fake)
        message = await eventually(
            lambda: fake.messages_by_id.get(table.message_id), what="the table message"
        )
        await (await fake.click(bob, message, label="Join")).response()
        refused = await (await fake.click(bob, message, label="Start")).message()
        assert refused.ephemeral and "“alice”, can do that: ask them" in refused.text, refused.text
        for _ in range(2):
            await (await fake.slash(alice, fake.channel, "table addbot")).response()
        started = await (await fake.slash(alice, fake.channel, "table start")).message()
        assert "dealt" in started.text, started.text
        assert not bot.handler_errors


async def test_a_member_waiting_in_line_is_told_so_when_asking_for_a_hand(fake_discord, tmp_path):
    """Five belong to the table, and the cut leaves one waiting. Pressing My hand he read
    "Only the players seated at this table have a hand to see", and /hand or /pass told
    him he was not seated: as to a stranger, nothing said he is in line for the next
    rubber. Each now says so."""
    fake = fake_discord
    erin = fake.add_member(fake.guild, "erin")
    async with running_bot(fake, tmp_path / "euchre.db") as bot:
        await seat_four(fake, preset="somerset")
        await (await fake.slash(erin, fake.channel, "table join")).response()
        await (await fake.slash(fake.member("alice"), fake.channel, "table start")).response()
        table = table_of(bot, fake)
        waiting = fake.member(table.waiting[0].name)
        message = await current_table_message(fake, table)
        said = [(await (await fake.click(waiting, message, label="My hand")).message()).text]
        for command in ("hand", "pass"):
            said.append((await (await fake.slash(waiting, fake.channel, command)).message()).text)
        for text in said:
            assert "wait in line" in text and "from the next rubber" in text, text
        assert not bot.handler_errors
