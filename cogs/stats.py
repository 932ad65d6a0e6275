"""/leaderboard, /stats, /history and /record: what a server's results say."""

from __future__ import annotations

import io
import json
from typing import TYPE_CHECKING, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.storage import hints, history, player_stats, records, variant_games
from bot.storage import leaderboard as boards
from bot.storage.errors import NoGamesYet, StatsError
from bot.ui.respond import guild_id_of
from bot.ui.stats import (
    LeaderboardButton,
    history_embed,
    history_title_embed,
    leaderboard_embed,
    leaderboard_view,
    no_games_text,
    own_rank,
    record_file,
    stats_embed,
)
from bot.ui.variant_stats import variant_board_embed, variant_history_text

Period = Literal["all", "season", "30d", "7d"]
Preset = Literal["somerset", "jerome", "modern"]
Variant = Literal["two-handed", "three-handed", "french", "napoleon", "six-handed", "set-back"]
METRIC_CHOICES = [app_commands.Choice(name=m.label, value=m.key) for m in boards.METRICS.values()]

if TYPE_CHECKING:
    from bot.client import EuchreBot


class Stats(commands.Cog):
    """Leaderboards and statistics of this server."""

    def __init__(self, bot: EuchreBot) -> None:
        self.bot = bot

    @property
    def db(self):
        return self.bot.db

    @app_commands.command(name="leaderboard")
    @app_commands.guild_only()
    @app_commands.describe(
        metric="what to rank by (default rubbers won)",
        period="all time, this season, or the last 30 or 7 days",
        preset="only games of these rules",
        page="page of ten",
        include_bots="count rubbers where computers or substitutes played",
    )
    @app_commands.choices(metric=METRIC_CHOICES)
    async def leaderboard(
        self,
        interaction: discord.Interaction,
        metric: str | None = None,
        period: Period = "all",
        preset: Preset | None = None,
        page: int = 1,
        include_bots: bool = False,
    ) -> None:
        """This server's leaderboard, ten players a page."""
        result = await boards.leaderboard(
            self.db,
            guild_id_of(interaction),
            metric,
            period,
            preset,
            page,
            include_bots,
            viewer_id=interaction.user.id,
        )
        # The board is public and the same for all; the member's own rank is theirs alone.
        await interaction.response.send_message(
            embed=leaderboard_embed(result), view=leaderboard_view(result)
        )
        await interaction.followup.send(own_rank(result), ephemeral=True)

    @app_commands.command(name="stats")
    @app_commands.guild_only()
    @app_commands.describe(
        member="whose statistics (default yours)",
        period="all time, this season, or the last 30 or 7 days",
        variant="another game of the rule books: its leaderboard, in its own unit",
        include_bots="count rubbers (or a variant's games) where computers or substitutes played",
    )
    async def stats(
        self,
        interaction: discord.Interaction,
        member: discord.Member | None = None,
        period: Period = "all",
        variant: Variant | None = None,
        include_bots: bool = False,
    ) -> None:
        """A player's statistics: rubbers, points, makes, euchres, lone hands, partners and opponents."""
        who = member or interaction.user
        if variant is not None:
            if period != "all":
                raise StatsError(
                    "the other games' boards count all their games: leave out the period"
                    " with a variant"
                )
            board = await variant_games.variant_board(
                self.db,
                guild_id_of(interaction),
                variant_games.check_variant(variant),
                who.id,
                include_bots,
            )
            await interaction.response.send_message(
                embed=variant_board_embed(board, who.display_name)
            )
            return
        guild_id = guild_id_of(interaction)
        given = await hints.hints_given(self.db, guild_id, who.id)
        try:
            result = await player_stats.player_stats(
                self.db, guild_id, who.id, period, include_bots=include_bots
            )
        except NoGamesYet as error:
            # Asked of oneself, "that member" would be someone else.
            reason = (
                "You have no recorded games on this server yet."
                if who.id == interaction.user.id
                else str(error)
            )
            if not given:
                raise NoGamesYet(reason) from None
            # The hints are counted from the first one, before any game is recorded.
            await interaction.response.send_message(no_games_text(reason, given), ephemeral=True)
            return
        await interaction.response.send_message(
            embed=stats_embed(result, who.display_name, hints=given)
        )

    @app_commands.command(name="history")
    @app_commands.guild_only()
    @app_commands.describe(member="whose history (default yours)", page="page of ten, newest first")
    async def history(
        self, interaction: discord.Interaction, member: discord.Member | None = None, page: int = 1
    ) -> None:
        """Recent rubbers and games with partners, opponents, score and date."""
        who = member or interaction.user
        played = await variant_games.recent_games(self.db, guild_id_of(interaction), who.id)
        try:
            result = await history.history(self.db, guild_id_of(interaction), who.id, page)
        except StatsError:
            if not played or page != 1:
                raise
            # Only other games played: they are the whole history.
            embed = history_title_embed(who.display_name)
        else:
            embed = history_embed(result, who.display_name)
        if played and page == 1:
            embed.add_field(name="Other games", value=variant_history_text(played), inline=False)
        await interaction.response.send_message(embed=embed)

    @app_commands.command(name="record")
    @app_commands.guild_only()
    @app_commands.describe(game_id="a game (G12), rubber (M3) or other game (V5) id from /history")
    async def record(self, interaction: discord.Interaction, game_id: str) -> None:
        """Attach a game as an EGN file, or a rubber as the bot's own JSON record."""
        number = variant_games.parse_game_id(game_id)
        if number is not None:
            variant, doc = await variant_games.game_record(
                self.db, guild_id_of(interaction), number
            )
            await interaction.response.send_message(
                f"Record V{number}: the bot's own JSON record of a {variant} game"
                " (`python -m bot replay` replays it).",
                file=discord.File(
                    io.BytesIO(json.dumps(doc, indent=2).encode()),
                    filename=f"euchre-V{number}.json",
                ),
            )
            return
        stored = await records.match_record(self.db, guild_id_of(interaction), game_id)
        whole = None
        if stored.kind == "game":
            try:
                whole = await records.match_record(
                    self.db, guild_id_of(interaction), f"M{stored.match_id}"
                )
            except StatsError:
                whole = None  # the rubber is still being played
        name, data, note = record_file(stored, whole)
        await interaction.response.send_message(
            f"Record {stored.record_id}: {note}", file=discord.File(io.BytesIO(data), filename=name)
        )


async def setup(bot: EuchreBot) -> None:
    bot.add_dynamic_items(LeaderboardButton)
    await bot.add_cog(Stats(bot))
