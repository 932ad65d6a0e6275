"""/table and the table message's buttons, through real interactions: every command, and
every refusal private and changing nothing."""

from __future__ import annotations

import copy
import re

import discord
import pytest

from bot.tables.table import SEAT_NAMES
from tests.bot.helpers import eventually
from tests.interaction.helpers import (
    PLAYERS,
    act,
    close_table,
    open_hand,
    play_match,
    seat_four,
    start_four,
    to_act,
)
from tests.support.fake_discord import FakeMessage
from tests.support.interactions import InteractionHarness, enabled_ids

pytest_plugins = ["tests.support.fixtures"]


async def refused(h: InteractionHarness, member: str, command: str, /, **options) -> str:
    """Run a command that must be refused; its private answer, lower-cased."""
    async with h.unchanged():
        exchange = await h.command(member, command, **options)
    return exchange.text.lower()


async def refused_click(h: InteractionHarness, member: str, custom_id: str, /, **where) -> str:
    async with h.unchanged():
        exchange = await h.click(member, custom_id, **where)
    return exchange.text.lower()


# -- /table create ------------------------------------------------------------------------


async def test_create_with_options_seats_the_host_and_posts_the_table(interactions):
    h = interactions
    exchange = await h.command(
        "alice",
        "table create",
        preset="somerset",
        points=7,
        match="game",
        stick_the_dealer=True,
        partner_alone=False,
        defend_alone=True,
        joker=True,
        timeout=60,
    )
    assert exchange.ephemeral and "north" in exchange.text
    table = h.table()
    options = table.options
    assert (options.preset, options.points, options.is_rubber, options.joker) == (
        "somerset",
        7,
        False,
        True,
    )
    assert options.stick_the_dealer and not options.partner_alone and options.defend_alone
    assert table.turn_timeout == 60 and table.host_id == h.member("alice").id
    assert table.seat_of(h.member("alice").id) == 0
    # The public table message: the rules, the host at north, Join and Start.
    message = h.table_message()
    assert not message.ephemeral and "somerset" in message.text and "alice" in message.text
    assert "with the Joker" in message.text
    assert enabled_ids(message) == [
        f"euchre:table:{table.id}:join",
        f"euchre:table:{table.id}:start",
    ]
    stored = await h.bot.db.fetchval("SELECT COUNT(*) FROM tables WHERE status = 'open'", (), 0)
    assert stored == 1


async def test_create_defaults_to_the_bots_preset(interactions):
    h = interactions
    await h.command("alice", "table create")
    assert h.table().options.preset == h.bot.settings.default_preset


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"preset": "bogus"}, "unknown preset"),
        ({"points": 0}, "points"),
        ({"points": 101}, "points"),
        ({"match": "best of five"}, "match"),
        ({"timeout": 5}, "timeout"),
        ({"timeout": 4000}, "timeout"),
    ],
)
async def test_create_with_bad_options_is_refused(interactions, options, words):
    # Discord's client keeps choices and ranges, but a modified one need not: the bot checks.
    h = interactions
    assert words in await refused(h, "alice", "table create", **options)
    assert h.table() is None


async def test_a_second_table_in_a_channel_is_refused_but_another_channel_may_have_one(
    interactions,
):
    h = interactions
    await h.command("alice", "table create")
    assert "already has a table" in await refused(h, "bob", "table create")
    lounge = h.world.guild.channels[
        next(c for c, ch in h.world.guild.channels.items() if ch.name == "lounge")
    ]
    exchange = await h.command("bob", "table create", channel=lounge)
    assert exchange.ephemeral and h.table(lounge).host_id == h.member("bob").id
    assert h.table().host_id == h.member("alice").id
    assert h.public_messages(lounge), "the lounge's table has its own message"


# -- joining ------------------------------------------------------------------------------


async def test_join_a_named_seat_the_first_free_one_and_a_taken_one(interactions):
    h = interactions
    await h.command("alice", "table create")
    assert "south" in (await h.command("bob", "table join", seat="south")).text
    assert "east" in (await h.command("carol", "table join")).text
    assert "taken" in await refused(h, "dave", "table join", seat="south")
    assert "unknown seat" in await refused(h, "dave", "table join", seat="middle")
    assert "already belong" in await refused(h, "bob", "table join")
    table = h.table()
    assert [table.seat_of(h.member(n).id) for n in ("alice", "bob", "carol")] == [0, 2, 1]
    assert "bob" in h.table_message().text and "carol" in h.table_message().text


