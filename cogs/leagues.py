"""/league: a server's leagues: creating one, joining and leaving, and whether a match counts."""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.engine.rules import build_options
from bot.leagues.counting import reasons_not_counted
from bot.leagues.roles import TOP_LIMIT
from bot.numbers import parse_whole
from bot.storage import fixtures as fixture_store
from bot.storage import (
    league_exports,
    league_ratings,
    league_results,
    league_roles,
    league_seasons,
    leagues,
    nights,
)
from bot.storage.database import Database
from bot.storage.leagues import LeagueError
from bot.tables.manager import Change
from bot.ui.embeds import plural
from bot.ui.guide import RULE_OPTION_DESCRIPTIONS
from bot.ui.leagues import (
    audit_embed,
    correction_text,
    created_text,
    info_embed,
    joined_text,
    league_choices,
    left_text,
    match_text,
    members_embed,
    rating_embed,
    ratings_embed,
    season_ended_text,
    season_started_text,
    settings_text,
    standings_embed,
)
from bot.ui.respond import answer, guild_id_of
from cogs.league_roles import request_sync, role_sync

Format = Literal["ladder", "fixtures", "progressive"]
Standing = Literal["rubber_points", "rubbers", "games", "points"]
Side = Literal["north-south", "east-west"]
Export = Literal["standings", "ratings", "fixtures", "games"]
Leaver = Literal["forfeit", "no_contest"]
SIDES: dict[str, int] = {"north-south": 0, "east-west": 1}

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


def organiser(interaction: discord.Interaction, what: str) -> None:
    """Refuse an organiser's command to a member who may not manage the server.

    Raises:
        TableError: used in a direct message (an older client still offers the command there).
        LeagueError: the member lacks Manage Server.
    """
    guild_id_of(interaction)  # in a DM, say where it works, not that one may not manage it
    if not interaction.permissions.manage_guild:
        raise LeagueError(f"only members who may manage this server can {what}")


async def _refuse_leaving_a_pair(db: Database, found: leagues.League, user_id: int) -> None:
    """A partner of a pair registered for the league's fixtures may not leave the league with
    it registered: his partner could then never play a fixture (a table of the league seats
    only its members) and would lose each at its deadline, with nobody told why.

    Raises:
        LeagueError: the member is one of the two partners of a pair that has not withdrawn.
    """
    pair = await fixture_store.pair_of(db, found.id, user_id)
    if pair is not None and user_id in (pair.first[0], pair.second[0]):
        raise LeagueError(
            "you play in the pair {} of the league {}'s fixtures: withdraw it first with"
            " /fixtures withdraw (its fixtures not yet played are forfeited), then leave the"
            " league",
            pair.name,
            found.name,
        )


async def _refuse_leaving_a_night(db: Database, found: leagues.League, user_id: int) -> None:
    """A player registered for the league's euchre night may not leave the league with it
    open: the night would seat him still, and his tables' matches would count for nobody (a
    table of the league counts only with its members).

    Raises:
        LeagueError: the member is registered for a night of the league not yet closed.
    """
    night = await nights.registered_night(db, found.id, user_id)
    if night is not None:
        raise LeagueError(
            f"you are registered for the league {{}}'s euchre night in <#{night.channel_id}>:"
            " leave it first with /night leave there, then the league",
            found.name,
        )


