"""A league's season through the real bot and the fake Discord: an organiser starts it, four
members play a short match for the league, and its standings and ratings show the result."""

from __future__ import annotations

import re

import discord

from bot.storage import league_results
from tests.bot.helpers import NAMES, act_once, eventually, private, public, running_bot, table_of

pytest_plugins = ["tests.support.fixtures"]


async def test_a_league_match_moves_the_seasons_standings_and_ratings(fake_discord, tmp_path):
    fake = fake_discord
    fake.add_member(
        fake.guild, "organiser", permissions=discord.Permissions(manage_guild=True).value
    )
    async with running_bot(fake, tmp_path / "euchre.db") as bot:
        created = await private(
            fake, "organiser", "league create", name="Quick", preset="modern", points=1,
            match="game",
        )  # fmt: skip
        assert "is open" in created
        for name in NAMES:
            assert "You joined" in await private(fake, name, "league join", name="Quick")
        assert "manage this server" in await private(
            fake, "alice", "league season start", league="Quick"
        )
        assert "has started" in await private(
            fake, "organiser", "league season start", league="Quick", name="Spring"
        )

        assert "for the league" in await private(fake, "alice", "table create", league="Quick")
        for name in NAMES[1:]:
            assert "You sit at" in await private(fake, name, "table join")
        assert "dealt" in await private(fake, "alice", "table start")
        table = await eventually(lambda: table_of(bot, fake), what="the league's table")
        match_id = table.match_id
        while table.playing:
            await act_once(bot, fake)
        winners = {o.name for s, o in enumerate(table.seats) if s % 2 == table.match.winner}

        standings = await public(fake, "bob", "league standings", league="Quick")
        assert "Spring" in standings
        lines = [line for line in standings.split("\n") if line[:2] in ("1.", "3.")]
        top = {line.split(".")[1].split(":")[0].strip() for line in lines if line.startswith("1.")}
        assert top == winners, standings
        assert standings.count("1 match") == 4

        for name in NAMES:
            rating = await public(
                fake, "carol", "league rating", league="Quick", member=fake.member(name)
            )
            assert "μ" in rating and "σ" in rating and "1 rated game" in rating
            shown = re.search(r"\*\*(-?[\d.]+)\*\* \(μ", rating)  # μ - 3σ, in bold
            assert shown is not None, rating
            high = float(shown.group(1))
            assert (high > 0) == (name in winners), rating  # a new player's is 25 - 3 × 25/3 = 0

        assert await league_results.check_league(bot.db, table.league_id) == []
        answer = await private(fake, "bob", "league match", id=f"M{match_id}")
        assert "counts for the league" in answer