async def test_a_seat_taken_names_its_holder_escaped_and_mentions_no_one(interactions):
    h = interactions
    alice = h.member("alice")
    boss = h.world.add_member(h.world.guild, f"**Boss** <@{alice.id}> @everyone")
    await h.command("alice", "table create")
    await h.command(boss, "table join", seat="east")
    for command, options in (("table join", {}), ("table addbot", {"level": "easy"})):
        text = await refused(
            h, "alice" if "addbot" in command else "bob", command, seat="east", **options
        )
        assert "east is taken by" in text
        assert "**boss**" not in text and r"\*\*boss\*\*" in text
        assert not re.search(r"@(everyone|here|\d)", text)  # a zero-width space breaks each


async def test_join_button_seats_then_queues_then_refuses_a_full_table(interactions):
    h = interactions
    await h.command("alice", "table create")
    join = f"euchre:table:{h.table().id}:join"
    for name in PLAYERS[1:]:
        assert "You sit at" in (await h.click(name, join)).text
    assert "wait in line" in (await h.click("erin", join)).text
    assert "taken by “bob”" in await refused(h, "frank", "table join", seat="east")
    assert "wait in line" in (await h.command("frank", "table join")).text
    assert "full" in await refused(h, "gina", "table join")
    assert "full" in await refused_click(h, "gina", join)
    table = h.table()
    assert [o.name for o in table.waiting] == ["erin", "frank"]
    assert "Waiting: erin, frank" in h.table_message().text


async def test_commands_with_no_table_are_refused(interactions):
    h = interactions
    for command in (
        "table join",
        "table leave",
        "table start",
        "table show",
        "table close",
        "table back",
    ):
        assert "no table" in await refused(h, "alice", command)


# -- leaving ------------------------------------------------------------------------------


async def test_leave_while_seating_frees_the_seat_and_the_last_to_leave_closes_the_table(
    interactions,
):
    h = interactions
    await h.command("alice", "table create")
    await h.command("bob", "table join")
    await h.command("erin", "table join", seat="west")
    assert "left" in (await h.command("bob", "table leave")).text
    table = h.table()
    assert table.seats[1] is None and table.seat_of(h.member("bob").id) is None
    assert "not at this table" in await refused(h, "bob", "table leave")
    # The host leaving hands the table to the next member.
    await h.command("alice", "table leave")
    assert table.host_id == h.member("erin").id
    await h.command("erin", "table leave")
    assert h.table() is None
    assert (
        await h.bot.db.fetchval("SELECT status FROM tables WHERE id = ?", (table.id,)) == "closed"
    )
    assert any("everyone left" in m.text for m in h.public_messages())


async def test_leave_during_a_rubber_gives_the_seat_to_a_computer(interactions):
    h = interactions
    table = await start_four(h, preset="somerset")
    # Leave while it is not the leaver's turn, and close before a computer must think.
    member, seat = to_act(h)
    leaver_seat = (seat + 2) % 4
    leaver = h.member_at(leaver_seat)
    assert "left" in (await h.command(leaver, "table leave")).text
    assert table.seats[leaver_seat].is_bot and table.flagged
    assert "Computer" in h.table_message().text
    await close_table(h, "alice" if leaver.name != "alice" else "bob")


# -- computers and kicks -------------------------------------------------------------------


async def test_addbot_at_each_level_and_its_refusals(interactions):
    h = interactions
    await h.command("alice", "table create")
    assert "south" in (await h.command("alice", "table addbot", seat="south", level="easy")).text
    assert "east" in (await h.command("alice", "table addbot", level="standard")).text
    assert "west" in (await h.command("alice", "table addbot")).text
    table = h.table()
    assert [(o.is_bot, o.level) for o in table.seats[1:]] == [
        (True, "standard"),
        (True, "easy"),
        (True, "expert"),
    ]
    assert "every seat is taken" in await refused(h, "alice", "table addbot")
    assert "taken" in await refused(h, "alice", "table addbot", seat="north")
    assert "host" in await refused(h, "bob", "table addbot")
    assert "unknown level" in await refused(h, "alice", "table addbot", level="genius")
    # A member may take a computer's seat between rubbers.
    assert "south" in (await h.command("bob", "table join", seat="south")).text
    assert not table.seats[2].is_bot