class Leagues(commands.Cog):
    """Leagues of this server."""

    # Not `default_permissions`: Discord applies them to the whole /league command, and every
    # member may join a league. Creating one checks Manage Server itself.
    league = app_commands.Group(
        name="league", description="This server's Euchre leagues", guild_only=True
    )

    def __init__(self, bot: EuchreBot) -> None:
        self.bot = bot
        # A correction that reaches back far recomputes the ratings after its answer, in short
        # writes, so the tables' clicks never wait long for the writer.
        self.recomputer = league_ratings.Recomputer(bot.db, bot.manager.writer.write)

    async def cog_load(self) -> None:
        self.bot.manager.observers.append(self._match_ended)
        await self.recomputer.resume()  # what a stop cut short

    async def cog_unload(self) -> None:
        await self.shutdown()

    async def shutdown(self) -> None:
        """Stop the recomputes under way (each carries on at the next start)."""
        if self._match_ended in self.bot.manager.observers:
            self.bot.manager.observers.remove(self._match_ended)
        await self.recomputer.close()

    async def _match_ended(self, change: Change) -> None:
        """A league match that ended may have marked its league's ratings (a leaver's match
        taken out of a long history): recompute them."""
        if (change.match_over or change.kind == "closed") and change.table.league_id is not None:
            self.recomputer.wake(change.table.league_id)

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
        organiser(interaction, "create a league")
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
        self._refuse_leaving_from_its_table(found, interaction.user.id)

        async def work(db: Database) -> None:
            await _refuse_leaving_a_pair(db, found, interaction.user.id)
            await _refuse_leaving_a_night(db, found, interaction.user.id)
            await leagues.leave_league(db, found, interaction.user.id)

        await self.bot.manager.writer.write(work)
        await answer(interaction, left_text(found))

    def _refuse_leaving_from_its_table(self, found: leagues.League, user_id: int) -> None:
        """A member at one of the league's tables may not leave the league from it: the match
        he plays would then count for nobody (a player not a member of the league), a way out
        of a loss that the league's rule for leavers would have charged to his side.

        Raises:
            LeagueError: the member sits at a table of the league, or a computer holds his seat.
        """
        for table in self.bot.manager.tables.values():
            if table.league_id != found.id:
                continue
            if table.seat_of(user_id) is not None or table.held_seat_of(user_id) is not None:
                raise LeagueError(
                    f"you sit at a table of the league {{}} (<#{table.channel_id}>): leave the"
                    " table first (/table leave, or /night leave at a euchre night), then the"
                    " league",
                    found.name,
                )

    @league.command(name="info")
    @app_commands.describe(name="the league")
    async def info(self, interaction: discord.Interaction, name: str) -> None:
        """A league's rules, format, standings and members."""
        found = await self._league(interaction, name)
        count = await leagues.member_count(self.db, found.id)
        season = await league_seasons.running_season(self.db, found.id)
        await interaction.response.send_message(embed=info_embed(found, count, season))

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
        found = await league_results.verdict(self.db, match_id) if standing.league else None
        await answer(interaction, match_text(match_id, standing.league, reasons, found))

    # -- seasons and standings -----------------------------------------------------------

    season = app_commands.Group(name="season", description="A league's seasons", parent=league)

    @season.command(name="start")
    @app_commands.describe(league="the league", name="the season's name (default: Season N)")
    async def season_start(
        self, interaction: discord.Interaction, league: str, name: str | None = None
    ) -> None:
        """Start a season (Manage Server)."""
        organiser(interaction, "start a season")
        found = await self._league(interaction, league)

        async def work(db: Database) -> tuple[league_seasons.Season, int]:
            started = await league_seasons.start_season(db, found, interaction.user.id, name)
            return started, await league_seasons.matches_in_play(db, found.id)

        started, in_play = await self.bot.manager.writer.write(work)
        request_sync(self.bot, found.id)  # in a task of its own, under way once answered
        await answer(interaction, season_started_text(found, started, in_play))

    @season.command(name="end")
    @app_commands.describe(league="the league")
    async def season_end(self, interaction: discord.Interaction, league: str) -> None:
        """End the season, keeping its standings (Manage Server)."""
        organiser(interaction, "end a season")
        found = await self._league(interaction, league)

        async def work(db: Database) -> tuple[league_seasons.Season, int, bool]:
            ended = await league_seasons.end_season(db, found, interaction.user.id)
            in_play = await league_seasons.matches_in_play(db, found.id)
            return ended, in_play, bool(await league_roles.rank_roles(db, found.id))

        ended, in_play, roles = await self.bot.manager.writer.write(work)
        request_sync(self.bot, found.id)  # in a task of its own, under way once answered
        await answer(interaction, season_ended_text(found, ended, in_play, roles))

    @league.command(name="standings")
    @app_commands.describe(
        league="the league",
        season="a season's number or name (default: the running season)",
        page="page of twenty",
    )
    async def standings(
        self,
        interaction: discord.Interaction,
        league: str,
        season: str | None = None,
        page: int = 1,
    ) -> None:
        """A league's standings."""
        found = await self._league(interaction, league)
        result = await league_seasons.standings_page(self.db, found, season, page)
        await interaction.response.send_message(embed=standings_embed(found, result))

    # -- ratings --------------------------------------------------------------------------

    @league.command(name="ratings")
    @app_commands.describe(
        league="the league",
        season="an ended season's number or name: its ratings as it ended (default: now)",
        page="page of twenty",
    )
    async def ratings(
        self,
        interaction: discord.Interaction,
        league: str,
        season: str | None = None,
        page: int = 1,
    ) -> None:
        """A league's ratings: μ − 3σ."""
        found = await self._league(interaction, league)
        result = await league_seasons.ratings_page(self.db, found, season, page)
        await interaction.response.send_message(embed=ratings_embed(found, result))

    @league.command(name="rating")
    @app_commands.describe(league="the league", member="whose rating")
    async def rating(
        self, interaction: discord.Interaction, league: str, member: discord.User
    ) -> None:
        """A member's rating and its history."""
        found = await self._league(interaction, league)
        stored = (await league_ratings.stored_ratings(self.db, found.id)).players.get(member.id)
        history = await league_ratings.history(self.db, found.id, member.id)
        settings = await league_seasons.league_settings(self.db, found.id)
        embed = rating_embed(found, member.display_name, stored, history, settings)
        await interaction.response.send_message(embed=embed)

    @league.command(name="settings")
    @app_commands.describe(
        league="the league",
        min_games="rated games before a player is listed (default 10)",
        hide_after_days="days without a rated game before a player is hidden (default 14)",
        leaver="what a match a player left or timed out of counts as (default no contest)",
    )
    async def settings(
        self,
        interaction: discord.Interaction,
        league: str,
        min_games: int | None = None,
        hide_after_days: int | None = None,
        leaver: Leaver | None = None,
    ) -> None:
        """Rating and leaver settings: anyone may read them, changing them needs Manage Server."""
        found = await self._league(interaction, league)
        if min_games is None and hide_after_days is None and leaver is None:
            shown = await league_seasons.league_settings(self.db, found.id)
            await answer(interaction, settings_text(found, shown, changed=False))
            return
        organiser(interaction, "change a league's settings")

        async def work(db: Database) -> league_seasons.LeagueSettings:
            return await league_seasons.change_settings(
                db, found, min_games=min_games, hide_after_days=hide_after_days, leaver=leaver
            )

        changed = await self.bot.manager.writer.write(work)
        await answer(
            interaction, settings_text(found, changed, changed=True, leaver_set=leaver is not None)
        )

    # -- corrections ----------------------------------------------------------------------

    async def _correct(
        self,
        interaction: discord.Interaction,
        league: str,
        match: str,
        action: str,
        reason: str,
        side: int | None = None,
    ) -> None:
        organiser(interaction, "correct a league's match")
        found = await self._league(interaction, league)
        match_id = parse_match_id(match)

        fixtures = self.bot.fixtures

        async def work(db: Database) -> league_results.Corrected:
            return await league_results.correct(
                db,
                found,
                match_id,
                action,
                reason,
                interaction.user.id,
                side=side,
                fixture_now=fixtures.now(),
            )

        corrected = await self.bot.manager.writer.write(work)
        if corrected.fixture is not None:
            fixtures.wake()  # a bracket or a Swiss round may go on from it
        if corrected.ratings_pending:
            self.recomputer.wake(found.id)
        request_sync(self.bot, found.id)  # in a task of its own, under way once answered
        await answer(interaction, correction_text(found, corrected))

    @league.command(name="void")
    @app_commands.describe(league="the league", match="the match, like M12", reason="why")
    async def void(
        self, interaction: discord.Interaction, league: str, match: str, reason: str
    ) -> None:
        """Void a match (Manage Server)."""
        await self._correct(interaction, league, match, "void", reason)

    @league.command(name="unvoid")
    @app_commands.describe(league="the league", match="the match, like M12", reason="why")
    async def unvoid(
        self, interaction: discord.Interaction, league: str, match: str, reason: str
    ) -> None:
        """Undo a void (Manage Server)."""
        await self._correct(interaction, league, match, "unvoid", reason)

    @league.command(name="replay")
    @app_commands.describe(league="the league", match="the match, like M12", reason="why")
    async def replay(
        self, interaction: discord.Interaction, league: str, match: str, reason: str
    ) -> None:
        """Set a match to be replayed (Manage Server)."""
        await self._correct(interaction, league, match, "replay", reason)

    @league.command(name="award")
    @app_commands.describe(
        league="the league",
        match="the match, like M12",
        side="the side it is awarded to",
        reason="why",
    )
    async def award(
        self, interaction: discord.Interaction, league: str, match: str, side: Side, reason: str
    ) -> None:
        """Award a match by forfeit (Manage Server)."""
        if side not in SIDES:
            raise LeagueError("an award goes to north-south or east-west, not {}", side)
        await self._correct(interaction, league, match, "award", reason, SIDES[side])

    @league.command(name="audit")
    @app_commands.describe(league="the league", page="page of eight, newest first")
    async def audit(self, interaction: discord.Interaction, league: str, page: int = 1) -> None:
        """Every correction, newest first."""
        found = await self._league(interaction, league)
        result = await league_results.audit_page(self.db, found, page)
        await interaction.response.send_message(embed=audit_embed(found, result))

    @league.command(name="export")
    @app_commands.describe(
        league="the league",
        what="standings, ratings or fixtures (CSV), or every game (EGN files in a zip)",
        season="a season's standings or ratings, by number or name (default: the running one's;"
        " ratings: today's)",
    )
    async def export(
        self,
        interaction: discord.Interaction,
        league: str,
        what: Export,
        season: str | None = None,
    ) -> None:
        """Standings, ratings, fixtures or games as a file."""
        found = await self._league(interaction, league)
        if season is not None and what in ("fixtures", "games"):
            # Not quietly ignored: a file of every fixture or game would pass for the season's.
            raise LeagueError(
                "the {} export holds every one the league made, whatever the season: leave the"
                " season out (it picks the standings or ratings to export)",
                what,
            )
        if what == "standings":
            data = await league_exports.standings_csv(self.db, found, season)
            name, note = "standings.csv", "Standings as CSV."
        elif what == "ratings":
            data = await league_exports.ratings_csv(self.db, found, season)
            name, note = "ratings.csv", "Every rated player as CSV."
        elif what == "fixtures":
            data = await league_exports.fixtures_csv(self.db, found)
            name, note = "fixtures.csv", "Every fixture the league made, as CSV."
        elif what == "games":
            data, count = await league_exports.games_zip(self.db, found)
            name, note = "games.zip", f"{plural(count, 'game')} as EGN 1.4, one file a game."
        else:
            raise LeagueError("an export is standings, ratings, fixtures or games, not {}", what)
        if len(data) > interaction.filesize_limit:
            raise LeagueError(
                f"that export is {len(data):,} bytes, more than Discord takes here"
                f" ({interaction.filesize_limit:,})"
            )
        # A season's file is named by it: an organiser downloading several seasons' standings
        # gets files he can tell apart, not "3-standings (1).csv".
        picked = (
            await league_seasons.find_season(self.db, found, season)
            if season is not None and season.strip()
            else None
        )
        filename = f"{found.id}-{f'season-{picked.number}-' if picked else ''}{name}"
        await answer(interaction, note, file=discord.File(io.BytesIO(data), filename=filename))

    # -- roles ----------------------------------------------------------------------------
    # The sync that keeps them is cogs/league_roles.py; these only take the organiser's word.

    roles = app_commands.Group(
        name="roles", description="Roles that follow a league's standings", parent=league
    )

    @roles.command(name="add")
    @app_commands.describe(
        league="the league",
        role="the role to give",
        top="who holds it: the members ranked 1 to top in the current standings",
    )
    async def roles_add(
        self,
        interaction: discord.Interaction,
        league: str,
        role: discord.Role,
        top: app_commands.Range[int, 1, TOP_LIMIT],
    ) -> None:
        """Give a role to a league's top places, kept after every result (Manage Server)."""
        organiser(interaction, "give a league's roles")
        await role_sync(self.bot).add(interaction, league, role, top)

    @roles.command(name="remove")
    @app_commands.describe(league="the league", role="the role the league gives")
    async def roles_remove(
        self, interaction: discord.Interaction, league: str, role: discord.Role
    ) -> None:
        """Stop a league giving a role; who holds it keeps it (Manage Server)."""
        organiser(interaction, "change a league's roles")
        await role_sync(self.bot).remove(interaction, league, role)

    @roles.command(name="list")
    @app_commands.describe(league="the league")
    async def roles_list(self, interaction: discord.Interaction, league: str) -> None:
        """The roles a league gives, and to how many places."""
        await role_sync(self.bot).show(interaction, league)

    @join.autocomplete("name")
    @leave.autocomplete("name")
    @info.autocomplete("name")
    @members.autocomplete("name")
    @season_start.autocomplete("league")
    @season_end.autocomplete("league")
    @standings.autocomplete("league")
    @ratings.autocomplete("league")
    @rating.autocomplete("league")
    @settings.autocomplete("league")
    @void.autocomplete("league")
    @unvoid.autocomplete("league")
    @replay.autocomplete("league")
    @award.autocomplete("league")
    @audit.autocomplete("league")
    @export.autocomplete("league")
    @roles_add.autocomplete("league")
    @roles_remove.autocomplete("league")
    @roles_list.autocomplete("league")
    async def name_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await league_choices(self.db, interaction.guild_id, current)

    @standings.autocomplete("season")
    @ratings.autocomplete("season")
    @export.autocomplete("season")
    async def season_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        typed = getattr(interaction.namespace, "league", None)
        if not typed or interaction.guild_id is None:
            return []
        try:
            found = await leagues.find_league(self.db, interaction.guild_id, typed)
        except LeagueError:
            return []
        names = await league_seasons.season_names(self.db, found.id, current)
        return [app_commands.Choice(name=name, value=name) for name in names]


async def setup(bot: EuchreBot) -> None:
    await bot.add_cog(Leagues(bot))
