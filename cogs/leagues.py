"""/league: a server's leagues: creating one, joining and leaving, and whether a match counts."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.engine.rules import build_options
from bot.leagues.counting import reasons_not_counted
from bot.numbers import parse_whole
from bot.storage import leagues
from bot.storage.database import Database
from bot.storage.leagues import LeagueError
from bot.ui.guide import RULE_OPTION_DESCRIPTIONS
from bot.ui.leagues import (
    created_text,
    info_embed,
    joined_text,
    league_choices,
    left_text,
    match_text,
    members_embed,
)
from bot.ui.respond import answer, guild_id_of

Format = Literal["ladder", "fixtures", "progressive"]
Standing = Literal["rubber_points", "rubbers", "games", "points"]

if TYPE_CHECKING:
    from bot.client import EuchreBot


def parse_match_id(text: str) -> int:
    """``M12`` (or ``12``) is match 12, read by the bot's one rule for typed numbers.

    Raises:
        LeagueError: not such an id.
    """
    raw = text.strip().upper().lstrip("#")
    number = parse_whole(raw[1:] if raw.startswith("M") else raw)
    if number is None:
        raise LeagueError("{} is not a match id: /history shows them, like M12", text)
    return number


class Leagues(commands.Cog):
    """Leagues of this server."""

    # Not `default_permissions`: Discord applies them to the whole /league command, and every
    # member may join a league. Creating one checks Manage Server itself.
    league = app_commands.Group(
        name="league", description="This server's Euchre leagues", guild_only=True
    )

    def __init__(self, bot: EuchreBot) -> None:
        self.bot = bot

    @property
    def db(self) -> Database:
        return self.bot.db

    async def _league(self, interaction: discord.Interaction, name: str) -> leagues.League:
        return await leagues.find_league(self.db, guild_id_of(interaction), name)

    @league.command(name="create")
    @app_commands.describe(
        name="the league's name (1-40 characters, unique in this server)",
        preset="the rules every match of the league is played by",
        format="ladder (default), fixtures or progressive",
        standing="what the standings rank by (default rubber points)",
        substitutes="whether matches a computer or a substitute played in count (default no)",
        match="rubbers (best of three) or single games",
        **RULE_OPTION_DESCRIPTIONS,
    )
    async def create(
        self,
        interaction: discord.Interaction,
        name: str,
        preset: Literal["somerset", "jerome", "modern"],
        format: Format = "ladder",
        standing: Standing = "rubber_points",
        substitutes: bool = False,
        points: app_commands.Range[int, 1, 100] | None = None,
        match: Literal["rubber", "game"] | None = None,
        stick_the_dealer: bool | None = None,
        partner_alone: bool | None = None,
        defend_alone: bool | None = None,
        joker: bool | None = None,
    ) -> None:
        """Create a league with its rules (Manage Server)."""
        if not interaction.permissions.manage_guild:
            raise LeagueError("only members who may manage this server can create a league")
        options = build_options(
            preset,
            points=points,
            match=match,
            stick_the_dealer=stick_the_dealer,
            partner_alone=partner_alone,
            defend_alone=defend_alone,
            joker=joker,
        )
        guild_id = guild_id_of(interaction)

        async def work(db: Database) -> leagues.League:
            return await leagues.create_league(
                db,
                guild_id,
                name,
                options.to_dict(),
                format=format,
                standing=standing,
                substitutes=substitutes,
                created_by=interaction.user.id,
            )

        created = await self.bot.manager.writer.write(work)
        await answer(interaction, created_text(created))

    @league.command(name="join")
    @app_commands.describe(name="the league to join")
    async def join(self, interaction: discord.Interaction, name: str) -> None:
        """Join a league of this server: its tables then seat you."""
        found = await self._league(interaction, name)
        user = interaction.user

        async def work(db: Database) -> None:
            await leagues.join_league(db, found, user.id, user.display_name)

        await self.bot.manager.writer.write(work)
        await answer(interaction, joined_text(found))

    @league.command(name="leave")
    @app_commands.describe(name="the league to leave")
    async def leave(self, interaction: discord.Interaction, name: str) -> None:
        """Leave a league of this server."""
        found = await self._league(interaction, name)

        async def work(db: Database) -> None:
            await leagues.leave_league(db, found, interaction.user.id)

        await self.bot.manager.writer.write(work)
        await answer(interaction, left_text(found))

    @league.command(name="info")
    @app_commands.describe(name="the league")
    async def info(self, interaction: discord.Interaction, name: str) -> None:
        """A league's rules, format, standings and members."""
        found = await self._league(interaction, name)
        count = await leagues.member_count(self.db, found.id)
        await interaction.response.send_message(embed=info_embed(found, count))

    @league.command(name="members")
    @app_commands.describe(name="the league", page="page of twenty, in the order they joined")
    async def members(self, interaction: discord.Interaction, name: str, page: int = 1) -> None:
        """Who belongs to a league."""
        found = await self._league(interaction, name)
        result = await leagues.member_page(self.db, found.id, page)
        await interaction.response.send_message(embed=members_embed(found, result))

    @league.command(name="match")
    @app_commands.describe(id="a match id from /history, like M12")
    async def match(self, interaction: discord.Interaction, id: str) -> None:
        """Whether a match counts for its league, and if not, every reason."""
        match_id = parse_match_id(id)
        standing = await leagues.match_standing(self.db, guild_id_of(interaction), match_id)
        reasons = reasons_not_counted(standing.facts, standing.league_facts)
        await answer(interaction, match_text(match_id, standing.league, reasons))

    @join.autocomplete("name")
    @leave.autocomplete("name")
    @info.autocomplete("name")
    @members.autocomplete("name")
    async def name_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await league_choices(self.db, interaction.guild_id, current)


async def setup(bot: EuchreBot) -> None:
    await bot.add_cog(Leagues(bot))
