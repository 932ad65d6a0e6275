"""Leagues, their fixtures and their corrections as organisers and members use them, through
the real bot and the fake Discord (QA's third round): what it found, each kept by a test."""

from __future__ import annotations

from tests.bot.helpers import private, running_bot
from tests.bot.test_fixtures_e2e import Clock, league_with_pairs, posted

pytest_plugins = ["tests.support.fixtures"]


async def test_a_withdrawal_announces_the_forfeit_as_a_withdrawal_not_a_missed_window(
    fake_discord, tmp_path
):
    """alice & bob withdraw with two days of F1's window left: the channel was told "its window
    ended before it was played". It now says they withdrew, and nothing about the window."""
    fake = fake_discord
    async with running_bot(fake, tmp_path / "euchre.db", fixture_clock=Clock()) as bot:
        await league_with_pairs(fake)
        assert "withdrew" in await private(
            fake, "alice", "fixtures withdraw", league="Friday Night"
        )
        result = await fake.wait_for(
            lambda: next(iter(posted(fake, "by forfeit")), None), what="F1 forfeited"
        )
        assert "alice & bob withdrew; won by carol & dave by forfeit" in result.text, result.text
        assert "window" not in result.text, result.text
        assert not bot.handler_errors
