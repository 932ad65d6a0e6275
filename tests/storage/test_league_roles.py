"""A league's rank roles in storage: adding, changing and removing them, the bot's list of
holders, the one warning, and the standings they follow."""

from __future__ import annotations

import pytest

from bot.leagues.roles import ROLES_LIMIT, TOP_LIMIT, RankRole
from bot.storage import league_roles, league_seasons
from bot.storage.leagues import LeagueError
from tests.storage.league_builders import league_match, league_of

GOLD, SILVER = 501, 502
ORGANISER, CHANNEL = 7, 70


async def add(db, league, role_id, top):
    async with db.transaction():
        return await league_roles.add_rank_role(db, league, role_id, top, ORGANISER, CHANNEL)


async def test_a_league_keeps_its_roles_narrowest_first(db):
    league = await league_of(db, 1, 2, 3, 4)
    await add(db, league, SILVER, 3)
    await add(db, league, GOLD, 1)
    assert await league_roles.rank_roles(db, league.id) == [RankRole(GOLD, 1), RankRole(SILVER, 3)]


async def test_adding_a_role_again_changes_its_top(db):
    league = await league_of(db, 1, 2)
    await add(db, league, GOLD, 1)
    await add(db, league, GOLD, 2)
    assert await league_roles.rank_roles(db, league.id) == [RankRole(GOLD, 2)]


async def test_a_role_follows_one_league_only(db):
    first = await league_of(db, 1, name="First")
    second = await league_of(db, 2, name="Second")
    await add(db, first, GOLD, 1)
    with pytest.raises(LeagueError, match="First"):
        await add(db, second, GOLD, 1)
    assert await league_roles.rank_roles(db, second.id) == []


async def test_top_out_of_range_is_refused_and_changes_nothing(db):
    league = await league_of(db, 1)
    with pytest.raises(LeagueError, match=f"1 to {TOP_LIMIT}"):
        await add(db, league, GOLD, 0)
    assert await league_roles.rank_roles(db, league.id) == []
    assert await league_roles.notice(db, league.id) is None


async def test_a_league_has_at_most_its_limit_of_roles(db):
    league = await league_of(db, 1)
    for n in range(ROLES_LIMIT):
        await add(db, league, 600 + n, 1)
    with pytest.raises(LeagueError, match=f"at most {ROLES_LIMIT}"):
        await add(db, league, GOLD, 1)
    await add(db, league, 600, 5)  # changing one it has is not adding one


async def test_removing_a_role_forgets_its_holders_and_returns_them(db):
    league = await league_of(db, 1, 2)
    await add(db, league, GOLD, 1)
    async with db.transaction():
        await league_roles.set_holder(db, league.id, GOLD, 1, True)
        await league_roles.set_holder(db, league.id, GOLD, 2, True)
        await league_roles.set_holder(db, league.id, GOLD, 2, False)
    assert await league_roles.holders(db, league.id) == {GOLD: {1}}
    async with db.transaction():
        assert await league_roles.remove_rank_role(db, league, GOLD) == {1}
    assert await league_roles.holders(db, league.id) == {}


async def test_removing_a_role_the_league_does_not_have_is_refused(db):
    league = await league_of(db, 1)
    with pytest.raises(LeagueError, match="no such role"):
        async with db.transaction():
            await league_roles.remove_rank_role(db, league, GOLD)


async def test_a_holder_of_a_role_the_league_no_longer_has_is_not_noted(db):
    league = await league_of(db, 1)
    async with db.transaction():
        await league_roles.set_holder(db, league.id, GOLD, 1, True)
    assert await league_roles.holders(db, league.id) == {}


async def test_the_warning_is_noted_until_cleared_and_adding_a_role_clears_it(db):
    league = await league_of(db, 1)
    await add(db, league, GOLD, 1)
    async with db.transaction():
        await league_roles.set_warning(db, league.id, "no Manage Roles")
    noted = await league_roles.notice(db, league.id)
    assert noted == league_roles.Notice(CHANNEL, ORGANISER, "no Manage Roles")
    await add(db, league, SILVER, 2)
    assert (await league_roles.notice(db, league.id)).warning is None


async def test_roles_follow_the_running_seasons_standings(db):
    league = await league_of(db, 1, 2, 3, 4)
    await league_match(db, league, (1, 2, 3, 4), winner=0)  # outside seasons: 1 and 3 won
    assert {u for rank, u in await league_roles.current_ranks(db, league) if rank == 1} == {1, 3}
    async with db.transaction():
        await league_seasons.start_season(db, league, ORGANISER)
    assert await league_roles.current_ranks(db, league) == []
    await league_match(db, league, (1, 2, 3, 4), winner=1)
    assert {u for rank, u in await league_roles.current_ranks(db, league) if rank == 1} == {2, 4}


async def test_the_leagues_with_roles_of_a_server(db):
    league = await league_of(db, 1, name="First")
    await league_of(db, 2, name="Second")
    await add(db, league, GOLD, 1)
    assert await league_roles.leagues_with_roles(db, league.guild_id) == [league.id]
