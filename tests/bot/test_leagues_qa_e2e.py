"""Leagues, leaderboards and stats as a server's organisers and members use them, through the
real bot and the fake Discord: what QA found, each kept by a test."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.storage.database import Database
from bot.storage.results import SeatPlayer
from tests.bot.helpers import running_bot
from tests.storage.builders import quick_rubber
from tests.support.fake_discord import FakeDiscord

pytest_plugins = ["tests.support.fixtures"]

# The longest display name Discord allows, each character one markdown escape doubles.
STARS = "*" * 32


def seated(*members: tuple[int, str]) -> tuple[SeatPlayer, ...]:
    return tuple(
        SeatPlayer(seat=seat, user_id=uid, name=name, is_bot=False, substitute=False)
        for seat, (uid, name) in enumerate(members)
    )


async def stats_reply(fake: FakeDiscord, who: str, command: str, **options):
    return await (await fake.slash(fake.member(who), fake.channel, command, **options)).message()


async def test_stats_against_eight_pairs_of_long_markdown_names_is_shown(fake_discord, tmp_path):
    """/stats of a member who met eight pairs of opponents, every name 32 asterisks: the
    "Against" field holds them all escaped within Discord's 1,024 characters a field."""
    fake = fake_discord
    alice = fake.member("alice")
    db_path = tmp_path / "euchre.db"
    async with running_bot(fake, db_path) as bot:
        db: Database = bot.db
        me, partner = (alice.id, STARS), (9000, STARS)
        when = datetime.now(UTC)
        for pair in range(8):
            east, west = (9100 + 2 * pair, STARS), (9101 + 2 * pair, STARS)
            for _ in range(2):  # two rubbers of two games: four games against each pair
                await quick_rubber(
                    db, seated(me, east, partner, west), winner=0, rubber_points=(3, 0),
                    when=when, guild=fake.guild.id,
                )  # fmt: skip
        stats = await stats_reply(fake, "alice", "stats")
        assert not stats.ephemeral, stats.text
        against = next(f for f in stats.embeds[0]["fields"] if f["name"] == "Against")
        assert len(against["value"]) <= 1024
        assert "\\*" in against["value"] and "more" in against["value"]
        assert not bot.handler_errors
