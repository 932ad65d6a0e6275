"""The four-handed table as players live it, where they do what the table did not expect: a
button answered after someone else changed the table, a seat handed over while the players it
waited for leave. Through the real bot and the fake Discord."""

from __future__ import annotations

from tests.bot.helpers import running_bot, seat_four, start, table_of

pytest_plugins = ["tests.support.fixtures"]


async def test_keep_it_open_on_a_table_closed_meanwhile_says_it_is_closed(fake_discord, tmp_path):
    """Alice asks to close the table and is asked to confirm; before she answers, a moderator
    closes it. Her "Keep it open" cannot keep it open: the answer says the table is closed,
    not that it stays open."""
    fake = fake_discord
    async with running_bot(fake, tmp_path / "euchre.db") as bot:
        await seat_four(fake)
        await start(fake)
        alice, mod = fake.member("alice"), fake.member("mod")
        asked = await (await fake.slash(alice, fake.channel, "table close")).message()
        theirs = await (await fake.slash(mod, fake.channel, "table close")).message()
        await (await fake.click(mod, theirs, label="Close the table")).response()
        assert table_of(bot, fake) is None
        kept = await (await fake.click(alice, asked, label="Keep it open")).message()
        assert kept.ephemeral and kept.id == asked.id
        assert "already closed" in kept.text and "stays open" not in kept.text
        assert not kept.buttons
        assert not bot.handler_errors
