"""A table against members who are not what a command expects: someone who left the server
named in a member option, and the like. Each is answered privately, clearly, and changes
nothing it should not."""

from __future__ import annotations

from typing import Any

from tests.support.fake_discord import INTERACTION_COMMAND, FakeMember
from tests.support.interactions import Exchange, InteractionHarness

pytest_plugins = ["tests.support.fixtures"]


async def naming_one_who_left(
    h: InteractionHarness, who: str, name: str, option: str, gone: FakeMember, **options: Any
) -> Exchange:
    """``who`` runs ``/name`` naming ``gone`` in ``option`` as Discord names a user who left
    the server: the user resolved, no member."""
    member = h.member(who)
    data = h.world._command_data(member, h.channel, name, {**options, option: gone}, focused=None)
    data["resolved"].pop("members")
    exchange = h._exchange(INTERACTION_COMMAND, member, h.channel, data)
    await h._run_tree(exchange)
    return exchange


async def test_any_member_option_naming_one_who_left_is_refused_not_logged_as_a_bug(interactions):
    h = interactions
    exchange = await naming_one_who_left(
        h, "alice", "fixtures register", "partner", h.member("bob"), league="none"
    )
    assert exchange.ephemeral
    assert exchange.text.startswith("“bob” is not a member of this server"), exchange.text
