"""/settings ping answers what the bot will do: a wait is never longer than half the turn (so
the ping comes before a computer plays for the member), and the answer says so."""

from __future__ import annotations

from discord import app_commands

from bot.engine.deal import DISCARD
from bot.tables.manager import DEFAULT_PING_AFTER
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


async def test_every_turn_says_a_turn_ones_own_move_gives_is_pinged_after_the_wait(
    interactions: InteractionHarness,
):
    """The dealer who takes it up is to discard: his own click gave him that turn, so even on
    'every turn' its ping waits for the table's wait; the answer says so."""
    h = interactions
    table = await start_four(h)
    for name in ("alice", "bob", "carol", "dave"):
        answer = await h.command(name, "settings ping", when="every turn")
    manager = h.bot.manager
    timeout = table.turn_timeout or manager.turn_timeout
    assert manager.ping_delay(table, table.match.to_act, timeout) == 0.0
    while table.match.to_act != table.match.deal.dealer:
        assert (await h.command(to_act(h)[0], "pass")).ephemeral
    dealer, seat = to_act(h)
    await h.command(dealer, "order")
    assert table.match.to_act == seat and table.match.deal.phase == DISCARD
    assert manager.ping_delay(table, seat, timeout) == DEFAULT_PING_AFTER
    assert "the dealer who takes it up discards" in answer.text, answer.text
    assert f"after the table's wait ({DEFAULT_PING_AFTER} seconds" in answer.text, answer.text


def test_the_seconds_option_names_the_tables_wait_as_its_default(
    interactions: InteractionHarness,
):
    """/help shows this description (read from the command tree): no fixed default of 30."""
    group = interactions.bot.tree.get_command("settings")
    assert isinstance(group, app_commands.Group)
    ping = group.get_command("ping")
    assert isinstance(ping, app_commands.Command)
    seconds = next(p for p in ping.parameters if p.name == "seconds")
    assert "default: the table's wait" in seconds.description, seconds.description
    assert "default 30" not in seconds.description
