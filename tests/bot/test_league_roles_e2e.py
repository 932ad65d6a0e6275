"""League roles through the real bot and the fake Discord: an organiser gives a league's leader a
role, a league match and a correction move it, a bot without Manage Roles warns once, and bad
configurations are refused privately, changing nothing."""

from __future__ import annotations

import discord

from bot.leagues.roles import TOP_LIMIT
from bot.storage import league_roles
from bot.storage.leagues import find_league
from cogs.league_roles import role_sync
from tests.bot.helpers import NAMES, act_once, eventually, private, running_bot, table_of
from tests.support.fake_discord import BOT_PERMISSIONS, FakeDiscord, FakeRole

pytest_plugins = ["tests.support.fixtures"]

MANAGE_ROLES = discord.Permissions(manage_roles=True).value
SIDES = ("north-south", "east-west")
BOT_ROLE_AT = 50  # the bot's own role, between the league's role and one above it


def world(fake: FakeDiscord, *, manage_roles: bool = True) -> tuple[FakeRole, FakeRole]:
    """An organiser, the bot's role at `BOT_ROLE_AT`, a role below it and one above it."""
    fake.add_member(
        fake.guild, "organiser", permissions=discord.Permissions(manage_guild=True).value
    )
    fake.bot_permissions = BOT_PERMISSIONS | (MANAGE_ROLES if manage_roles else 0)
    fake.move_role(fake.guild, fake.bot_role(fake.guild), BOT_ROLE_AT)
    champions = fake.add_role(fake.guild, "Champions", position=10)
    admins = fake.add_role(fake.guild, "Admins", position=BOT_ROLE_AT + 10)
    return champions, admins


async def quick_league(fake: FakeDiscord) -> None:
    """The league "Quick": one game of one point a match, all four seeded members in it."""
    created = await private(
        fake, "organiser", "league create", name="Quick", preset="modern", points=1, match="game"
    )
    assert "is open" in created
    for name in NAMES:
        assert "You joined" in await private(fake, name, "league join", name="Quick")


async def play_league_game(bot, fake: FakeDiscord) -> tuple[int, set[int], set[int], str]:
    """A league game played to its end: its match id, the winners' ids, the losers' and the
    losers' side (north-south or east-west)."""
    assert "for the league" in await private(fake, "alice", "table create", league="Quick")
    for name in NAMES[1:]:
        assert "You sit at" in await private(fake, name, "table join")
    assert "dealt" in await private(fake, "alice", "table start")
    table = await eventually(lambda: table_of(bot, fake), what="the league's table")
    match_id = table.match_id
    while table.playing:
        await act_once(bot, fake)
    winner = table.match.winner
    sides = [{o.user_id for s, o in enumerate(table.seats) if s % 2 == k} for k in (0, 1)]
    return match_id, sides[winner], sides[1 - winner], SIDES[1 - winner]


async def league_id_of(bot) -> int:
    return (await find_league(bot.db, bot.guilds[0].id, "Quick")).id


async def settled(bot) -> None:
    """Wait until every sync asked for the league "Quick" has run."""
    league_id = await league_id_of(bot)
    await eventually(lambda: role_sync(bot).settled(league_id), what="the roles' syncs")


def warnings(fake: FakeDiscord) -> list[str]:
    return [m.text for m in fake.public_messages(fake.channel) if "cannot be kept up" in m.text]


