"""/settings ping answers what the bot will do: a wait is never longer than half the turn (so
the ping comes before a computer plays for the member), and the answer says so."""

from __future__ import annotations

from tests.interaction.helpers import start_four, to_act
from tests.support.interactions import InteractionHarness

pytest_plugins = ["tests.support.fixtures"]


async def test_a_wait_longer_than_half_the_turn_is_answered_with_when_the_ping_comes(
    interactions: InteractionHarness,
):
    h = interactions
    table = await start_four(h)
    member, seat = to_act(h)
    manager = h.bot.manager
    answer = await h.command(member, "settings ping", when="after a wait", seconds=3600)
    assert answer.ephemeral
    comes = manager.ping_delay(table, seat, table.turn_timeout or manager.turn_timeout)
    assert comes == manager.turn_timeout / 2 == 60
    assert "halfway through your turn" in answer.text, answer.text
    assert f"a turn is {manager.turn_timeout} seconds" in answer.text, answer.text
    assert "pinged after 60 seconds" in answer.text, answer.text


async def test_a_wait_within_the_turn_is_answered_as_chosen(interactions: InteractionHarness):
    h = interactions
    await start_four(h)
    member, _ = to_act(h)
    answer = await h.command(member, "settings ping", when="after a wait", seconds=20)
    assert "not played after 20 seconds" in answer.text, answer.text
    assert "a turn is" not in answer.text  # nothing cuts it at the bot's turns
    default = await h.command(member, "settings ping", when="after a wait")
    assert "the table's wait (30 seconds unless it sets one)" in default.text, default.text
