"""A table against a member who tries to break it: hand-made button ids and option values,
presses from the wrong place, bursts of the same press, and a line that must move up. Each
gets a clear private answer and changes nothing it should not."""

from __future__ import annotations

import copy
from typing import Any

from tests.interaction.helpers import close_table, open_hand, seat_four, start_four, to_act
from tests.support.fake_discord import INTERACTION_AUTOCOMPLETE, INTERACTION_COMMAND, FakeMessage
from tests.support.interactions import Exchange, InteractionHarness, enabled_ids

pytest_plugins = ["tests.support.fixtures"]


def seat_names(h: InteractionHarness) -> list[str | None]:
    table = h.table()
    assert table is not None
    return [o.name if o else None for o in table.seats]


# -- the line moves up ------------------------------------------------------------------------


async def test_a_seat_freed_while_seating_goes_to_the_first_in_line(interactions):
    """Bob left a full table with Erin and Frank waiting: his seat stayed empty, Start said
    four must sit, and Join told Erin she belonged already, so the table could not start
    (and a newcomer's join would have taken the seat before her)."""
    h = interactions
    table = await seat_four(h)
    for name in ("erin", "frank"):
        assert "wait in line" in (await h.command(name, "table join")).text
    await h.command("bob", "table leave")
    assert seat_names(h) == ["alice", "erin", "carol", "dave"]
    assert [o.name for o in table.waiting] == ["frank"]
    assert "bob left: erin, first in line, sits at east." in h.table_message().text
    stored = await h.bot.db.fetchval("SELECT state FROM tables WHERE id = ?", (table.id,), "")
    assert '"erin"' in stored
    # A member the host removes gives his seat to the line too.
    await h.command("alice", "table kick", member=h.member("dave"))
    assert seat_names(h) == ["alice", "erin", "carol", "frank"] and not table.waiting
    started = await h.command("alice", "table start")
    assert table.playing, started.text


async def test_a_table_stored_with_a_free_seat_and_a_line_still_starts(interactions):
    h = interactions
    table = await seat_four(h)
    await h.command("erin", "table join")
    async with h.bot.manager.lock_for(table):  # as a table stored before the line moved up
        table.seats[1] = None
    await h.command("alice", "table start", keep_seats=True)
    assert table.playing and seat_names(h) == ["alice", "erin", "carol", "dave"]


# -- hand-made button ids -----------------------------------------------------------------------


def forged_on(message: FakeMessage, custom_id: str) -> FakeMessage:
    """The message as a member's hand-made request would carry it: its first button's id
    replaced by ``custom_id`` (discord.py routes a click by the id on the message sent)."""
    forged = copy.deepcopy(message)
    button = next(iter(forged.all_components()))
    while "custom_id" not in button:
        button = button["components"][0]
    button["custom_id"] = custom_id
    button.pop("disabled", None)
    return forged


async def test_hand_and_close_ids_forged_onto_the_table_message_redraw_nothing_public(
    interactions,
):
    """A hand's button answers by redrawing the message clicked, as a hand is its member's
    own: one forged onto the public table message drew the member's cards over it, for the
    channel to read; a close question's button forged there replaced the table message."""
    h = interactions
    table = await start_four(h)
    t, m, d = table.id, table.match_no, len(table.match.deals)
    for custom_id in (
        f"euchre:act:{t}:JH",  # a hand button of an old format: always stale
        f"euchre:hand:{t}:{m}:{d + 1}:JH",  # of a deal not dealt
        f"euchre:hand:{t}:{m}:{d}:{table.match.deal.hands[1][0]}",  # a card bob holds
        f"euchre:hand:{t}:{m}:{d}:{'Z' * 60}",  # no action at all
        f"euchre:close:{t}:{m}:no",
        f"euchre:close:{t}:{m}:yes",
        f"euchre:close:{t + 1}:yes",  # another table's
    ):
        async with h.unchanged():
            exchange = await h.click(
                "alice", custom_id, message=forged_on(h.table_message(), custom_id)
            )
        assert exchange.ephemeral and exchange.reply.visible_to == h.member("alice").id
        assert h.table_message().buttons[0]["custom_id"] == f"euchre:table:{t}:hand"
    assert not h.leaks


async def test_a_review_id_with_a_number_no_table_has_is_answered_not_logged(interactions):
    h = interactions
    table = await start_four(h)
    huge = "9" * 40
    for custom_id in (f"euchre:review:{huge}:1:1", f"euchre:review:{table.id + 1}:1:1"):
        async with h.unchanged():
            exchange = await h.click(
                "erin", custom_id, message=forged_on(h.table_message(), custom_id)
            )
        assert exchange.text.startswith("This server has no table "), exchange.text


# -- options of another type than the command's -------------------------------------------------


async def command_sent_as(
    h: InteractionHarness, who: str, name: str, options: dict[str, Any], **sent: Any
) -> Exchange:
    """``who`` runs ``/name`` with ``options``, the values of ``sent`` then put in the request
    as a request made by hand may carry them (another type than the option's)."""
    member = h.member(who)
    data = h.world._command_data(member, h.channel, name, options, focused=None)
    node = data
    while node["options"] and node["options"][0]["type"] in (1, 2):
        node = node["options"][0]
    for option in node["options"]:
        if option["name"] in sent:
            option["value"] = sent[option["name"]]
    exchange = h._exchange(INTERACTION_COMMAND, member, h.channel, data)
    await h._run_tree(exchange)
    return exchange