async def test_kick_is_for_the_host_and_not_of_the_host(interactions):
    h = interactions
    await seat_four(h)
    table = h.table()
    assert "host" in await refused(h, "bob", "table kick", member=h.member("carol"))
    assert "host cannot be kicked" in await refused(
        h, "alice", "table kick", member=h.member("alice")
    )
    assert "not at this table" in await refused(h, "alice", "table kick", member=h.member("erin"))
    exchange = await h.command("alice", "table kick", member=h.member("carol"))
    assert exchange.ephemeral and "carol was removed" in exchange.text
    assert table.seat_of(h.member("carol").id) is None and table.seats[2] is None
    seats = h.table_message().text.split("At the table")[0]
    assert "carol" not in seats  # her seat is free...
    assert "carol was removed by the host." in h.table_message().text  # ...and the table says why


# -- starting -----------------------------------------------------------------------------


async def test_start_is_for_the_host_with_four_seated(interactions):
    h = interactions
    await h.command("alice", "table create")
    await h.command("bob", "table join")
    assert "four players" in await refused(h, "alice", "table start")
    await h.command("carol", "table join")
    await h.command("dave", "table join")
    assert "host" in await refused(h, "bob", "table start")
    assert "host" in await refused_click(h, "bob", f"euchre:table:{h.table().id}:start")
    exchange = await h.command("alice", "table start")
    assert exchange.ephemeral and "dealt" in exchange.text
    table = h.table()
    assert table.playing and table.match is not None
    # The cut is announced in public, and the new table message offers My hand only.
    cut = next(m.text for m in h.public_messages() if "The cut" in m.text)
    assert "deals first" in cut and "North–South:" in cut
    assert enabled_ids(h.table_message()) == [f"euchre:table:{table.id}:hand"]
    assert "already being played" in await refused(h, "alice", "table start")
    assert (
        await h.bot.db.fetchval("SELECT COUNT(*) FROM table_deals WHERE table_id = ?", (table.id,))
        == 1
    )


async def test_a_start_keeping_the_seats_says_the_cards_are_dealt_not_cut(interactions):
    """keep_seats: nobody cuts for partners, so the host is not told the cards were cut."""
    h = interactions
    table = await seat_four(h)
    exchange = await h.command("alice", "table start", keep_seats=True)
    assert exchange.ephemeral and exchange.text.startswith("The cards are dealt. Press My hand")
    assert table.playing and table.last_cut == []


async def test_start_button_deals_for_the_host(interactions):
    h = interactions
    table = await seat_four(h)
    exchange = await h.click("alice", f"euchre:table:{table.id}:start")
    assert exchange.ephemeral and "cut and dealt" in exchange.text
    assert table.playing


# -- show and close -----------------------------------------------------------------------


async def test_show_posts_the_table_message_again(interactions):
    h = interactions
    await h.command("alice", "table create")
    first = h.table_message()
    exchange = await h.command("erin", "table show")
    assert exchange.ephemeral
    second = h.table_message()
    assert second.id != first.id and second.text == first.text


async def test_close_by_the_host(interactions):
    h = interactions
    table = await start_four(h)
    asked = await h.command("alice", "table close")
    assert asked.ephemeral and "Close the table" in str(asked.reply.buttons)
    assert h.table() is table  # nothing closes before the host confirms
    assert "closed" in (await close_table(h, "alice")).text
    assert h.table() is None
    # Once the table message says so, the bot keeps nothing of the table in memory.
    await eventually(lambda: table.id not in h.bot.table_messages._locks, what="the lock dropped")
    assert table.id not in h.bot.table_messages._notes
    assert not h.bot.manager.knows(table)
    assert (
        await h.bot.db.fetchval("SELECT close_reason FROM tables WHERE id = ?", (table.id,))
        == "closed by the host"
    )
    # The match in play is recorded as abandoned.
    assert (
        await h.bot.db.fetchval("SELECT COUNT(*) FROM matches WHERE status = 'abandoned'", (), 0)
        == 1
    )


async def test_close_by_someone_who_may_manage_channels(interactions):
    h = interactions
    table = await seat_four(h)
    assert "host" in await refused(h, "bob", "table close")
    assert "closed" in (await close_table(h, "mod")).text
    assert h.table() is None
    assert (
        await h.bot.db.fetchval("SELECT close_reason FROM tables WHERE id = ?", (table.id,))
        == "closed by a moderator"
    )


