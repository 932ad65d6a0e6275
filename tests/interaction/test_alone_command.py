"""/alone during the bidding: it answers a partner who made trump (or defends alone), so a
member who types it to make the trump alone is told the command that does, and nothing moves."""

from __future__ import annotations

from bot.engine.actions import PASS
from tests.interaction.helpers import act, start_four, to_act
from tests.support.interactions import InteractionHarness

pytest_plugins = ["tests.support.fixtures"]


async def test_alone_in_the_bidding_names_the_command_that_makes_trump_alone(
    interactions: InteractionHarness,
):
    h = interactions
    table = await start_four(h, preset="modern")
    member, _ = to_act(h)
    before = list(table.actions)
    refused = (await h.command(member.name, "alone")).reply
    assert refused.ephemeral
    assert "/order" in refused.text and "alone" in refused.text, refused.text
    assert table.actions == before
    for _ in range(4):  # turned down: the second round
        await act(h, PASS)
    member, _ = to_act(h)
    refused = (await h.command(member.name, "alone")).reply
    assert "/call" in refused.text and "alone" in refused.text, refused.text
    assert table.actions[len(before) + 4 :] == []
