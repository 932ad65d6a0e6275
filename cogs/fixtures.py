"""/fixtures: a league's registered pairs and the fixtures set between them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.storage import fixtures as store
from bot.storage import leagues
from bot.storage.database import Database
from bot.storage.fixtures import FixtureError, parse_fixture_id
from bot.tables.fixtures import series_standings
from bot.ui.fixtures import (
    fixture_choices,
    fixtures_embed,
    made_embed,
    pairs_embed,
    played_text,
    registered_text,
    standings_embed,
    withdrawn_text,
)
from bot.ui.leagues import league_choices
from bot.ui.respond import answer, channel_id_of, guild_id_of

Kind = Literal["round_robin", "swiss", "single_elimination", "double_elimination"]
Deadline = Literal["forfeit", "double_forfeit", "extend"]

if TYPE_CHECKING:
    from bot.client import EuchreBot


def _who(member: discord.abc.User) -> tuple[int, str]:
    if member.bot:
        raise FixtureError("a pair is made of members: {} is a bot", member.display_name)
    return member.id, member.display_name


class Fixtures(commands.Cog):
    """Fixtures for a league's fixed partnerships."""

    # As /league: everyone registers, so no default permissions; /fixtures make checks
    # Manage Server itself.
    fixtures = app_commands.Group(
        name="fixtures", description="Fixtures between a league's registered pairs", guild_only=True
    )

    def __init__(self, bot: EuchreBot) -> None:
        self.bot = bot

    @property
    def db(self) -> Database:
        return self.bot.db

    async def _league(self, interaction: discord.Interaction, name: str) -> leagues.League:
        return await leagues.find_league(self.db, guild_id_of(interaction), name)

    @fixtures.command(name="register")
    @app_commands.describe(
        league="the league",
        partner="your partner for every fixture (a member of the league)",
        alternate="a third member who may play for either of you",
    )
    async def register(
        self,
        interaction: discord.Interaction,
        league: str,
        partner: discord.Member,
        alternate: discord.Member | None = None,
    ) -> None:
        """Register yourself and a partner as a pair of a league."""
        found = await self._league(interaction, league)
        me, mate = _who(interaction.user), _who(partner)
        spare = _who(alternate) if alternate is not None else None
        now = self.bot.fixtures.now()

        async def work(db: Database) -> store.Pair:
            return await store.register_pair(db, found, me, mate, spare, now)

        pair = await self.bot.manager.writer.write(work)
        await answer(interaction, registered_text(found, pair))

    @fixtures.command(name="withdraw")
    @app_commands.describe(league="the league")
    async def withdraw(self, interaction: discord.Interaction, league: str) -> None:
        """Withdraw your pair from a league's fixtures."""
        found = await self._league(interaction, league)
        now = self.bot.fixtures.now()

        async def work(db: Database) -> store.Pair:
            return await store.withdraw_pair(db, found, interaction.user.id, now)

        pair = await self.bot.manager.writer.write(work)
        # Its fixtures not yet under way are forfeited now, not at the scheduler's next look.
        self.bot.fixtures.wake()
        await answer(interaction, withdrawn_text(found, pair))

    @fixtures.command(name="pairs")
    @app_commands.describe(league="the league", page="page of fifteen, in their seeding order")
    async def pairs(self, interaction: discord.Interaction, league: str, page: int = 1) -> None:
        """A league's registered pairs."""
        found = await self._league(interaction, league)
        registered = await store.league_pairs(self.db, found.id)
        await interaction.response.send_message(embed=pairs_embed(found, registered, page))

    @fixtures.command(name="make")
    @app_commands.describe(
        league="the league",
        kind="round robin, Swiss, single or double elimination",
        window_days="days each fixture may be played in (1-365)",
        deadline="what happens when a window ends before its fixture is played",
    )
    async def make(
        self,
        interaction: discord.Interaction,
        league: str,
        kind: Kind,
        window_days: int,
        deadline: Deadline,
    ) -> None:
        """Make a league's fixtures between its registered pairs (Manage Server)."""
        guild_id_of(interaction)  # in a DM, say where it works, not that one may not manage it
        if not interaction.permissions.manage_guild:
            raise FixtureError("only members who may manage this server can make fixtures")
        found = await self._league(interaction, league)
        made = await self.bot.fixtures.make(
            found, kind, window_days, deadline, channel_id_of(interaction), interaction.user.id
        )
        # In public: the fixtures concern every pair of the league.
        await interaction.response.send_message(embed=made_embed(found.name, made))

    @fixtures.command(name="list")
    @app_commands.describe(league="the league", page="page of ten fixtures")
    async def list_fixtures(
        self, interaction: discord.Interaction, league: str, page: int = 1
    ) -> None:
        """A league's fixtures: their windows and how they stand."""
        found = await self._league(interaction, league)
        shown = await store.fixture_page(self.db, found, page)
        await interaction.response.send_message(embed=fixtures_embed(found, shown))

    @fixtures.command(name="standings")
    @app_commands.describe(league="the league", page="page of fifteen pairs")
    async def standings(self, interaction: discord.Interaction, league: str, page: int = 1) -> None:
        """The table of a league's round robin or Swiss event: match points and tie-breaks."""
        found = await self._league(interaction, league)
        series = await store.latest_series(self.db, found.id)
        if series is None:
            raise FixtureError("the league {} has no fixtures yet: /fixtures make", found.name)
        if series.kind not in ("round_robin", "swiss"):
            raise FixtureError(
                "the league {} plays an elimination, which has no table: /fixtures list shows"
                " who goes on",
                found.name,
            )
        every = await store.series_fixtures(self.db, series.id)
        rows = series_standings(series, every)
        pairs = await store.pairs_by_id(self.db, series.entrants)
        embed = standings_embed(found, series, rows, pairs, page)
        await interaction.response.send_message(embed=embed)

    @fixtures.command(name="play")
    @app_commands.describe(fixture="the fixture, like F12 (/fixtures list shows them)")
    async def play(self, interaction: discord.Interaction, fixture: str) -> None:
        """Sit down for a fixture of yours: the first opens its table in this channel."""
        fixture_id = parse_fixture_id(fixture)
        played = await self.bot.fixtures.play(
            fixture_id,
            guild_id_of(interaction),
            channel_id_of(interaction),
            interaction.user.id,
            interaction.user.display_name,
        )
        await answer(interaction, played_text(played))
        for change in played.changes:
            if change.kind == "created":
                await self.bot.table_messages.render(change.table, fresh=True)
            else:
                await self.bot.table_messages.table_changed(change)

    @play.autocomplete("fixture")
    async def fixture_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await fixture_choices(self.db, interaction.guild_id, interaction.user.id, current)

    @register.autocomplete("league")
    @withdraw.autocomplete("league")
    @pairs.autocomplete("league")
    @make.autocomplete("league")
    @list_fixtures.autocomplete("league")
    @standings.autocomplete("league")
    async def league_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await league_choices(self.db, interaction.guild_id, current)


async def setup(bot: EuchreBot) -> None:
    await bot.add_cog(Fixtures(bot))