async def test_a_member_who_may_manage_channels_removes_a_player_and_the_table_says_so(
    interactions,
):
    """A moderator, who may close the whole table, may also remove a disruptive player from
    it; others who are not the host are still refused, and the host still cannot be removed."""
    h = interactions
    await seat_four(h)
    table = h.table()
    base = h.world.guild.permissions_of(h.member("erin"))
    with_manage = base | discord.Permissions(manage_channels=True).value
    assert "host" in await refused(h, "bob", "table kick", member=h.member("carol"))
    assert "host cannot be kicked" in await refused(
        h, "mod", "table kick", member=h.member("alice")
    )
    exchange = await h.command(
        "erin", "table kick", member=h.member("carol"), channel_permissions=with_manage
    )
    assert exchange.ephemeral and "carol was removed" in exchange.text
    assert table.seat_of(h.member("carol").id) is None
    assert "carol was removed by a moderator." in h.table_message().text


async def test_close_follows_the_channels_permissions_not_only_the_roles(interactions):
    # Discord resolves a member's permissions in the channel (overwrites included) and sends
    # them with the interaction: Manage Channels granted on this channel only is enough, and
    # a server-wide Manage Channels denied on this channel is not.
    h = interactions
    await h.command("alice", "table create")
    base = h.world.guild.permissions_of(h.member("erin"))
    with_manage = base | discord.Permissions(manage_channels=True).value
    async with h.unchanged():
        exchange = await h.command("mod", "table close", channel_permissions=base)
    assert "host" in exchange.text.lower()
    exchange = await close_table(h, "erin", channel_permissions=with_manage)
    assert "closed" in exchange.text and h.table() is None


async def test_buttons_of_a_closed_table_answer_politely(interactions):
    h = interactions
    table = await seat_four(h)
    message = copy.deepcopy(h.table_message())  # as a client that missed the last edit sees it
    await close_table(h, "alice")
    async with h.unchanged():
        exchange = await h.click("bob", f"euchre:table:{table.id}:join", message=message)
    assert exchange.ephemeral and "closed" in exchange.text


# -- substitutes and seats held by computers ----------------------------------------------


def asking(h: InteractionHarness, member: str) -> tuple[FakeMessage, str, str]:
    """The live message asking ``member`` to take a seat, and its Take the seat and Decline
    buttons' ids."""
    who = h.member(member)
    message = next(
        m
        for m in reversed(h.public_messages())
        if any(str(c).startswith("euchre:sub:") for c in m.custom_ids)
    )
    take, decline = enabled_ids(message, "euchre:sub:")
    assert take.endswith(f":{who.id}:take") and decline.endswith(f":{who.id}:decline")
    return message, take, decline


async def test_substitute_with_the_consent_of_the_other_three(interactions):
    """The three others consent, and the member named is still not seated until she
    presses Take the seat, on the message that asked her, mentioning her alone."""
    h = interactions
    table = await start_four(h)
    erin = h.member("erin")
    exchange = await h.command("alice", "table substitute", member=erin)
    assert exchange.ephemeral and "asked to consent" in exchange.text
    assert "only once they accept" in exchange.text
    message, take, _ = asking(h, "erin")
    assert f"<@{erin.id}>" in message.text and "Take the seat" in message.text
    sent = next(c for c in h.calls if c.method == "POST" and f"<@{erin.id}>" in c.content)
    allowed = sent.message_data["allowed_mentions"]
    assert [int(u) for u in allowed["users"]] == [erin.id] and allowed["parse"] == []
    consent = f"euchre:table:{table.id}:consent:{table.substitution.number}"
    asked = copy.deepcopy(h.table_message())  # as a client that missed the next edit sees it
    assert consent in enabled_ids(asked)
    assert "other three" in await refused_click(h, "alice", consent)
    assert "other three" in await refused_click(h, "erin", consent)
    for name in ("bob", "carol", "dave"):
        assert "consent" in (await h.click(name, consent)).text
        assert table.seats[0].user_id == h.member("alice").id
    assert table.seat_of(erin.id) is None  # every consent, but Erin has not accepted
    exchange = await h.click("erin", take)
    assert exchange.ephemeral and "You play north now" in exchange.text
    assert table.seat_of(erin.id) == 0 and table.seat_of(h.member("alice").id) is None
    assert table.seats[0].substitute and table.flagged
    assert consent not in enabled_ids(h.table_message())
    assert "takes alice's seat" in h.messages[message.id].text
    assert not enabled_ids(h.messages[message.id], "euchre:sub:")
    # A click on the consent button after the substitute sat.
    assert "no substitution" in await refused_click(h, "bob", consent, message=asked)


