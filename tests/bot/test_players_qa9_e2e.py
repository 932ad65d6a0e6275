"""The four-handed table as players live it, through the real bot and the fake Discord (round
9): what a closed table's buttons say."""

from __future__ import annotations

from tests.bot.helpers import act_once, current_table_message, eventually, running_bot, table_of
from tests.bot.test_table_life_e2e import live, seat_and_start

pytest_plugins = ["tests.support.fixtures"]


async def test_a_closed_tables_review_button_says_why_it_closed(fake_discord, tmp_path):
    """Every button of a table that closed says why it closed (its host, a moderator, everyone
    left, it sat idle), but the Review of one of its deals said only that it had closed."""
    fake = fake_discord
    async with running_bot(fake, tmp_path / "euchre.db") as bot:
        await seat_and_start(fake, preset="jerome")
        table = table_of(bot, fake)
        first = await current_table_message(fake, table)
        while len(table.match.deals) == 1:  # everyone passes twice: the deal is over
            await act_once(bot, fake)
        finished = await eventually(
            lambda: "Review" in str(live(fake, first).buttons) and live(fake, first),
            what="the first deal's message with its Review",
        )
        mod = fake.member("mod")
        asked = await (await fake.slash(mod, fake.channel, "table close")).message()
        await (await fake.click(mod, asked, label="Close the table")).response()
        await eventually(lambda: fake.channel.id not in bot.manager.tables, what="the close")
        review = await (await fake.click(fake.member("bob"), finished, label="Review")).message()
        assert review.ephemeral, review.text
        assert review.text == (
            "That table has closed (closed by a moderator): its games can be had with /record."
        )
        assert not bot.handler_errors
