"""The four-handed table as players live it, through the real bot and the fake Discord (round
6): what a member who joins a table in play is told."""

from __future__ import annotations

from tests.bot.helpers import running_bot
from tests.bot.test_table_life_e2e import seat_and_start

pytest_plugins = ["tests.support.fixtures"]


async def test_a_member_joining_a_single_game_in_play_waits_for_the_next_game(
    fake_discord, tmp_path
):
    """Modern plays single games. Erin, joining mid-game, was told a rubber was being played
    and she would play from the next rubber: there is none. She is told of the game."""
    fake = fake_discord
    erin = fake.add_member(fake.guild, "erin")
    async with running_bot(fake, tmp_path / "euchre.db") as bot:
        await seat_and_start(fake, preset="modern")
        joined = await (await fake.slash(erin, fake.channel, "table join")).message()
        assert joined.ephemeral
        assert joined.text.startswith("A game is being played: you wait in line"), joined.text
        assert "rubber" not in joined.text
        assert not bot.handler_errors