async def test_a_substitute_asked_for_while_another_players_request_waits_says_it_replaces_it(
    interactions,
):
    """One request waits at a time: carol's replaces alice's, and carol is told whose request
    she replaced (escaped); alice asking again for her own seat is told nothing of the kind."""
    h = interactions
    table = await start_four(h)
    erin, frank = h.member("erin"), h.member("frank")
    first = await h.command("alice", "table substitute", member=erin)
    assert "replaces" not in first.text
    second = await h.command("carol", "table substitute", member=frank)
    assert second.ephemeral
    assert (
        "This replaces the request that erin take alice's seat (north), which was still waiting."
        in second.text
    )
    assert table.substitution.user_id == frank.id
    again = await h.command("carol", "table substitute", member=erin)
    assert "replaces" not in again.text


async def test_a_substitute_who_accepts_first_sits_with_the_last_consent(interactions):
    h = interactions
    table = await start_four(h)
    erin = h.member("erin")
    await h.command("bob", "table substitute", member=erin)
    _, take, _ = asking(h, "erin")
    exchange = await h.click("erin", take)
    assert "once the other players consent" in exchange.text and table.seat_of(erin.id) is None
    assert table.substitution.accepted
    for name in ("alice", "carol"):
        await h.click(name, f"euchre:table:{table.id}:consent:{table.substitution.number}")
    assert table.seat_of(erin.id) is None
    await h.click("dave", f"euchre:table:{table.id}:consent:{table.substitution.number}")
    assert table.seat_of(erin.id) == 1 and table.seats[1].substitute


async def test_a_substitute_who_declines_is_not_seated_and_the_table_is_told(interactions):
    h = interactions
    table = await start_four(h)
    erin = h.member("erin")
    await h.command("bob", "table substitute", member=erin)
    message, take, decline = asking(h, "erin")
    shown = copy.deepcopy(message)  # as a client that misses the next edit sees it
    for name in ("alice", "carol", "dave"):
        await h.click(name, f"euchre:table:{table.id}:consent:{table.substitution.number}")
    await h.click("erin", decline)
    assert table.seat_of(erin.id) is None and table.seat_of(h.member("bob").id) == 1
    assert table.substitution is None and not table.flagged
    told = h.messages[message.id]  # public: the table sees the answer
    assert not told.ephemeral and "erin declined to take bob's seat (east)" in told.text
    assert not enabled_ids(told, "euchre:sub:")
    assert "erin declined" in h.table_message().text
    assert not enabled_ids(h.table_message(), f"euchre:table:{table.id}:consent")
    # Her button, as a client that missed the edit still shows it: stale, changes nothing.
    assert "no longer open" in await refused_click(h, "erin", take, message=shown)


async def test_only_the_member_named_can_take_or_decline_the_seat(interactions):
    h = interactions
    table = await start_four(h)
    await h.command("bob", "table substitute", member=h.member("erin"))
    message, take, decline = asking(h, "erin")
    for name, button in (("bob", take), ("alice", take), ("frank", decline), ("dave", decline)):
        assert "only the member this seat was offered to" in await refused_click(
            h, name, button, message=message
        )
    assert table.substitution is not None and not table.substitution.accepted
    await h.click("erin", take)
    assert table.substitution.accepted


async def test_stale_take_the_seat_buttons_get_a_clear_answer_and_change_nothing(interactions):
    h = interactions
    table = await start_four(h)
    erin = h.member("erin")
    await h.command("bob", "table substitute", member=erin)
    first, old_take, _ = asking(h, "erin")
    first = copy.deepcopy(first)  # as a client that missed its edits sees it
    # Replaced by a newer request (Bob names Frank, then Erin again): the first message's
    # button is stale (the offer loses its buttons, but a client may press before it sees that).
    await h.command("bob", "table substitute", member=h.member("frank"))
    await h.command("bob", "table substitute", member=erin)
    second, take, _ = asking(h, "erin")
    assert second.id != first.id and take != old_take
    assert not enabled_ids(h.messages[first.id], "euchre:sub:")
    assert "replaced by a newer one" in await refused_click(h, "erin", old_take, message=first)
    for name in ("alice", "carol", "dave"):
        await h.click(name, f"euchre:table:{table.id}:consent:{table.substitution.number}")
    await h.click("erin", take)
    assert table.seat_of(erin.id) == 1
    # The seat is hers now.
    assert "already play east" in await refused_click(h, "erin", old_take, message=first)
    # The game over (a modern table plays single games): a request of it is no longer open.
    await h.command("erin", "table substitute", member=h.member("frank"))
    of_rubber, frank_take, _ = asking(h, "frank")
    of_rubber = copy.deepcopy(of_rubber)  # as a client that missed its edits sees it
    await play_match(h)
    assert not table.playing
    assert "game is over" in await refused_click(h, "frank", frank_take, message=of_rubber)
    # The table gone.
    await close_table(h, "alice")
    assert "table has closed" in await refused_click(h, "frank", frank_take, message=of_rubber)


