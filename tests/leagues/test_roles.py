"""Who should hold a league's rank roles, what a sync changes, and when the bot may not."""

from __future__ import annotations

import pytest

from bot.leagues.roles import (
    TOP_LIMIT,
    RankRole,
    RoleChange,
    RoleFacts,
    check_top,
    differences,
    present_ranks,
    wanted_holders,
    why_not_manageable,
)

GOLD, SILVER = 501, 502


def test_a_rank_role_goes_to_the_members_ranked_within_its_top():
    ranks = [(1, 10), (2, 20), (3, 30), (4, 40)]
    wanted = wanted_holders(ranks, [RankRole(GOLD, 1), RankRole(SILVER, 3)])
    assert wanted == {GOLD: {10}, SILVER: {10, 20, 30}}


def test_members_tied_on_the_boundary_all_hold_the_role():
    ranks = [(1, 10), (2, 20), (2, 30), (4, 40)]
    assert wanted_holders(ranks, [RankRole(GOLD, 2)]) == {GOLD: {10, 20, 30}}


def test_empty_standings_give_a_role_to_nobody():
    assert wanted_holders([], [RankRole(GOLD, 3)]) == {GOLD: set()}


def test_a_sync_takes_the_role_from_who_dropped_out_and_gives_it_to_who_came_in():
    changes = differences({GOLD: {10, 30}}, {GOLD: {10, 20}})
    assert changes == [RoleChange(GOLD, 20, add=False), RoleChange(GOLD, 30, add=True)]


def test_a_sync_changes_nothing_when_the_holders_are_right():
    assert differences({GOLD: {10}, SILVER: {10, 20}}, {GOLD: {10}, SILVER: {20, 10}}) == []


def test_a_sync_leaves_alone_a_role_the_league_no_longer_has():
    assert differences({GOLD: {10}}, {GOLD: {10}, SILVER: {20}}) == []


def test_a_sync_gives_a_new_role_to_everyone_who_should_hold_it():
    changes = differences({SILVER: {20, 10}}, {})
    assert changes == [RoleChange(SILVER, 10, add=True), RoleChange(SILVER, 20, add=True)]


@pytest.mark.parametrize("top", [1, 3, TOP_LIMIT])
def test_top_within_range_is_accepted(top):
    assert check_top(top) == top


@pytest.mark.parametrize("top", [0, -1, TOP_LIMIT + 1])
def test_top_out_of_range_is_refused(top):
    with pytest.raises(ValueError, match=f"1 to {TOP_LIMIT}"):
        check_top(top)


def test_a_role_below_the_bot_with_manage_roles_is_manageable():
    assert why_not_manageable(True, RoleFacts("Champions")) is None


def test_without_manage_roles_the_permission_is_named():
    problem = why_not_manageable(False, RoleFacts("Champions"))
    assert problem is not None and "Manage Roles" in problem


def test_a_role_above_the_bot_is_named():
    problem = why_not_manageable(True, RoleFacts("Champions", below_bot=False))
    assert problem is not None and "Champions" in problem and "bot's highest role" in problem


def test_everyone_cannot_be_a_league_role():
    problem = why_not_manageable(True, RoleFacts("@everyone", everyone=True))
    assert problem is not None and "holds the everyone role" in problem


def test_an_integrations_role_cannot_be_a_league_role():
    problem = why_not_manageable(True, RoleFacts("Server Booster", managed=True))
    assert problem is not None and "integration" in problem


def test_members_who_left_give_up_their_places_to_those_ranked_below():
    ranks = [(1, 10), (1, 20), (3, 30), (3, 40), (5, 50)]
    assert present_ranks(ranks, set()) == ranks
    # 10 left: 20 is first alone, 30 and 40 share second, 50 is fourth.
    assert present_ranks(ranks, {10}) == [(1, 20), (2, 30), (2, 40), (4, 50)]
    # A leader gone and one of a tie below: each below moves up once for each gone above.
    assert present_ranks(ranks, {10, 30}) == [(1, 20), (2, 40), (3, 50)]
    assert present_ranks(ranks, {50}) == ranks[:4]
