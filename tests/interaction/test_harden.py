"""A table against members who are not what a command expects: someone who left the server
named in a member option, and the like. Each is answered privately, clearly, and changes
nothing it should not."""

from __future__ import annotations

import copy
from typing import Any

import discord

from tests.interaction.helpers import seat_four, start_four
from tests.interaction.test_tables import hold_seat
from tests.support.fake_discord import INTERACTION_COMMAND, FakeHTTPError, FakeMember
from tests.support.interactions import Exchange, InteractionHarness, enabled_ids

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


async def test_the_host_removes_a_player_who_left_the_server(interactions):
    h = interactions
    table = await start_four(h)
    bob = h.member("bob")
    seat = table.seat_of(bob.id)
    exchange = await naming_one_who_left(h, "alice", "table kick", "member", bob)
    assert exchange.ephemeral
    assert "was removed from the table" in exchange.text, exchange.text
    assert table.seat_of(bob.id) is None and table.seats[seat].is_bot
    kicks = await h.bot.db.fetchval(
        "SELECT COUNT(*) FROM table_events WHERE action = ?", (f"kick:{bob.id}",), 0
    )
    assert kicks == 1


async def test_a_substitute_who_left_the_server_is_refused_saying_so(interactions):
    h = interactions
    await start_four(h)
    async with h.unchanged():
        exchange = await naming_one_who_left(
            h, "bob", "table substitute", "member", h.member("erin")
        )
    assert "erin" in exchange.text and "not a member of this server" in exchange.text
    assert "something went wrong" not in exchange.text.lower()


async def test_any_member_option_naming_one_who_left_is_refused_not_logged_as_a_bug(interactions):
    h = interactions
    exchange = await naming_one_who_left(
        h, "alice", "fixtures register", "partner", h.member("bob"), league="none"
    )
    assert exchange.ephemeral
    assert exchange.text.startswith("“bob” is not a member of this server"), exchange.text


async def test_admin_sync_of_a_scope_it_does_not_know_syncs_nothing_and_says_so(interactions):
    """Discord offers global and here only in its own client: any other text (a typo, a long
    paste) once published to every server, taking up to an hour, and echoed the text as typed."""
    h = interactions
    puts = sum(c.method == "PUT" for c in h.calls)
    for scope in ("Here", " here", "@everyone **x**", "W" * 3000):
        exchange = await h.command("owner", "admin sync", scope=scope)
        assert exchange.ephemeral and len(exchange.text) <= 2000
        assert exchange.text.startswith("Unknown scope"), exchange.text
        assert "choose global or here" in exchange.text and "@everyone" not in exchange.text
    assert sum(c.method == "PUT" for c in h.calls) == puts


async def test_naming_a_member_whose_seat_a_computer_holds_quotes_his_name_escaped(interactions):
    h = interactions
    marked = h.world.add_member(h.world.guild, "__dan__ <#1>")
    await h.command("alice", "table create", preset="modern")
    for who in ("bob", "carol", marked):
        await h.command(who, "table join")
    await h.command("alice", "table start", keep_seats=True)
    table = h.table()
    await hold_seat(h, table, 3)
    async with h.unchanged():
        exchange = await h.command("bob", "table substitute", member=marked)
    assert "computer is holding" in exchange.text, exchange.text
    assert "\\_\\_dan\\_\\_" in exchange.text and "<#1>" not in exchange.text


async def test_asking_the_same_substitute_again_pings_no_one_and_keeps_the_consents(interactions):
    """A request the same as the one waiting once posted a new offer, pinging the member named
    again (as often as the player liked), and set aside the consents given."""
    h = interactions
    table = await start_four(h)
    erin = h.member("erin")
    await h.command("bob", "table substitute", member=erin)
    await h.click("alice", f"euchre:table:{table.id}:consent:{table.substitution.number}")
    pings = [m for m in h.public_messages() if f"<@{erin.id}>" in m.text]
    assert len(pings) == 1
    async with h.unchanged():
        exchange = await h.command("bob", "table substitute", member=erin)
    assert exchange.text == (
        "You have asked “erin” already, and the request still waits for their answer on the"
        " offer in this channel and the other players' consent"
    )
    assert table.substitution.approvals == {h.member("alice").id}
    # Someone else may still be asked instead.
    assert "frank" in (await h.command("bob", "table substitute", member=h.member("frank"))).text


async def command_in_a_dm(h: InteractionHarness, who: str, name: str, **options: Any) -> Exchange:
    """``who`` runs ``/name`` in a DM with the bot, as a client with the commands of an older
    sync could: no server, no member, the bot allowed to post."""
    member = h.member(who)
    data = h.world._command_data(member, h.channel, name, options, focused=None)
    data.pop("guild_id", None)
    exchange = h._exchange(INTERACTION_COMMAND, member, h.channel, data)
    payload = exchange.payload
    user = payload.pop("member")["user"]
    for key in ("guild_id", "guild"):
        payload.pop(key)
    payload.update(
        user=user,
        channel_id="999",
        channel={"id": "999", "type": 1, "recipients": [user]},
        app_permissions=str(
            discord.Permissions.text().value | discord.Permissions(view_channel=True).value
        ),
        context=1,
    )
    await h._run_tree(exchange)
    return exchange


