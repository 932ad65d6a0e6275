"""Leagues, fixtures, euchre nights and leaderboards as organisers, players and onlookers use
them, through the real bot and the fake Discord (QA's fourth round): what it found, each kept
by a test."""

from __future__ import annotations

import discord

from tests.bot.helpers import private, public, running_bot
from tests.bot.test_fixtures_e2e import Clock, errors_of, posted
from tests.support.fake_discord import FakeDiscord

pytest_plugins = ["tests.support.fixtures"]

ORGANISER = discord.Permissions(manage_guild=True).value


async def cup_of_three_pairs(fake: FakeDiscord, kind: str) -> list[str]:
    """The Cup (single games of one point, fixtures) with three pairs registered in seed order,
    ann & ben, cat & dan, eve & fay, and its fixtures of `kind` made, a day to play each."""
    fake.add_member(fake.guild, "organiser", permissions=ORGANISER)
    assert "is open" in await private(
        fake, "organiser", "league create", name="Cup", preset="modern", points=1, match="game",
        format="fixtures",
    )  # fmt: skip
    names = ["ann", "ben", "cat", "dan", "eve", "fay"]
    for name in names:
        fake.add_member(fake.guild, name)
        assert "You joined" in await private(fake, name, "league join", name="Cup")
    for first, second in zip(names[::2], names[1::2], strict=True):
        assert "are registered" in await private(
            fake, first, "fixtures register", league="Cup", partner=fake.member(second)
        )
    made = await public(
        fake, "organiser", "fixtures make", league="Cup", kind=kind, window_days=1,
        deadline="forfeit",
    )  # fmt: skip
    assert "F1" in made, made
    return names


async def test_a_bracket_match_made_for_withdrawn_pairs_is_forfeited_at_once(
    fake_discord, tmp_path
):
    """A double elimination of three pairs: cat & dan withdraw, then eve & fay. The losers'
    bracket match that brought the two withdrawn pairs together was posted "to play by" a day
    later and stayed open that long (the scheduler looked at it only at its next reminder),
    so ann & ben, the one pair left, waited a day for their title. A fixture made with a
    withdrawn pair in it is now forfeited as soon as it is made: the event ends at once."""
    fake = fake_discord
    async with running_bot(fake, tmp_path / "euchre.db", fixture_clock=Clock()) as bot:
        await cup_of_three_pairs(fake, "double_elimination")
        assert "withdrew" in await private(fake, "cat", "fixtures withdraw", league="Cup")
        await fake.wait_for(lambda: posted(fake, "**F2** ·"), what="the winners' final made")
        assert "withdrew" in await private(fake, "eve", "fixtures withdraw", league="Cup")
        await fake.wait_for(
            lambda: posted(fake, "Won by **ann & ben**"), what="the event won by ann & ben"
        )
        listed = await public(fake, "ben", "fixtures list", league="Cup")
        assert "to play by" not in listed and "finished" in listed, listed
        assert not errors_of(bot)
