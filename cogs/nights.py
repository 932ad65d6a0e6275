"""/night: a league's progressive euchre night, its tables in threads of the channel.

The cog checks each request and answers it; the night itself is run by `bot.tables.nights`,
to which this cog is the `NightListener`: it opens the threads and shows what changed.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.storage import leagues, nights
from bot.storage.database import Database
from bot.storage.nights import Night, NightError, Total
from bot.tables.nights import Nights as NightRunner
from bot.tables.table import Table
from bot.ui import nights as texts
from bot.ui.leagues import league_choices
from bot.ui.respond import answer, guild_id_of

if TYPE_CHECKING:
    from bot.client import EuchreBot

log = logging.getLogger(__name__)

DEFAULT_DEALS = 4  # Keller's progressive euchre plays a few deals at each table, then moves
MAX_ROUNDS, MAX_DEALS, MAX_MINUTES = 60, 50, 240
MENTION_USERS = discord.AllowedMentions(users=True, roles=False, everyone=False)
NO_MENTIONS = discord.AllowedMentions.none()

# What the bot needs in the night's channel: its tables are played in threads of it.
THREAD_PERMISSIONS = (
    ("create_public_threads", "Create Public Threads"),
    ("send_messages_in_threads", "Send Messages in Threads"),
)


def check_thread_permissions(interaction: discord.Interaction, opening: bool = True) -> None:
    """Refuse, naming the permission, when the bot cannot open and play in threads here (in
    a thread of the night's channel, a thread's permissions are its channel's).

    Raises:
        NightError: a permission is missing, or a night is opened in a thread.
    """
    if opening and isinstance(interaction.channel, discord.Thread):
        raise NightError(
            "a euchre night is opened in a text channel, not a thread: its tables get threads"
        )
    allowed = interaction.app_permissions
    missing = [name for flag, name in THREAD_PERMISSIONS if not getattr(allowed, flag)]
    if missing:
        raise NightError(
            "the bot needs the permission "
            + " and ".join(f"**{m}**" for m in missing)
            + " in this channel to seat the night's tables in threads: ask an admin to grant it"
        )


class Nights(commands.Cog):
    """Euchre nights: progressive rounds of a league, one thread per table."""

    night = app_commands.Group(
        name="night", description="A league's progressive euchre night", guild_only=True
    )

    def __init__(self, bot: EuchreBot) -> None:
        self.bot = bot
        self.runner = NightRunner(bot.manager, self)
        self._playing: list[Night] | None = None
        self._message_locks: dict[int, asyncio.Lock] = {}

    @property
    def db(self) -> Database:
        return self.bot.db

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(texts.NightButton)
        # Before the tables resume: no table deals beyond its round.
        self._playing = await self.runner.load()
        if self.bot.is_ready():
            self._resume()

    async def cog_unload(self) -> None:
        await self.shutdown()
        self.bot.remove_dynamic_items(texts.NightButton)

    async def shutdown(self) -> None:
        """Stop the nights' tasks (the bot is closing: everything is stored)."""
        await self.runner.stop()

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        self._resume()

    def _resume(self) -> None:
        if self._playing is not None:
            playing, self._playing = self._playing, None
            self.runner.resume(playing)

    # -- finding the night -----------------------------------------------------------------

    async def _night_here(self, interaction: discord.Interaction) -> Night:
        guild_id_of(interaction)  # a DM holds no night: say where nights are
        if interaction.channel_id is None:
            raise NightError("this works in a server's channel")
        night = await nights.open_night(self.db, interaction.channel_id)
        parent_id = getattr(interaction.channel, "parent_id", None)
        if night is None and isinstance(interaction.channel, discord.Thread) and parent_id:
            # In a thread (a table of the night's): the night of the channel it is in.
            night = await nights.open_night(self.db, parent_id)
        if night is None:
            raise NightError(
                "no euchre night is open in this channel: an organiser opens one with /night open"
            )
        return night

    @staticmethod
    def _require_organiser(interaction: discord.Interaction, night: Night) -> None:
        if interaction.user.id != night.organiser_id and not interaction.permissions.manage_guild:
            raise NightError(
                "only the night's organiser (or someone who may manage this server) can do that"
            )

    # -- commands ---------------------------------------------------------------------------

    @night.command(name="open")
    @app_commands.describe(
        league="the league the night is played for (its rules; only its members play)",
        rounds="how many rounds (default: as many as the schedule has)",
        deals_per_round="a round is this many deals (default 4)",
        minutes_per_round="or a round lasts this many minutes (the deal in play is finished)",
        late="a player who leaves: a computer takes the place, or the tables re-form (bye)",
        movement="partners by the schedule, or winners move up a table",
    )
    async def open_night(
        self,
        interaction: discord.Interaction,
        league: str,
        rounds: app_commands.Range[int, 1, MAX_ROUNDS] | None = None,
        deals_per_round: app_commands.Range[int, 1, MAX_DEALS] | None = None,
        minutes_per_round: app_commands.Range[int, 1, MAX_MINUTES] | None = None,
        late: Literal["computer", "bye"] = "computer",
        movement: Literal["schedule", "winners_move_up"] = "schedule",
    ) -> None:
        """Open a euchre night in this channel for a league (Manage Server)."""
        guild_id_of(interaction)  # in a DM, say where it works, not that one may not manage it
        if not interaction.permissions.manage_guild:
            raise NightError("only members who may manage this server can open a euchre night")
        # Discord checks these ranges only in its own client: a request may still carry others.
        if rounds is not None and not 1 <= rounds <= MAX_ROUNDS:
            raise NightError(f"rounds must be from 1 to {MAX_ROUNDS}")
        if deals_per_round is not None and minutes_per_round is not None:
            raise NightError("a round is a number of deals or of minutes: give one, not both")
        if deals_per_round is not None and not 1 <= deals_per_round <= MAX_DEALS:
            raise NightError(f"deals per round must be from 1 to {MAX_DEALS}")
        if minutes_per_round is not None and not 1 <= minutes_per_round <= MAX_MINUTES:
            raise NightError(f"minutes per round must be from 1 to {MAX_MINUTES}")
        if late not in nights.LATE_CHOICES or movement not in nights.MOVEMENTS:
            raise NightError("late: computer or bye; movement: schedule or winners_move_up")
        if minutes_per_round is None and deals_per_round is None:
            deals_per_round = DEFAULT_DEALS
        check_thread_permissions(interaction)
        found = await leagues.find_league(self.db, guild_id_of(interaction), league)
        channel_id = interaction.channel_id
        assert channel_id is not None  # a guild command is used in a channel

        async def work(db: Database) -> Night:
            return await nights.create_night(
                db,
                guild_id=found.guild_id,
                channel_id=channel_id,
                league_id=found.id,
                organiser_id=interaction.user.id,
                rounds=rounds,
                deals_per_round=deals_per_round,
                minutes_per_round=minutes_per_round,
                late=late,
                movement=movement,
            )

        night = await self.bot.manager.writer.write(work)
        await answer(interaction, texts.opened_text(night, found.name))
        await self.show(night)

    @night.command(name="join")
    async def join(self, interaction: discord.Interaction) -> None:
        """Register for the euchre night open in this channel (league members)."""
        night = await self._night_here(interaction)
        await self.join_night(interaction, night.id)

    async def join_night(self, interaction: discord.Interaction, night_id: int) -> None:
        """Register a member (the command, or the Join button on the night's message)."""
        night = await nights.night_by_id(self.db, night_id)
        if night is None or night.guild_id != interaction.guild_id or night.status == nights.CLOSED:
            raise NightError("this euchre night is over")
        user = interaction.user

        async def work(db: Database) -> Night:
            # As it stands when written: the night may have started, moved on or closed since,
            # and the member may have left its league.
            fresh = await nights.night_by_id(db, night_id)
            if fresh is None or fresh.status == nights.CLOSED:
                raise NightError("this euchre night is over")
            if not await leagues.is_member(db, fresh.league_id, user.id):
                league = await leagues.league_by_id(db, fresh.league_id)
                raise NightError(
                    "only members of the league {} play its euchre night: join it first with"
                    " /league join",
                    league.name if league else "?",
                )
            await nights.register(db, fresh, user.id, user.display_name)
            return fresh

        night = await self.bot.manager.writer.write(work)
        place = await self.runner.late_place(night, user.id)
        instead = None
        if place is not None and place.instead_of is not None:
            registered = {p.user_id: p.name for p in await nights.players(self.db, night.id)}
            instead = registered.get(place.instead_of)
        await answer(interaction, texts.joined_text(night, place, instead))
        await self.show(night)
        self.runner.wake(night.id)

    async def my_place(self, interaction: discord.Interaction, night_id: int) -> None:
        """A player's place in the night's standings, privately (the My place button)."""
        night = await nights.night_by_id(self.db, night_id)
        if night is None or night.guild_id != interaction.guild_id:
            raise NightError("this euchre night is gone")
        if night.status == nights.OPEN:
            raise NightError("the night has not started: its standings begin with round 1")
        await answer(
            interaction,
            texts.place_text(
                await nights.totals(self.db, night.id),
                interaction.user.id,
                closed=night.status == nights.CLOSED,
            ),
        )

    @night.command(name="leave")
    async def leave(self, interaction: discord.Interaction) -> None:
        """Leave the euchre night open in this channel."""
        night = await self._night_here(interaction)
        await self.runner.leave(night, interaction.user.id)
        await answer(interaction, texts.left_text(night))
        await self.show(night)

    @night.command(name="start")
    async def start(self, interaction: discord.Interaction) -> None:
        """Start the euchre night: round 1 is seated (its organiser)."""
        night = await self._night_here(interaction)
        self._require_organiser(interaction, night)
        if night.status != nights.OPEN:
            raise NightError("this euchre night has already started")
        # Run in a thread of the night's channel (a table's, say), it starts that night.
        check_thread_permissions(interaction, opening=False)
        # Drawing the plan takes seconds for the largest nights (up to about 4 s for 199
        # players): defer first, as Discord waits 3 s for the first answer.
        await interaction.response.defer(ephemeral=True, thinking=True)
        started = await self.runner.start(night)
        assert started.plan is not None  # stored by the start
        await answer(
            interaction,
            texts.started_text(
                started, len(started.plan["players"]), started.plan.get("repeated", 0)
            ),
        )
        await self.show(started)

    @night.command(name="close")
    async def close(self, interaction: discord.Interaction) -> None:
        """Close the euchre night now, with its final standings (its organiser)."""
        night = await self._night_here(interaction)
        self._require_organiser(interaction, night)
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.runner.close(night.id, "closed by the organiser")
        await answer(interaction, "The euchre night is closed: its final standings are posted.")

    @open_night.autocomplete("league")
    async def league_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await league_choices(self.db, interaction.guild_id, current)

    # -- the night's message --------------------------------------------------------------

    def _channel(self, channel_id: int) -> discord.PartialMessageable:
        return self.bot.get_partial_messageable(channel_id)

    async def show(self, night: Night, totals: list[Total] | None = None) -> None:
        """Post or edit the night's message, as it stands now (one drawing at a time)."""
        async with self._message_locks.setdefault(night.id, asyncio.Lock()):
            fresh = await nights.night_by_id(self.db, night.id)
            if fresh is None:
                return
            league = await leagues.league_by_id(self.db, fresh.league_id)
            players = await nights.players(self.db, fresh.id)
            if totals is None and fresh.status != nights.OPEN:
                totals = await nights.totals(self.db, fresh.id)
            embed = texts.night_embed(fresh, league.name if league else "?", players, totals)
            view = texts.night_view(fresh)
            channel = self._channel(fresh.channel_id)
            if fresh.message_id is not None:
                try:
                    message = channel.get_partial_message(fresh.message_id)
                    await message.edit(embed=embed, view=view)
                    return
                except discord.NotFound:
                    log.info("night %s: its message is gone; posting it anew", fresh.id)
            sent = await channel.send(embed=embed, view=view)
            message_id = sent.id

            async def work(db: Database) -> None:
                await nights.set_message(db, fresh.id, message_id)

            await self.bot.manager.writer.write(work)

    # -- NightListener ----------------------------------------------------------------------

    async def open_thread(self, night: Night, number: int, position: int) -> int:
        channel = self.bot.get_channel(night.channel_id) or await self.bot.fetch_channel(
            night.channel_id
        )
        if not isinstance(channel, discord.TextChannel):
            raise NightError("the night's channel cannot hold threads")
        thread = await channel.create_thread(
            name=f"Round {number} · table {position}",
            type=discord.ChannelType.public_thread,
            auto_archive_duration=1440,
        )
        return thread.id

    async def table_seated(self, night: Night, table: Table, number: int, position: int) -> None:
        mentions = [o.mention if o else "?" for o in table.seats]
        thread = self._channel(table.channel_id)
        # The players are pinged once, here, so they find their table.
        await thread.send(
            texts.table_intro(number, position, mentions), allowed_mentions=MENTION_USERS
        )
        await self.bot.table_messages.render(table, fresh=True)

    async def round_seated(self, night: Night, number: int, byes: list[str]) -> None:
        rows = await nights.tables_of(self.db, night.id, number)
        threads = [row.thread_id for row in rows if row.thread_id]
        await self._channel(night.channel_id).send(
            texts.round_text(night, number, threads, byes), allowed_mentions=NO_MENTIONS
        )

    async def standings(self, night: Night, totals: list[Total]) -> None:
        await self.show(night, totals)

    async def night_closed(
        self, night: Night, totals: list[Total], emn: dict[str, Any], why: str
    ) -> None:
        await self.show(night, totals)
        league = await leagues.league_by_id(self.db, night.league_id)
        embed = texts.night_embed(night, league.name if league else "?", [], totals)
        await self._channel(night.channel_id).send(
            texts.closed_text(night, why, totals),
            embed=embed,
            file=texts.emn_file(night, emn),
            allowed_mentions=NO_MENTIONS,
        )


async def setup(bot: EuchreBot) -> None:
    await bot.add_cog(Nights(bot))