async def test_a_table_create_sent_from_a_dm_is_refused_saying_where_it_works(interactions):
    h = interactions
    async with h.unchanged():
        exchange = await command_in_a_dm(h, "alice", "table create")
    assert exchange.text == "This works in a server, not in direct messages"


async def test_a_consent_drawn_for_a_request_replaced_since_consents_to_no_one(interactions):
    """Bob asks for Erin, then for Frank instead: Alice's Consent to substitute, pressed on the
    message as she saw it (naming Erin), once counted for Frank, whom she never saw named."""
    h = interactions
    table = await start_four(h)
    await h.command("bob", "table substitute", member=h.member("erin"))
    seen = copy.deepcopy(h.table_message())  # as a client that missed the next edit sees it
    for_erin = f"euchre:table:{table.id}:consent:{table.substitution.number}"
    await h.command("bob", "table substitute", member=h.member("frank"))
    async with h.unchanged():
        exchange = await h.click("alice", for_erin, message=seen)
    assert exchange.text.startswith("That button was drawn for an earlier request"), exchange.text
    assert "“frank” is asked now to take “bob”'s seat" in exchange.text
    assert table.substitution.approvals == set()
    # The button as drawn now consents to Frank; one drawn before buttons named their request
    # consents to the request waiting, as it always did.
    now = f"euchre:table:{table.id}:consent:{table.substitution.number}"
    assert "frank" in (await h.click("alice", now)).text
    old = copy.deepcopy(h.table_message())
    for component in old.all_components():
        if component.get("custom_id") == now:
            component["custom_id"] = f"euchre:table:{table.id}:consent"  # type: ignore[index]
    exchange = await h.click("carol", f"euchre:table:{table.id}:consent", message=old)
    assert "frank" in exchange.text
    assert table.substitution.approvals == {h.member("alice").id, h.member("carol").id}


async def test_a_command_discord_still_shows_but_the_bot_dropped_is_answered_not_logged(
    interactions,
):
    h = interactions
    member = h.member("alice")
    for renamed in ("name", "subcommand"):
        data = h.world._command_data(member, h.channel, "table join", {}, focused=None)
        if renamed == "name":
            data.update(name="euchre", id="12345")
        else:
            data["options"][0]["name"] = "sit"
        exchange = h._exchange(INTERACTION_COMMAND, member, h.channel, data)
        async with h.unchanged():
            await h._run_tree(exchange)
        assert exchange.ephemeral and exchange.text.startswith("The bot has no such command now")


async def test_the_same_substitute_is_asked_again_when_the_offer_could_not_be_posted(interactions):
    """An offer Discord refused to post (or one from before a restart, which keeps no offer in
    mind) is not in the channel: asking the same member again posts it, rather than pointing
    to an offer nobody can see."""
    h = interactions
    table = await start_four(h)
    erin = h.member("erin")
    answer_http = h._answer_http

    def refuse_the_offer(method: str, path: str, body: Any, files: Any) -> Any:
        if method == "POST" and f"<@{erin.id}>" in str((body or {}).get("content")):
            raise FakeHTTPError(500, 0, "Internal Server Error")
        return answer_http(method, path, body, files)

    h._answer_http = refuse_the_offer  # type: ignore[method-assign]
    await h.command("bob", "table substitute", member=erin)
    h._answer_http = answer_http  # type: ignore[method-assign]
    assert table.substitution is not None and not h.bot.table_messages.offer_shown(
        table, table.substitution.number
    )
    h.errors.clear()
    h.logged_errors.clear()
    exchange = await h.command("bob", "table substitute", member=erin)
    assert "is asked to take your seat" in exchange.text, exchange.text
    assert [m for m in h.public_messages() if f"<@{erin.id}>" in m.text]
    # Shown now: asking once more is refused, as it pings her again.
    assert "asked “erin” already" in (await h.command("bob", "table substitute", member=erin)).text


async def test_closing_with_a_question_asked_before_the_rubber_began_asks_again(interactions):
    """The question asked while seating warns of no game in play; pressed once one is, it once
    ended that game unfinished without a word."""
    h = interactions
    table = await seat_four(h)
    asked = await h.command("alice", "table close")
    assert "ends unfinished" not in asked.text
    yes = next(c for c in enabled_ids(asked.reply, "euchre:close:") if c.endswith(":yes"))
    await h.command("alice", "table start", keep_seats=True)
    assert table.playing
    async with h.unchanged():
        again = await h.click("alice", yes, message=asked.reply.id)
    text = h.messages[asked.reply.id].text
    assert again.ephemeral and text.startswith("A game has begun since you asked."), text
    assert "The game in play ends unfinished" in text
    now = next(c for c in enabled_ids(h.messages[asked.reply.id], "euchre:close:") if "yes" in c)
    assert now != yes
    await h.click("alice", now, message=asked.reply.id)
    assert h.table() is None
