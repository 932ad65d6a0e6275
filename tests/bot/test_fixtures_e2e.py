"""Fixtures through the real bot and the fake Discord: a fixture that misses its deadline
(its reminder sent once, the forfeit applied across a restart), and a fixture played."""

from __future__ import annotations

import discord

from bot.tables.fixtures import DAY, HOUR
from tests.bot.helpers import act_once, eventually, running_bot, table_of
from tests.support.fake_discord import FakeDiscord

pytest_plugins = ["tests.support.fixtures"]

START = 1_700_000_000.0


class Clock:
    """The fixtures' clock: the test moves it, no window is waited for."""

    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> float:
        return self.now


async def slash(fake: FakeDiscord, who: str, command: str, /, **options) -> str:
    """A command's first answer (private or public)."""
    return (
        await (await fake.slash(fake.member(who), fake.channel, command, **options)).message()
    ).text


async def league_with_pairs(fake: FakeDiscord) -> None:
    """Friday Night (a single game to 1 point), alice & bob and carol & dave registered, and
    one round robin fixture between them, two days to play it, forfeit at the deadline."""
    fake.add_member(
        fake.guild, "organiser", permissions=discord.Permissions(manage_guild=True).value
    )
    created = await slash(
        fake,
        "organiser",
        "league create",
        name="Friday Night",
        preset="modern",
        points=1,
        match="game",
        format="fixtures",
    )
    assert "is open" in created
    for name in ("alice", "bob", "carol", "dave"):
        assert "You joined" in await slash(fake, name, "league join", name="Friday Night")
    for first, second in (("alice", "bob"), ("carol", "dave")):
        text = await slash(
            fake, first, "fixtures register", league="Friday Night", partner=fake.member(second)
        )
        assert "are registered" in text
    made = await slash(
        fake,
        "organiser",
        "fixtures make",
        league="Friday Night",
        kind="round_robin",
        window_days=2,
        deadline="forfeit",
    )
    assert "F1" in made and "alice & bob v carol & dave" in made


def errors_of(bot) -> list:
    """What the bot logged as errors, but the card pictures' upload a shutdown cuts short."""
    return [r for r in bot.handler_errors if r.name != "bot.ui.emojis"]


def posted(fake: FakeDiscord, words: str):
    return [m for m in fake.public_messages(fake.channel) if words in m.text]


async def test_a_missed_deadline_is_forfeited_across_a_restart_and_reminded_once(
    fake_discord, tmp_path
):
    fake, db = fake_discord, tmp_path / "euchre.db"
    clock = Clock()
    end = int(START) + 2 * DAY
    async with running_bot(fake, db, fixture_clock=clock) as bot:
        await league_with_pairs(fake)
        for name in ("carol", "dave"):
            assert "You sit down for F1" in await slash(fake, name, "fixtures play", fixture="F1")
        assert table_of(bot, fake) is not None
        clock.now = end - DAY + 60
        bot.fixtures.wake()
        reminder = await fake.wait_for(lambda: next(iter(posted(fake, "within a day")), None))
        players = {fake.member(n).id for n in ("alice", "bob", "carol", "dave")}
        assert reminder.notified == players  # exactly the fixture's players
        assert f"<t:{end}:f>" in reminder.text and f"<t:{end}:R>" in reminder.text
    # Down over the deadline: the hour's reminder is past, the forfeit is due.
    clock.now = end + HOUR
    async with running_bot(fake, db, fixture_clock=clock) as bot:
        result = await fake.wait_for(lambda: next(iter(posted(fake, "by forfeit")), None))
        assert "won by carol & dave by forfeit" in result.text
        assert "its window ended before it was played" in result.text
        await eventually(lambda: table_of(bot, fake) is None, what="the fixture's table to close")
        listed = await slash(fake, "alice", "fixtures list", league="Friday Night")
        assert "won by carol & dave by forfeit" in listed
        bot.fixtures.wake()
        await eventually(lambda: posted(fake, "Won by **carol & dave**"), what="the end")
    assert len(posted(fake, "must be played within")) == 1  # the reminder, once
    assert not errors_of(bot)


async def test_a_fixture_played_through_the_bot(fake_discord, tmp_path):
    fake, db = fake_discord, tmp_path / "euchre.db"
    async with running_bot(fake, db, fixture_clock=Clock()) as bot:
        await league_with_pairs(fake)
        refused = await slash(fake, "organiser", "fixtures play", fixture="F1")
        assert "You do not play in F1" in refused
        for name in ("alice", "carol", "bob"):
            assert "You sit down for F1" in await slash(fake, name, "fixtures play", fixture="F1")
        assert "the match starts" in await slash(fake, "dave", "fixtures play", fixture="F1")
        table = table_of(bot, fake)
        assert [o.name for o in table.seats] == ["alice", "carol", "bob", "dave"]
        for _ in range(400):
            if not table.playing:
                break
            await act_once(bot, fake)
        assert not table.playing
        result = await fake.wait_for(lambda: next(iter(posted(fake, "**F1**, ")), None))
        winner = await bot.db.fetchval("SELECT winner FROM matches WHERE id = ?", (table.match_id,))
        name = "alice & bob" if winner == 0 else "carol & dave"
        assert f"won by {name}" in result.text and f"(M{table.match_id})" in result.text
    assert not errors_of(bot)
