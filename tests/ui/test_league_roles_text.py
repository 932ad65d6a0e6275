"""League roles' messages at their largest fit Discord's limits, and names typed by members
cannot format or mention."""

from __future__ import annotations

from bot.leagues.roles import ROLES_LIMIT, TOP_LIMIT, RankRole
from bot.storage.leagues import League
from bot.ui.league_roles import (
    added_text,
    reason,
    removed_text,
    roles_text,
    warning_text,
)

LEAGUE = League(1, 1, "*" * 40, {"preset": "modern"}, "ladder", "rubber_points", False, 1, "")
ROLE_ID = 10**19  # ids grow: one of twenty digits
CONTENT_LIMIT = 2000
AUDIT_REASON_LIMIT = 512


def test_every_answer_fits_a_message_and_escapes_the_leagues_name():
    roles = [RankRole(ROLE_ID + n, TOP_LIMIT) for n in range(ROLES_LIMIT)]
    texts = [
        roles_text(LEAGUE, roles),
        roles_text(LEAGUE, roles, "x" * 300),
        added_text(LEAGUE, roles[0]),
        removed_text(LEAGUE, ROLE_ID, 10**6),
        warning_text(LEAGUE, ROLE_ID, "x" * 300),
    ]
    for text in texts:
        assert len(text) <= CONTENT_LIMIT
        assert "\\*" * 40 in text  # escaped: the name shows as typed, not as bold


def test_the_audit_reason_fits_discords_limit_and_says_why():
    assert reason(LEAGUE, RankRole(ROLE_ID, 3), add=True).endswith("in the top 3 of the standings")
    taken = reason(LEAGUE, RankRole(ROLE_ID, TOP_LIMIT), add=False)
    assert "no longer in the top 100" in taken and len(taken) <= AUDIT_REASON_LIMIT


def test_the_list_says_when_a_league_gives_no_roles():
    assert "gives no roles" in roles_text(LEAGUE, []) and "/league roles add" in roles_text(
        LEAGUE, []
    )


def test_the_leader_alone_is_named_as_such():
    assert "the leader of" in added_text(LEAGUE, RankRole(ROLE_ID, 1))
    assert "the top 3 of" in added_text(LEAGUE, RankRole(ROLE_ID, 3))