async def test_substitute_refusals(interactions):
    h = interactions
    await seat_four(h)
    assert "between games" in await refused(h, "alice", "table substitute", member=h.member("erin"))
    await h.command("alice", "table start", keep_seats=True)
    assert "only a seated player" in await refused(
        h, "erin", "table substitute", member=h.member("frank")
    )
    assert "not already playing" in await refused(
        h, "alice", "table substitute", member=h.member("bob")
    )
    assert "name a member" in await refused(h, "alice", "table substitute", member=h.world.bot_user)


async def test_back_takes_a_seat_back_from_the_computer_holding_it(interactions):
    h = interactions
    table = await start_four(h)
    _, seat = to_act(h)
    member = h.member_at(seat)
    assert "no computer is holding" in await refused(h, member.name, "table back")
    # Two turns timed out in a row: a computer holds the seat.
    for _ in range(60):
        if table.seats[seat].is_bot:
            break
        if table.match.to_act == seat:
            await h.manager.time_out_now(table)
        else:
            await act(h)
        await h.settle()
    assert table.seats[seat].is_bot and table.seats[seat].held_for == member.id
    if table.match.to_act == seat:
        await h.settle()
    async with h.unchanged():
        exchange = await h.command(member, "pass")
    assert "use /table back" in exchange.text
    await h.settle()
    exchange = await h.command(member, "table back")
    assert exchange.ephemeral and SEAT_NAMES[seat] in exchange.text
    assert table.seat_of(member.id) == seat and table.timeouts[seat] == 0
    assert any("timed out twice" in m.text for m in h.public_messages())


# -- seats a computer holds, names that show nothing, kicks -----------------------------------


async def hold_seat(h, table, seat: int) -> None:
    """Play on, timing out the member at `seat`, until a computer holds the seat."""
    for _ in range(80):
        if table.seats[seat].is_bot:
            return
        if table.match.to_act == seat:
            await h.manager.time_out_now(table)
        else:
            await act(h)
        await h.settle()
    raise AssertionError("the seat was never held")


async def test_a_host_who_leaves_while_a_computer_holds_the_seat_hands_the_table_on(interactions):
    h = interactions
    table = await start_four(h, points=1, match="game")
    alice = h.member("alice")
    await hold_seat(h, table, 0)
    assert table.seats[0].held_for == alice.id
    assert "left" in (await h.command("alice", "table leave")).text
    assert table.host_id != alice.id and table.host_id in [m.user_id for m in table.members]
    assert "host" in (await h.command("alice", "table kick", member=h.member("bob"))).text
    assert table.seat_of(h.member("bob").id) is not None


async def test_a_member_whose_seat_a_computer_holds_is_told_how_to_get_the_hand_back(interactions):
    h = interactions
    table = await start_four(h)
    _, seat = to_act(h)
    member = h.member_at(seat)
    await hold_seat(h, table, seat)
    assert "/table back" in (await h.command(member, "hand")).text
    assert "/table back" in (await h.click(member, f"euchre:table:{table.id}:hand")).text


async def test_a_name_that_shows_nothing_never_leaves_a_field_empty(interactions):
    """A member named with an invisible mark alone (direction marks are dropped from names):
    Discord refuses an empty field, so the name reads as a member with no visible name."""
    h = interactions
    ghost = h.world.add_member(h.world.guild, "\u200e")
    await h.command("alice", "table create", preset="modern")
    await h.command("bob", "table join")
    await h.command("carol", "table join")
    await h.command(ghost, "table join")  # west
    await h.command("alice", "table start", keep_seats=True)
    table = h.table()
    while table.match.to_act != 3:
        await act(h)
    hand = await open_hand(h, h.member("bob"))
    fields = {f["name"]: f["value"] for f in hand.embeds[0]["fields"]}
    assert all(value.strip() for value in fields.values()), fields
    assert "no visible name" in fields["Waiting for"]


async def test_kicking_someone_not_at_the_table_says_so_of_them(interactions):
    h = interactions
    await seat_four(h)
    text = (await h.command("alice", "table kick", member=h.member("erin"))).text
    assert "that member is not at this table" in text.lower() and "you are not" not in text.lower()