async def test_a_finished_league_game_gives_the_leaders_the_role_and_a_correction_moves_it(
    fake_discord, tmp_path
):
    fake = fake_discord
    champions, _ = world(fake)
    async with running_bot(fake, tmp_path / "euchre.db") as bot:
        await quick_league(fake)
        added = await private(
            fake, "organiser", "league roles add", league="Quick", role=champions, top=1
        )
        assert champions.mention in added and "the leader" in added
        assert "the top 1" in await private(fake, "bob", "league roles list", league="Quick")

        match_id, winners, losers, side = await play_league_game(bot, fake)
        await fake.wait_for(lambda: champions.members == winners, what="the winners' role")
        assert all(e.add and "League Quick" in (e.reason or "") for e in fake.role_edits)

        corrected = await private(
            fake, "organiser", "league award", league="Quick", match=f"M{match_id}", side=side,
            reason="the score was entered wrong",
        )  # fmt: skip
        assert "counts" in corrected
        # The award makes the losers the leaders: the role goes to them and leaves the others.
        await fake.wait_for(lambda: champions.members == losers, what="the role moved")
        taken = [e for e in fake.role_edits if not e.add]
        assert {e.user_id for e in taken} == winners
        assert all("no longer in the top 1" in (e.reason or "") for e in taken)
        await settled(bot)
        held = await league_roles.holders(bot.db, await league_id_of(bot))
        assert held == {champions.id: losers}
        assert warnings(fake) == []


async def test_without_manage_roles_the_organiser_is_warned_once_and_the_sync_resumes(
    fake_discord, tmp_path
):
    fake = fake_discord
    champions, _ = world(fake)
    async with running_bot(fake, tmp_path / "euchre.db") as bot:
        await quick_league(fake)
        await private(fake, "organiser", "league roles add", league="Quick", role=champions, top=1)
        await settled(bot)
        fake.set_bot_permissions(BOT_PERMISSIONS)  # Manage Roles taken from the bot's role
        await eventually(
            lambda: not bot.guilds[0].me.guild_permissions.manage_roles, what="the lost permission"
        )

        match_id, winners, _, _ = await play_league_game(bot, fake)
        told = await fake.wait_for(lambda: warnings(fake), what="the warning")
        organiser = fake.member("organiser")
        assert "Manage Roles" in told[0] and told[0].startswith(organiser.mention)
        for correction in ("void", "unvoid"):
            await private(
                fake, "organiser", f"league {correction}", league="Quick", match=f"M{match_id}",
                reason="checking",
            )  # fmt: skip
            await settled(bot)
        assert len(warnings(fake)) == 1
        assert champions.members == set() and fake.role_edits == []

        fake.set_bot_permissions(BOT_PERMISSIONS | MANAGE_ROLES)
        await fake.wait_for(lambda: champions.members == winners, what="the sync resumed")
        await settled(bot)
        assert len(warnings(fake)) == 1
        notice = await league_roles.notice(bot.db, await league_id_of(bot))
        assert notice is not None and notice.warning is None  # a new problem is told again


async def test_bad_configurations_are_refused_privately_and_change_nothing(fake_discord, tmp_path):
    fake = fake_discord
    champions, admins = world(fake)
    integration = fake.add_role(fake.guild, "Booster", position=5, managed=True)
    everyone = FakeRole(fake.guild.id, fake.guild.id, "@everyone", 0)
    async with running_bot(fake, tmp_path / "euchre.db") as bot:
        await quick_league(fake)

        async def add(who: str = "organiser", **options) -> str:
            options = {"league": "Quick", "role": champions, "top": 1, **options}
            return await private(fake, who, "league roles add", **options)

        assert "manage this server" in await add("alice")
        assert "manage this server" in await private(
            fake, "alice", "league roles remove", league="Quick", role=champions
        )
        above = await add(role=admins)
        assert admins.mention in above and "not below the bot's highest role" in above
        assert "holds the everyone role" in await add(role=everyone)
        assert "integration" in await add(role=integration)
        assert f"1 to {TOP_LIMIT}" in await add(top=0)
        assert f"1 to {TOP_LIMIT}" in await add(top=101)
        assert "no league named" in await add(league="Nowhere")
        assert "no such role" in await private(
            fake, "organiser", "league roles remove", league="Quick", role=champions
        )
        fake.set_bot_permissions(BOT_PERMISSIONS)
        await eventually(
            lambda: not bot.guilds[0].me.guild_permissions.manage_roles, what="the lost permission"
        )
        assert "Manage Roles" in await add()

        assert await league_roles.rank_roles(bot.db, await league_id_of(bot)) == []
        assert "gives no roles" in await private(fake, "bob", "league roles list", league="Quick")
        assert fake.role_edits == []


