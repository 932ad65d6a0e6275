"""/table: opening a table, seating, starting, substitutes, closing."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.engine.quoting import quoted
from bot.engine.rules import PRESETS
from bot.engine.variants import VARIANT_NAMES
from bot.leagues.counting import option_differences
from bot.storage import leagues, nights
from bot.storage.leagues import LeagueError
from bot.tables.table import SEATS, NamingTableError, TableError, parse_seat, seat_label
from bot.ui.embeds import safe
from bot.ui.guide import RULE_OPTION_DESCRIPTIONS
from bot.ui.leagues import computer_note, league_choices
from bot.ui.nights import left_table_text
from bot.ui.respond import answer, ask_to_close, guild_id_of, joined_text, started_text
from bot.ui.variant_views import TITLES

FOUR_HANDED = "four-handed"
Game = Literal[
    "four-handed", "two-handed", "three-handed", "french", "napoleon", "six-handed", "set-back"
]
Level = Literal["easy", "standard", "expert"]
Ping = Literal["every turn", "after a wait", "never"]
PING_CHOICES = {"every turn": "every", "after a wait": "after", "never": "never"}

if TYPE_CHECKING:
    from bot.client import EuchreBot


# What the bot needs in a table's channel: the table message is an embed it posts and edits.
POST_PERMISSIONS = (
    ("view_channel", "View Channel"),
    ("send_messages", "Send Messages"),
    ("embed_links", "Embed Links"),
)


def check_post_permissions(interaction: discord.Interaction) -> None:
    """Refuse, naming what is missing, when the bot may not post the table message here: else
    the table opens with no message, and every player is answered with an apology.

    Raises:
        TableError: a permission is missing in this channel.
    """
    allowed = interaction.app_permissions
    wanted = list(POST_PERMISSIONS)
    if isinstance(interaction.channel, discord.Thread):
        # In a thread, posting is Send Messages in Threads (Send Messages is the parent's).
        wanted[1] = ("send_messages_in_threads", "Send Messages in Threads")
    missing = [name for flag, name in wanted if not getattr(allowed, flag)]
    if missing:
        raise TableError(
            "the bot cannot post the table message in this channel: it needs "
            + " and ".join(f"**{m}**" for m in missing)
            + " here. Ask a moderator to grant them, or open the table in another channel"
        )


def _may_manage(interaction: discord.Interaction) -> bool:
    # The permissions Discord resolved for this channel (its overwrites included), not the
    # server-wide ones of the member's roles: Manage Channels may be granted or denied here.
    return interaction.guild_id is not None and interaction.permissions.manage_channels


class Tables(commands.Cog):
    """Table creation and seating."""

    table = app_commands.Group(
        name="table",
        description="Open, join and run a Euchre table in this channel",
        guild_only=True,
    )

    def __init__(self, bot: EuchreBot) -> None:
        self.bot = bot

    @property
    def manager(self):
        return self.bot.manager

    @property
    def messages(self):
        return self.bot.table_messages

    @table.command(name="create")
    @app_commands.describe(
        preset="the rules: somerset (1888 club laws, default), jerome (1877) or modern",
        match="a rubber (best of three) or a single game",
        **RULE_OPTION_DESCRIPTIONS,
        timeout="seconds for each turn before a computer moves (10-3600)",
        ping="when players are pinged on their turn (default: after a wait)",
        ping_after="seconds to wait before that ping (default 30, at most half the turn)",
        league="play for a league: its rules, and only its members may join",
        variant="the game: four-handed euchre (default) or another of the rule books",
        seats="how many play, where the variant allows a choice (Napoleon 2-7, set-back 2-6)",
        hints="whether players may ask /hint on their turn (on by default; never in a league)",
        rounds="Napoleon: how many times each player deals before the game ends (default 1)",
        declare_all="set-back: the maker may declare all five, to win outright or be set back",
        euchre_deducts="set-back: a euchre also lets each adversary deduct 2",
    )
    async def create(
        self,
        interaction: discord.Interaction,
        preset: Literal["somerset", "jerome", "modern"] | None = None,
        points: app_commands.Range[int, 1, 100] | None = None,
        match: Literal["rubber", "game"] | None = None,
        stick_the_dealer: bool | None = None,
        partner_alone: bool | None = None,
        defend_alone: bool | None = None,
        joker: bool | None = None,
        timeout: app_commands.Range[int, 10, 3600] | None = None,
        ping: Ping | None = None,
        ping_after: app_commands.Range[int, 5, 3600] | None = None,
        league: str | None = None,
        variant: Game | None = None,
        seats: app_commands.Range[int, 2, 7] | None = None,
        hints: bool | None = None,
        rounds: app_commands.Range[int, 1, 100] | None = None,
        declare_all: bool | None = None,
        euchre_deducts: bool | None = None,
    ) -> None:
        """Open a Euchre table in this channel and sit at it as its host."""
        # A client with the commands of an older sync may still send it from a DM.
        guild_id = guild_id_of(interaction)
        if variant is not None and variant != FOUR_HANDED and variant not in VARIANT_NAMES:
            raise TableError(
                f"unknown game {quoted(variant)}: choose {FOUR_HANDED}, {', '.join(VARIANT_NAMES)}"
            )
        if preset is not None and preset not in PRESETS:
            raise TableError(f"unknown preset {quoted(preset)}: choose {', '.join(PRESETS)}")
        check_post_permissions(interaction)
        if hints and variant is not None and variant != FOUR_HANDED:
            # The coach knows four-handed euchre only: a variant's table would refuse every
            # /hint, so it is not opened promising them (as a league's table is not).
            raise TableError(
                f"hints are for four-handed euchre: {TITLES[variant]} is played without them,"
                " so create the table with hints left out"
            )
        # Discord checks these ranges only in its own client: a request may still carry others.
        if points is not None and not 1 <= points <= 100:
            raise TableError("points for a game must be from 1 to 100")
        if timeout is not None and not 10 <= timeout <= 3600:
            raise TableError("timeout must be from 10 to 3600 seconds")
        if ping is not None and ping not in PING_CHOICES:
            raise TableError("ping: choose every turn, after a wait, or never")
        rules = {
            "preset": preset,
            "points": points,
            "match": match,
            "stick_the_dealer": stick_the_dealer,
            "partner_alone": partner_alone,
            "defend_alone": defend_alone,
            "joker": joker,
        }
        given: dict[str, Any] = {k: v for k, v in rules.items() if v is not None}
        playing_for = None
        if league is not None:
            playing_for = await leagues.find_league(self.bot.db, guild_id, league)
            if not await leagues.is_member(self.bot.db, playing_for.id, interaction.user.id):
                # The host sits at north: a table of the league seats only its members.
                raise LeagueError(
                    "a table for the league {} seats only its members, and you sit at it as its"
                    " host: join the league first with /league join",
                    playing_for.name,
                )
            self._check_league_rules(playing_for, given)
            # The league's rules, every one of them: they are the table's whatever was given.
            given = dict(playing_for.options)
        change = await self.manager.create(
            guild_id,
            interaction.channel_id,
            interaction.user.id,
            interaction.user.display_name,
            turn_timeout=timeout,
            ping=PING_CHOICES[ping] if ping else None,
            ping_after=ping_after,
            league_id=playing_for.id if playing_for else None,
            league_name=playing_for.name if playing_for else None,
            variant=variant if variant != FOUR_HANDED else None,
            seats=seats,
            hints=hints,
            # The variants' own options: refused, with the reason, by a game without them.
            rounds=rounds,
            declare_all=declare_all,
            euchre_deducts=euchre_deducts,
            **given,
        )
        where = f" for the league **{safe(playing_for.name)}**" if playing_for else ""
        table = change.table
        if table.variant is not None:
            where = f" for {TITLES[table.variant.name]}, {table.seat_count} players,"
        await answer(
            interaction,
            f"Your table is open{where} and you sit at {table.seat_label(0)}. Others join with"
            " /table join (or Join on the table message); add computers with /table addbot."
            " Once every seat is taken, start with /table start.",
        )
        await self.messages.render(change.table, fresh=True)

    @create.autocomplete("league")
    async def league_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await league_choices(self.bot.db, interaction.guild_id, current)

    @staticmethod
    def _check_league_rules(league: leagues.League, given: dict[str, Any]) -> None:
        """Refuse options given at a league's table that differ from the league's rules."""
        differences = option_differences(league.options, given)
        if differences:
            shown = "; ".join(d.replace("{", "{{").replace("}", "}}") for d in differences)
            raise LeagueError(
                "a table for the league {} plays by the league's rules: " + shown, league.name
            )

    def _seat(self, interaction: discord.Interaction, seat: str | None) -> int | None:
        """The seat a member named, as this channel's table names its seats."""
        if seat is None:
            return None
        return parse_seat(seat, self.manager.table_in(interaction.channel_id).seat_count)

    @table.command(name="join")
    @app_commands.describe(
        seat="the seat to take: north to west, or seat 1 to seat N (default: the first free one)"
    )
    async def join(self, interaction: discord.Interaction, seat: str | None = None) -> None:
        """Take a free seat at this channel's table, or wait in line when every seat is taken."""
        change = await self.manager.join(
            interaction.channel_id,
            interaction.user.id,
            interaction.user.display_name,
            self._seat(interaction, seat),
        )
        await answer(interaction, joined_text(change.table, interaction.user.id))
        await self.messages.table_changed(change)

    @table.command(name="leave")
    async def leave(self, interaction: discord.Interaction) -> None:
        """Leave this channel's table (a computer takes your seat if a game is under way)."""
        change = await self.manager.leave(interaction.channel_id, interaction.user.id)
        await answer(interaction, await self._left_text(change.table.id, interaction.user.id))
        await self.messages.table_changed(change)

    async def _left_text(self, table_id: int, user_id: int) -> str:
        """What a member who left a table is told: at a euchre night's table, a registered
        player leaves the table but not the night, and is seated again next round."""
        db = self.manager.db
        night_id = await nights.night_of_table(db, table_id)
        night = await nights.night_by_id(db, night_id) if night_id is not None else None
        if night is not None and night.status == nights.PLAYING:
            players = await nights.players(db, night.id)
            if any(p.user_id == user_id and p.left_round is None for p in players):
                return left_table_text(night)
        return "You left the table."

    @table.command(name="addbot")
    @app_commands.describe(
        seat="the seat for the computer player (north to west, or seat 1 to seat N)",
        level="how well it plays (default expert; variants play expert at standard)",
    )
    async def addbot(
        self, interaction: discord.Interaction, seat: str | None = None, level: Level | None = None
    ) -> None:
        """Seat a computer player (host only)."""
        if level is not None and level not in ("easy", "standard", "expert"):
            raise TableError("unknown level: choose easy, standard or expert")
        change = await self.manager.add_bot(
            interaction.channel_id, interaction.user.id, self._seat(interaction, seat), level
        )
        assert change.seat is not None
        table = change.table
        note = ""
        if (
            table.league_id is not None
            and await nights.night_of_table(self.bot.db, table.id) is None
        ):
            # Said before the match is played, not found out after it: whether it can count.
            league = await leagues.league_by_id(self.bot.db, table.league_id)
            side = change.seat % 2
            partners = (table.seats[side], table.seats[side + 2])
            alone = all(o is not None and o.is_bot for o in partners)
            note = computer_note(league, side, alone) if league is not None else ""
        await answer(
            interaction, f"A computer player sits at {table.seat_label(change.seat)}.{note}"
        )
        await self.messages.table_changed(change)

    @join.autocomplete("seat")
    @addbot.autocomplete("seat")
    async def seat_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """The table's free seats by its own names (compass at four, else `seat 1`...), those
        matching what is typed; every seat when none is free."""
        table = self.manager.tables.get(interaction.channel_id)
        count = table.seat_count if table else SEATS
        free = [s for s in range(count) if table is None or table.seats[s] is None]
        typed = current.lower().replace(" ", "")
        labels = [seat_label(s, count) for s in (free or range(count))]
        return [
            app_commands.Choice(name=label, value=label)
            for label in labels
            if typed in label.replace(" ", "")
        ]

    @table.command(name="kick")
    @app_commands.describe(member="the member to remove from the table")
    async def kick(
        self, interaction: discord.Interaction, member: discord.Member | discord.User
    ) -> None:
        """Remove a member from the table (the host, or Manage Channels)."""
        # A user, not a member, when they left the server: their seat is still theirs, and
        # removing them is what the host then needs most.
        change = await self.manager.kick(
            interaction.channel_id,
            interaction.user.id,
            member.id,
            member.display_name,
            _may_manage(interaction),
        )
        await answer(interaction, f"{safe(member.display_name)} was removed from the table.")
        await self.messages.table_changed(change)

    @table.command(name="start")
    @app_commands.describe(keep_seats="keep the seats as they are instead of cutting for partners")
    async def start(self, interaction: discord.Interaction, keep_seats: bool = False) -> None:
        """Cut for partners and first deal (other games: draw the dealer) and deal; host only, all seats taken."""
        change = await self.manager.start(interaction.channel_id, interaction.user.id, keep_seats)
        await answer(interaction, started_text(change.table))
        await self.messages.table_changed(change)

    @table.command(name="substitute")
    @app_commands.describe(member="who plays your seat for the rest of the rubber or game")
    async def substitute(
        self, interaction: discord.Interaction, member: discord.Member | discord.User
    ) -> None:
        """Ask someone to play your seat for the rest of the rubber or game; they accept, the others consent."""
        if member.bot:
            raise TableError("name a member as substitute; for a computer, use /table leave")
        if not isinstance(member, discord.Member):
            # Discord sends a user, not a member, for someone who left the server.
            raise NamingTableError(
                "{} is not a member of this server, so cannot play here: name someone who is",
                member.display_name,
            )
        seen = member.resolved_permissions  # in this channel, as Discord resolved them
        if seen is not None and not seen.view_channel:
            # The offer is posted here: they would never see it, and the request would wait.
            raise NamingTableError(
                "{} cannot see this channel, so could not be asked here or play: name someone"
                " who can, or ask a moderator to let them in first",
                member.display_name,
            )
        change = await self.manager.substitute(
            interaction.channel_id,
            interaction.user.id,
            member.id,
            member.display_name,
            shown=self.messages.offer_shown,
        )
        # The request as stored: it is shown to the member named, who alone may accept it.
        asked = change.table.substitution
        span = change.table.match_word
        consent = (
            "; the other players are asked to consent"
            if change.table.substitute_consenters()
            else ""
        )
        # One request waits at a time: a player whose request replaced another's is told.
        replaced = change.replaced
        instead = (
            f" This replaces the request that {safe(replaced.name)} take"
            f" {safe(replaced.asked_by or 'a player')}'s seat"
            f" ({change.table.seat_label(replaced.seat)}), which was still waiting."
            if replaced is not None and replaced.seat != change.table.seat_of(interaction.user.id)
            else ""
        )
        await answer(
            interaction,
            f"{safe(member.display_name)} is asked to take your seat for the rest of the {span}"
            f"{consent}. They sit only once they accept.{instead}",
        )
        await self.messages.table_changed(change)
        if asked is not None:
            await self.messages.ask_substitute(change.table, asked)

    @table.command(name="back")
    async def back(self, interaction: discord.Interaction) -> None:
        """Take back the seat a computer held for you after time-outs."""
        change = await self.manager.back(interaction.channel_id, interaction.user.id)
        assert change.seat is not None
        table = change.table
        # The hand open when the seat was held follows the game again, unless it is gone: its
        # token ran out, or the bot restarted since.
        hand = (
            "The hand you had open follows the game again (or press **My hand**)."
            if self.bot.live_hands.has_live(table.id, interaction.user.id)
            else "Press **My hand** (or use /hand) to see your hand."
        )
        await answer(
            interaction, f"Welcome back: you play {table.seat_label(change.seat)} again. {hand}"
        )
        await self.messages.table_changed(change)

    @table.command(name="show")
    async def show(self, interaction: discord.Interaction) -> None:
        """Post the table message again at the bottom of the channel."""
        table = self.manager.table_in(interaction.channel_id)
        await answer(interaction, "Here is the table.")
        await self.messages.render(table, fresh=True)

    @table.command(name="close")
    async def close(self, interaction: discord.Interaction) -> None:
        """End this channel's table (host, or anyone who may manage the channel)."""
        table = self.manager.table_in(interaction.channel_id)
        table.require_host(interaction.user.id, _may_manage(interaction))
        await ask_to_close(interaction, table)


async def setup(bot: EuchreBot) -> None:
    await bot.add_cog(Tables(bot))
