"""League roles kept in step with the standings, and the work of /league roles.

After each result that moves a league's standings (a match ended or abandoned at its table, a
correction, a season started or ended) the league is synced: who should hold each of its rank
roles is worked out from the standings, and only the differences are given or taken on Discord.
A sync runs as a task of its own once the result is stored, so it never delays or breaks the
result; its failures are logged. When the bot may not manage a role (no Manage Roles, a role
above its own), the organiser is told once, in the channel the roles were set up in, and the
league's later results say nothing until a sync succeeds again.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, cast

import discord
from discord.ext import commands

from bot.leagues.roles import (
    RankRole,
    RoleChange,
    differences,
    present_ranks,
    wanted_holders,
    why_not_manageable,
)
from bot.rerun import Rerun
from bot.storage import league_roles, leagues
from bot.storage.database import Database
from bot.storage.leagues import League, LeagueError
from bot.tables.manager import Change
from bot.ui.league_roles import (
    added_text,
    reason,
    removed_text,
    role_facts,
    roles_text,
    warning_text,
)
from bot.ui.respond import answer, guild_id_of

if TYPE_CHECKING:
    from bot.client import EuchreBot

log = logging.getLogger(__name__)

# Discord's codes for a member who left the server and a role deleted since it was read.
UNKNOWN_MEMBER = 10007
UNKNOWN_ROLE = 10011


class LeagueRoles(commands.Cog, name="LeagueRoles"):
    """Roles that follow a league's standings."""

    def __init__(self, bot: EuchreBot) -> None:
        self.bot = bot
        self._syncing: dict[int, Rerun] = {}
        self._stopped = False
        # Members Discord said have left, by server: the bot has no members intent, so it
        # learns of a leaver only when giving him a role fails, and that he is back when he
        # plays a league match to its end (all forgotten at a restart).
        self._gone: dict[int, set[int]] = {}

    @property
    def db(self) -> Database:
        return self.bot.db

    async def cog_load(self) -> None:
        self.bot.manager.observers.append(self._table_changed)

    async def cog_unload(self) -> None:
        await self.shutdown()

    async def shutdown(self) -> None:
        """Stop syncing (the bot is closing): a sync cut short is done again after the next
        result, since it only ever changes the differences."""
        self._stopped = True
        if self._table_changed in self.bot.manager.observers:
            self.bot.manager.observers.remove(self._table_changed)
        tasks = [s.task for s in self._syncing.values() if s.running and s.task is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    # -- when to sync -----------------------------------------------------------------------

    async def _table_changed(self, change: Change) -> None:
        league_id = change.table.league_id
        if league_id is not None and (change.match_over or change.kind == "abandoned"):
            # Those seated to the end are in the server: one Discord once said had left is
            # back, and his place is his again.
            gone = self._gone.get(change.table.guild_id)
            if gone:
                gone.difference_update(o.user_id for o in change.table.seats if o and not o.is_bot)
            self.request(league_id)

    @commands.Cog.listener()
    async def on_guild_role_update(self, before: discord.Role, after: discord.Role) -> None:
        # The bot's role may have been given Manage Roles or moved up: a league that was
        # warned syncs now rather than at its next result.
        await self._retry_warned(after.guild)

    @commands.Cog.listener()
    async def on_guild_role_delete(self, role: discord.Role) -> None:
        # A league role deleted on Discord is forgotten now, not at the league's next result:
        # until then /league roles list named a role that is gone, and it took one of the
        # league's ten places for roles.
        for league_id in await league_roles.leagues_with_roles(self.db, role.guild.id):
            ranks = await league_roles.rank_roles(self.db, league_id)
            league = await leagues.league_by_id(self.db, league_id)
            if league is not None and any(r.role_id == role.id for r in ranks):
                await self._forget(league, role.id)
                # The deleted role may have been what kept the others from syncing (one above
                # the bot's): they sync now, and a warning that no longer holds is cleared.
                notice = await league_roles.notice(self.db, league_id)
                if notice is not None and notice.warning is not None:
                    self.request(league_id)

    @commands.Cog.listener()
    async def on_member_update(self, before: discord.Member, after: discord.Member) -> None:
        if self.bot.user is not None and after.id == self.bot.user.id:
            await self._retry_warned(after.guild)

    async def _retry_warned(self, guild: discord.Guild) -> None:
        for league_id in await league_roles.leagues_with_roles(self.db, guild.id):
            notice = await league_roles.notice(self.db, league_id)
            if notice is not None and notice.warning is not None:
                self.request(league_id)

    def request(self, league_id: int) -> None:
        """Sync a league's roles soon: now if it is not being synced, else right after."""
        state = self._syncing.get(league_id)
        if state is None:

            async def run() -> bool:
                try:
                    await self.sync(league_id)
                except Exception:
                    log.exception("league %s: syncing its roles failed", league_id)
                return not self._stopped

            state = self._syncing[league_id] = Rerun(run, "league-roles")
        state.request(start=not self._stopped)

    def settled(self, league_id: int) -> bool:
        """Whether every sync asked for the league has run (it has none due)."""
        state = self._syncing.get(league_id)
        return state is None or state.settled

    # -- the sync ----------------------------------------------------------------------------

    async def sync(self, league_id: int) -> None:
        """Give and take the league's roles so that they follow its current standings, or tell
        the organiser once why they cannot."""
        league = await leagues.league_by_id(self.db, league_id)
        guild = self.bot.get_guild(league.guild_id) if league is not None else None
        if league is None or guild is None or guild.me is None:
            return  # gone, or another process's server, or not available yet
        roles: list[tuple[RankRole, discord.Role]] = []
        for rank_role in await league_roles.rank_roles(self.db, league.id):
            role = guild.get_role(rank_role.role_id)
            if role is None:
                await self._forget(league, rank_role.role_id)
            else:
                roles.append((rank_role, role))
        if not roles:
            return
        manage_roles = guild.me.guild_permissions.manage_roles
        for _, role in roles:
            problem = why_not_manageable(manage_roles, role_facts(role, guild.me))
            if problem is not None:
                await self._warn(league, problem)
                return
        ranks = await league_roles.current_ranks(self.db, league)
        held = await league_roles.holders(self.db, league.id)
        tops = {r.role_id: r for r, _ in roles}
        gone = self._gone.setdefault(guild.id, set())
        done: list[RoleChange] = []
        try:
            # A member ranked for a role may have left the server: his place passes to the
            # next (`present_ranks`), found out by giving the roles before taking any, so no
            # holder loses a role to a member who is gone.
            for _ in range(len(ranks) + 1):
                wanted = wanted_holders(present_ranks(ranks, gone), [r for r, _ in roles])
                changes = sorted(differences(wanted, held), key=lambda c: not c.add)
                left = len(gone)
                for change in changes:
                    if await self._change(guild, league, tops[change.role_id], change):
                        done.append(change)
                        holders = held.setdefault(change.role_id, set())
                        (holders.add if change.add else holders.discard)(change.user_id)
                    if len(gone) > left:
                        break  # the places move: work out who holds what again
                else:
                    break
        except discord.Forbidden:
            # Taken away between the check and the call: the next sync finds out why.
            await self._warn(league, "Discord refused to give or take its roles")
            return
        finally:
            await self._note(league, done)
        await self._all_well(league)

    async def _change(
        self, guild: discord.Guild, league: League, role: RankRole, change: RoleChange
    ) -> bool:
        """Give or take one member's role; whether the bot's list of holders changes."""
        why = reason(league, role, change.add)
        try:
            if change.add:
                await self.bot.http.add_role(guild.id, change.user_id, role.role_id, reason=why)
            else:
                await self.bot.http.remove_role(guild.id, change.user_id, role.role_id, reason=why)
        except discord.NotFound as error:
            if error.code == UNKNOWN_MEMBER:
                # He left the server: nothing to give him, and nothing left to take back.
                if change.add:
                    self._gone.setdefault(guild.id, set()).add(change.user_id)
                return not change.add
            log.info("league %s: role %s is gone (%s)", league.id, role.role_id, error)
            return False
        return True

    async def _note(self, league: League, done: list[RoleChange]) -> None:
        if not done:
            return

        async def work(db: Database) -> None:
            for c in done:
                await league_roles.set_holder(db, league.id, c.role_id, c.user_id, c.add)

        await self.bot.manager.writer.write(work)

    async def _forget(self, league: League, role_id: int) -> None:
        """A role deleted on Discord: the league no longer has it."""

        async def work(db: Database) -> None:
            await league_roles.remove_rank_role(db, league, role_id)

        try:
            await self.bot.manager.writer.write(work)
        except LeagueError:
            return  # removed meanwhile
        log.info("league %s: role %s was deleted on Discord; forgotten", league.id, role_id)

    async def _warn(self, league: League, problem: str) -> None:
        """Tell the organiser once; later results say nothing until a sync succeeds."""
        notice = await league_roles.notice(self.db, league.id)
        if notice is None or notice.warning is not None:
            return

        async def work(db: Database) -> None:
            await league_roles.set_warning(db, league.id, problem)

        # Noted before it is sent: two syncs never both tell it, and a channel that is gone
        # does not make every result try again.
        await self.bot.manager.writer.write(work)
        channel = self.bot.get_partial_messageable(notice.channel_id, guild_id=league.guild_id)
        organiser = discord.Object(notice.organiser_id)
        try:
            await channel.send(
                warning_text(league, notice.organiser_id, problem),
                allowed_mentions=discord.AllowedMentions(
                    everyone=False, roles=False, replied_user=False, users=[organiser]
                ),
            )
        except discord.HTTPException as error:
            log.warning("league %s: its roles' warning could not be sent: %s", league.id, error)

    async def _all_well(self, league: League) -> None:
        notice = await league_roles.notice(self.db, league.id)
        if notice is None or notice.warning is None:
            return

        async def work(db: Database) -> None:
            await league_roles.set_warning(db, league.id, None)

        await self.bot.manager.writer.write(work)

    # -- /league roles ----------------------------------------------------------------------

    async def add(
        self, interaction: discord.Interaction, league_name: str, role: discord.Role, top: int
    ) -> None:
        """`/league roles add`: check the role can be managed, store it and sync now."""
        found = await leagues.find_league(self.db, guild_id_of(interaction), league_name)
        guild = interaction.guild
        me = guild.me if guild is not None else None
        if me is None:
            raise LeagueError("the bot cannot see this server's roles yet: try again in a moment")
        problem = why_not_manageable(interaction.app_permissions.manage_roles, role_facts(role, me))
        if problem is not None:
            raise LeagueError(problem[0].upper() + problem[1:])
        channel_id = interaction.channel_id or 0

        async def work(db: Database) -> RankRole:
            return await league_roles.add_rank_role(
                db, found, role.id, top, interaction.user.id, channel_id
            )

        added = await self.bot.manager.writer.write(work)
        self.request(found.id)
        await answer(interaction, added_text(found, added))

    async def remove(
        self, interaction: discord.Interaction, league_name: str, role: discord.Role
    ) -> None:
        """`/league roles remove`: stop the league managing a role; its holders keep it."""
        found = await leagues.find_league(self.db, guild_id_of(interaction), league_name)

        async def work(db: Database) -> set[int]:
            return await league_roles.remove_rank_role(db, found, role.id)

        held = await self.bot.manager.writer.write(work)
        # The role removed may have been what kept the others from syncing: they sync now.
        notice = await league_roles.notice(self.db, found.id)
        if notice is not None and notice.warning is not None:
            self.request(found.id)
        await answer(interaction, removed_text(found, role.id, len(held)))

    async def show(self, interaction: discord.Interaction, league_name: str) -> None:
        """`/league roles list`: the league's roles and their places."""
        found = await leagues.find_league(self.db, guild_id_of(interaction), league_name)
        roles = await league_roles.rank_roles(self.db, found.id)
        notice = await league_roles.notice(self.db, found.id)
        await answer(interaction, roles_text(found, roles, notice.warning if notice else None))


# Found by name, not by class: an extension is loaded as a module of its own, so the class
# another module imports from here is not the loaded cog's class.
COG_NAME = "LeagueRoles"


def role_sync(bot: EuchreBot) -> LeagueRoles:
    """The bot's league roles (the cog is loaded with the leagues').

    Raises:
        RuntimeError: the cog is not loaded.
    """
    cog = bot.get_cog(COG_NAME)
    if cog is None:
        raise RuntimeError("the league roles cog is not loaded")
    return cast(LeagueRoles, cog)


def request_sync(bot: EuchreBot, league_id: int) -> None:
    """Sync a league's roles after a result changed its standings (nothing if none are set)."""
    if bot.get_cog(COG_NAME) is not None:
        role_sync(bot).request(league_id)


async def setup(bot: EuchreBot) -> None:
    await bot.add_cog(LeagueRoles(bot))