async def test_an_option_sent_as_another_type_is_refused_naming_it(interactions):
    """A text for a whole number failed in the command (an apology, an error logged); 1.5 was
    taken for a number of points and "no" for true; a member option's id that is no id, or
    names no one picked, failed in discord.py or the command."""
    h = interactions
    for options, sent, words in (
        ({"points": 5}, {"points": "abc"}, "Option 'points' takes a whole number"),
        ({"points": 5}, {"points": 5.5}, "Option 'points' takes a whole number"),
        ({"timeout": 60}, {"timeout": True}, "Option 'timeout' takes a whole number"),
        ({"hints": True}, {"hints": "no"}, "Option 'hints' is true or false"),
        ({"preset": "modern"}, {"preset": ["modern"]}, "Option 'preset' takes a text"),
    ):
        async with h.unchanged():
            exchange = await command_sent_as(h, "alice", "table create", options, **sent)
        assert exchange.ephemeral and exchange.text == words, exchange.text
    await seat_four(h)
    for sent_id in ("bob", "123", 5):
        async with h.unchanged():
            exchange = await command_sent_as(
                h, "alice", "table kick", {"member": h.member("bob")}, member=sent_id
            )
        assert exchange.text == "Option 'member' takes a member picked from the list"
    # What Discord's client sends is taken as before.
    assert "was removed" in (await h.command("alice", "table kick", member=h.member("bob"))).text


# -- a table closed, or playing elsewhere ---------------------------------------------------------


async def test_a_closed_tables_hand_and_buttons_say_why_it_closed(interactions):
    """A hand open when its table closed said only "the table has closed", and so did every
    button of it pressed later: the players who did not close it never learned why."""
    h = interactions
    table = await start_four(h)
    player, _ = to_act(h)
    hand = await open_hand(h, player)
    seen_hand = copy.deepcopy(hand)
    seen_table = copy.deepcopy(h.table_message())
    await close_table(h, "alice")
    assert h.table() is None
    assert h.messages[hand.id].text == (
        "This hand is closed: the table has closed (closed by the host)."
    )
    async with h.unchanged():
        pressed = await h.click(player, enabled_ids(seen_hand)[0], message=seen_hand)
    assert pressed.text == (
        "That table has closed (closed by the host): this button is no longer in use."
    )
    async with h.unchanged():
        pressed = await h.click("carol", f"euchre:table:{table.id}:hand", message=seen_table)
    assert pressed.text == (
        "That table has closed (closed by the host): start a new one with /table create."
    )


async def test_a_tables_button_pressed_in_another_channel_says_where_it_plays(interactions):
    """A table's button pressed where that table is not (a copy of its message elsewhere) was
    answered that the table had closed, while it played on in its own channel."""
    h = interactions
    table = await start_four(h)
    lounge = next(c for c in h.world.guild.channels.values() if c.name == "lounge")
    elsewhere = copy.deepcopy(h.table_message())
    elsewhere.channel_id = lounge.id
    async with h.unchanged():
        pressed = await h.click("bob", f"euchre:table:{table.id}:hand", message=elsewhere)
    assert pressed.ephemeral
    assert pressed.text == f"That table plays in <#{h.channel.id}>: use its buttons there."


async def test_an_autocomplete_with_a_member_picked_is_answered_as_discord_sends_it(interactions):
    """Discord sends an autocomplete with what is typed so far and no member picked with it
    (only the id): the option check is for commands run, not for their autocompletes."""
    h = interactions
    await h.command("owner", "league create", name="Club", preset="modern")
    member = h.member("alice")
    options = {"league": "Cl", "partner": h.member("bob")}
    data = h.world._command_data(member, h.channel, "fixtures register", options, focused="league")
    data.pop("resolved")
    exchange = h._exchange(INTERACTION_AUTOCOMPLETE, member, h.channel, data)
    await h._run_tree(exchange)
    assert [c["value"] for c in exchange.choices or []] == ["Club"]


def select_forged_on(message: FakeMessage, custom_id: str, value: str) -> FakeMessage:
    """The message with a select menu ``custom_id`` offering ``value`` in place of its first
    row, as a hand-made request would carry it."""
    forged = copy.deepcopy(message)
    forged.components[0]["components"] = [
        {"type": 3, "custom_id": custom_id, "options": [{"label": value, "value": value}]}
    ]
    return forged


async def test_a_board_help_or_offer_control_forged_onto_the_table_message_leaves_it(
    interactions,
):
    """A leaderboard's Next, /help's menu and a substitute's Decline each redraw the message
    they are on. Forged onto the public table message, each replaced it (a board, a help page,
    "erin declined ...") and took its buttons away: each is now answered privately."""
    h = interactions
    table = await start_four(h)
    erin = h.member("erin")
    await h.command("alice", "table substitute", member=erin)
    number = table.substitution.number
    forged = [
        ("dave", "euchre:lb:rubbers_won:all::0:1:next", None),
        ("dave", "euchre:help", "leagues"),
        ("erin", f"euchre:sub:{table.id}:{table.match_no}:{number}:{erin.id}:decline", None),
    ]
    for member, custom_id, value in forged:
        before = h.table_message()
        if value is None:
            message = forged_on(before, custom_id)
            exchange = await h.click(member, custom_id, message=message)
        else:
            message = select_forged_on(before, custom_id, value)
            exchange = await h.click(member, custom_id, message=message, values=[value])
        assert exchange.ephemeral, (custom_id, exchange.text)
        after = h.table_message()
        assert after.text == before.text and after.components == before.components, custom_id
    assert table.substitution is not None and table.substitution.number == number
