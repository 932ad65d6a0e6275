"""/table back after a computer held the seat, with the real bot against the fake Discord: the
member is told the truth about the hand they had open, which was to "come back here": it follows
the game again, or (after a restart, which no open hand outlives) it must be opened again, and
their turn's ping says so."""

from __future__ import annotations

from bot.ui.live_hands import HELD_TEXT
from bot.ui.table_messages import HAND_RESTARTED
from tests.bot.helpers import (
    current_table_message,
    enabled_actions,
    eventually,
    member_at,
    running_bot,
    seat_four,
    table_of,
)
from tests.support.fake_discord import FakeDiscord, FakeMember, FakeMessage

pytest_plugins = ["tests.support.fixtures"]

HELD_WORDS = HELD_TEXT.split(",")[0]  # "You timed out twice"


async def hold_a_seat(bot, fake: FakeDiscord) -> tuple[int, FakeMember, FakeMessage]:
    """Start a rubber with every hand open, and time out every turn until a computer holds a
    member's seat. Returns the seat, its member and their open hand, which says it waits."""
    await seat_four(fake)
    alice = fake.member("alice")
    await (await fake.slash(alice, fake.channel, "table start", keep_seats=True)).response()
    table = table_of(bot, fake)
    message = await current_table_message(fake, table)
    hands = {}
    for seat in range(4):
        member = member_at(bot, fake, seat)
        hands[member.id] = await (await fake.click(member, message, label="My hand")).message()
    while not any(o.held_for for o in table.seats):
        await bot.manager.time_out_now(table)
    seat = next(s for s, o in enumerate(table.seats) if o.held_for)
    member = fake.guild.members[table.seats[seat].held_for]
    hand = hands[member.id]
    await eventually(lambda: HELD_WORDS in fake.messages_by_id[hand.id].text)
    return seat, member, hand


async def play_until(bot, fake: FakeDiscord, seat: int) -> None:
    """The other members play from /hand (the computers by themselves) until `seat` is to act."""
    table = table_of(bot, fake)
    while table.match.to_act != seat:
        to_act = table.match.to_act
        if table.seats[to_act].is_bot:
            await eventually(lambda s=to_act: table.match.to_act != s)
            continue
        other = member_at(bot, fake, to_act)
        opened = await (await fake.slash(other, fake.channel, "hand")).message()
        await (await fake.click(other, opened, enabled_actions(opened)[0])).response()


async def test_back_at_the_seat_the_hand_left_open_follows_the_game_again(fake_discord, tmp_path):
    fake = fake_discord
    async with running_bot(fake, tmp_path / "euchre.db") as bot:
        seat, member, hand = await hold_a_seat(bot, fake)
        back = await (await fake.slash(member, fake.channel, "table back")).message()
        assert "The hand you had open follows the game again" in back.text
        await eventually(lambda: "Your hand" in fake.messages_by_id[hand.id].text)


async def test_back_at_a_seat_held_over_a_restart_the_member_is_told_to_open_the_hand_again(
    fake_discord, tmp_path
):
    fake = fake_discord
    db = tmp_path / "euchre.db"
    async with running_bot(fake, db) as bot:
        seat, member, hand = await hold_a_seat(bot, fake)
    async with running_bot(fake, db) as bot:
        await fake.wait_for(
            lambda: any("restored" in m.text for m in fake.public_messages(fake.channel))
        )
        pings_before = {m.id for m in fake.public_messages(fake.channel)}
        back = await (await fake.slash(member, fake.channel, "table back")).message()
        # The hand opened before the restart no longer follows the game: no promise it does.
        assert "follows the game again" not in back.text
        assert "My hand" in back.text
        assert HELD_WORDS in fake.messages_by_id[hand.id].text
        # At their turn, the ping says why their hand stands still, as it does for every member
        # whose hand a restart left behind.
        await play_until(bot, fake, seat)
        await fake.wait_for(
            lambda: any(
                m.id not in pings_before
                and m.content.startswith(f"<@{member.id}>")
                and HAND_RESTARTED in m.content
                for m in fake.public_messages(fake.channel)
            )
        )