async def test_a_removed_role_is_no_longer_given_and_its_holders_keep_it(fake_discord, tmp_path):
    fake = fake_discord
    champions, _ = world(fake)
    async with running_bot(fake, tmp_path / "euchre.db") as bot:
        await quick_league(fake)
        await private(fake, "organiser", "league roles add", league="Quick", role=champions, top=1)
        match_id, winners, _, _ = await play_league_game(bot, fake)
        await fake.wait_for(lambda: champions.members == winners, what="the winners' role")
        removed = await private(
            fake, "organiser", "league roles remove", league="Quick", role=champions
        )
        assert "2 members" in removed and "keep it" in removed
        await private(
            fake, "organiser", "league void", league="Quick", match=f"M{match_id}", reason="test"
        )
        await settled(bot)
        assert champions.members == winners
        assert len(fake.role_edits) == 2


async def test_a_role_added_after_results_goes_to_the_leaders_at_once(fake_discord, tmp_path):
    fake = fake_discord
    champions, _ = world(fake)
    async with running_bot(fake, tmp_path / "euchre.db") as bot:
        await quick_league(fake)
        _, winners, _, _ = await play_league_game(bot, fake)
        await private(fake, "organiser", "league roles add", league="Quick", role=champions, top=2)
        # The winners share first place; the losers share third: the top 2 is the winners.
        await fake.wait_for(lambda: champions.members == winners, what="the leaders' role")


async def test_a_role_deleted_on_discord_is_forgotten_at_the_next_result(fake_discord, tmp_path):
    fake = fake_discord
    champions, _ = world(fake)
    async with running_bot(fake, tmp_path / "euchre.db") as bot:
        await quick_league(fake)
        await private(fake, "organiser", "league roles add", league="Quick", role=champions, top=1)
        match_id, winners, _, _ = await play_league_game(bot, fake)
        await fake.wait_for(lambda: champions.members == winners, what="the winners' role")
        fake.delete_role(fake.guild, champions)
        await eventually(lambda: bot.guilds[0].get_role(champions.id) is None, what="the delete")
        await private(
            fake, "organiser", "league void", league="Quick", match=f"M{match_id}", reason="test"
        )
        await settled(bot)
        league_id = await league_id_of(bot)
        assert await league_roles.rank_roles(bot.db, league_id) == []
        assert await league_roles.holders(bot.db, league_id) == {}
        assert warnings(fake) == [] and len(fake.role_edits) == 2


async def test_a_leader_who_left_the_server_passes_his_place_to_the_next(fake_discord, tmp_path):
    """He keeps his place in the standings, but Discord cannot give him the role: the members
    still in the server move up a place. The winners share first place and the losers third;
    with one winner gone, the top 2 is the other winner and the losers, tied second."""
    fake = fake_discord
    champions, _ = world(fake)
    async with running_bot(fake, tmp_path / "euchre.db") as bot:
        await quick_league(fake)
        match_id, winners, losers, _ = await play_league_game(bot, fake)
        gone = min(winners)
        del fake.guild.members[gone]  # he left the server (the bot hears nothing of it)
        await private(fake, "organiser", "league roles add", league="Quick", role=champions, top=2)
        here = (winners - {gone}) | losers
        await fake.wait_for(lambda: champions.members == here, what="the role of those here")
        await settled(bot)
        # Corrections sync again: the role stays with the members still here.
        await private(
            fake, "organiser", "league void", league="Quick", match=f"M{match_id}", reason="test"
        )
        await private(
            fake, "organiser", "league unvoid", league="Quick", match=f"M{match_id}", reason="test"
        )
        await settled(bot)
        assert champions.members == here
        assert gone not in {e.user_id for e in fake.role_edits}
        assert warnings(fake) == []
