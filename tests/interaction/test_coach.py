"""/hint, /review and the Review button's grades: private, within Discord's limits, and showing
no card still hidden from the member who asked."""

from __future__ import annotations

import re

from bot.ai.coach import decisions
from bot.storage.tables import match_actors
from tests.interaction.helpers import act, close_table, start_four, to_act
from tests.support.interactions import InteractionHarness, cards_in

pytest_plugins = ["tests.support.fixtures"]

EMBED_DESCRIPTION, EMBED_FIELD, EMBED_TOTAL = 4096, 1024, 6000


async def refused(h: InteractionHarness, member, command: str, /, **options) -> str:
    async with h.unchanged():
        exchange = await h.command(member, command, **options)
    assert exchange.ephemeral
    return exchange.text.lower()


def assert_fits(message) -> None:
    """Every embed of a message within Discord's limits."""
    for embed in message.embeds:
        assert len(embed.get("description") or "") <= EMBED_DESCRIPTION
        total = len(embed.get("title") or "") + len(embed.get("description") or "")
        for f in embed.get("fields", []):
            assert len(f["value"]) <= EMBED_FIELD and len(f["name"]) <= 256
            total += len(f["name"]) + len(f["value"])
        total += len((embed.get("footer") or {}).get("text") or "")
        assert total <= EMBED_TOTAL


def visible_to(h: InteractionHarness, seat: int) -> set[str]:
    """What a seat may see of the deal in play: its hand, the turn-up, every card played."""
    deal = h.table().match.deal
    played = {c for _, trick in deal.tricks for _, c in trick} | {c for _, c in deal.trick}
    own = set(deal.hands[seat]) | ({deal.discarded} if seat == deal.dealer else set())
    return own | played | {deal.turn_up}


async def test_hint_is_private_and_shows_no_hidden_card(interactions):
    h = interactions
    await start_four(h)
    for _ in range(3):  # in the bidding, and again later
        member, seat = to_act(h)
        exchange = await h.command(member, "hint")
        reply = exchange.reply
        assert reply.ephemeral and reply.visible_to == member.id
        assert "Hint" in reply.text and "The expert would" in reply.text
        assert cards_in(reply.text) <= visible_to(h, seat), reply.text
        assert_fits(reply)
        await act(h)


async def test_hint_is_counted_in_stats(interactions):
    h = interactions
    await start_four(h)
    member, _ = to_act(h)
    await h.command(member, "hint")
    await h.command(member, "hint")
    await finish_first_deal(h)  # so that the member has a result to show
    stats = await h.command(member, "stats")
    assert "2 hints asked for" in stats.text


async def test_hint_refused_when_not_your_turn_or_not_seated(interactions):
    h = interactions
    table = await start_four(h)
    _, seat = to_act(h)
    other = h.member_at((seat + 1) % 4)
    assert "not your turn" in await refused(h, other, "hint")
    assert "not seated" in await refused(h, "erin", "hint")
    assert table.hinted == {}


async def test_hint_refused_at_a_table_without_hints(interactions):
    h = interactions
    await start_four(h, hints=False)
    member, _ = to_act(h)
    assert "without hints" in await refused(h, member, "hint")


async def test_hint_refused_with_no_table(interactions):
    assert "table" in await refused(interactions, "alice", "hint")


async def finish_first_deal(h: InteractionHarness) -> None:
    table = h.table()
    while len(table.match.deals) == 1:
        await act(h)


async def test_review_grades_the_askers_own_decisions_privately(interactions):
    h = interactions
    table = await start_four(h)
    await finish_first_deal(h)
    bob = h.member_at(1)
    exchange = await h.command(bob, "review", deal="1")
    assert all(m.ephemeral and m.visible_to == bob.id for m in exchange.messages)
    texts = [m.text for m in exchange.messages]
    assert any("Review of deal 1" in t for t in texts)
    grades = [m for m in exchange.messages if "Your decisions in deal 1" in m.text]
    assert len(grades) == 1 and "(east)" in grades[0].text
    assert_fits(grades[0])
    # Once the deal is over the review shows every hand: the grades name only east's own cards.
    dealt = set(table.match.deals[0].dealt[1])
    assert cards_in(grades[0].text) <= dealt | {table.match.deals[0].turn_up}


async def test_review_button_grades_only_a_seated_clicker(interactions):
    h = interactions
    table = await start_four(h)
    await finish_first_deal(h)
    custom_id = f"euchre:review:{table.id}:{table.match_no}:1"
    onlooker = await h.click("erin", custom_id)
    assert [m.ephemeral for m in onlooker.messages] == [True]
    assert "Review of deal 1" in onlooker.text
    player = await h.click("carol", custom_id)
    assert any("Your decisions in deal 1 (south)" in m.text for m in player.messages)
    assert all(m.ephemeral and m.visible_to == h.member("carol").id for m in player.messages)


async def test_review_refuses_a_deal_not_over_and_bad_input(interactions):
    h = interactions
    table = await start_four(h)
    assert "not over" in await refused(h, "alice", "review", deal="1")
    assert "table:match:deal" in await refused(h, "alice", "review", deal="first")
    # A match not yet played is not called an earlier one.
    later = await refused(h, "alice", "review", deal=f"{table.id}:99:1")
    assert f"has played no match 99: the match now is match {table.match_no}" in later
    assert "earlier" not in later
    # A deal never dealt is named as such, not as a deal still in play.
    for number in ("99", "0"):
        text = await refused(h, "alice", "review", deal=number)
        assert f"there is no deal {number} in this match" in text and "not over" not in text


async def test_review_of_another_tables_deal_says_where_that_table_is(interactions):
    """A deal's id names its table: asked in the wrong channel, the answer says where that
    table plays (a channel mention, which pings no one), or that this server has no such
    table, or that it closed; never that an open table has closed."""
    h = interactions
    table = await start_four(h)
    await finish_first_deal(h)
    lounge = next(c for c in h.world.guild.channels.values() if c.name == "lounge")
    own = f"{table.id}:{table.match_no}:1"
    # The channel's own table, asked from a channel without a table, then from one with its own.
    for _ in range(2):
        async with h.unchanged():
            exchange = await h.command("erin", "review", deal=own, channel=lounge)
        assert exchange.ephemeral and exchange.reply.visible_to == h.member("erin").id
        assert f"plays in <#{h.channel.id}>" in exchange.text and "closed" not in exchange.text
        if h.table(lounge) is None:
            await h.command("erin", "table create", preset="modern", channel=lounge)
    # A table open in another channel, asked from this one.
    other = h.table(lounge)
    text = await refused(h, "alice", "review", deal=f"{other.id}:{other.match_no}:1")
    assert f"plays in <#{lounge.id}>" in text and "closed" not in text
    # No table of that id on this server: one never made, and one of another server.
    elsewhere = h.world.add_guild("Other Club")
    change = await h.manager.create(elsewhere.id, h.world.snowflake(), 1, "zed")
    for table_id in (999999999999999999, change.table.id):
        text = await refused(h, "alice", "review", deal=f"{table_id}:1:1")
        assert f"this server has no table {table_id}" in text
        assert "closed" not in text and "<#" not in text
    # Only a table that closed is said to have closed.
    await close_table(h, "alice")
    text = await refused(h, "alice", "review", deal=own)
    assert "that table has closed (closed by the host): its games can be had with /record" in text


def grades_in(exchange) -> list[str]:
    return [m.text for m in exchange.messages if "Your decisions" in m.text]


def graded(text: str) -> int:
    """How many decisions a seat's grades speak of: the costly ones listed, and the others."""
    listed = sum(1 for line in text.splitlines() if line.startswith("**"))
    every = re.search(r"All (\d+) of your decisions", text)
    if every:
        return int(every.group(1))
    if "Your one decision was" in text:
        return 1
    others = re.search(r"(\d+) other decisions? as good", text)
    return listed + (int(others.group(1)) if others else 0)


async def decided_by(h: InteractionHarness, table, number: int, user_id: int) -> int:
    """The decisions (not forced) a member took in a deal, as stored."""
    actors = await match_actors(h.manager.db, table.id, table.match_no)
    before = sum(len(d.history) for d in table.match.deals[: number - 1])
    chosen = decisions(table.match, deals=[number])
    return sum(
        1
        for i, d in enumerate(chosen)
        if actors[before + i] == user_id and len(d.view.deal.legal) > 1
    )


async def finish_deal(h: InteractionHarness, number: int) -> None:
    table = h.table()
    while len(table.match.deals) == number and table.playing:
        if table.seats[table.match.to_act].is_bot:
            await h.settle()
            continue
        await act(h)
    await h.settle()


async def test_a_substitute_is_graded_on_his_own_moves_and_the_player_he_replaced_on_hers(
    interactions,
):
    """Alice makes north's first move of deal 1, then Erin substitutes for her: each is graded
    on the moves they made, whoever holds the seat when the deal is reviewed."""
    h = interactions
    table = await start_four(h)
    alice, erin = h.member("alice"), h.member("erin")
    deal = table.match.deal
    while table.match.to_act != 0:
        await act(h)
    await act(h)
    assert table.match.deal is deal
    await h.command("alice", "table substitute", member=erin)
    for name in ("bob", "carol", "dave"):
        await h.click(name, f"euchre:table:{table.id}:consent:{table.substitution.number}")
    sub = table.substitution
    await h.click(erin, f"euchre:sub:{table.id}:{table.match_no}:{sub.number}:{erin.id}:take")
    assert table.seat_of(erin.id) == 0
    await finish_deal(h, 1)
    by_alice = grades_in(await h.command(alice, "review", deal="1"))
    by_erin = grades_in(await h.command(erin, "review", deal="1"))
    alices, erins = await decided_by(h, table, 1, alice.id), await decided_by(h, table, 1, erin.id)
    north = sum(
        1 for d in decisions(table.match, deals=[1], seats=[0]) if len(d.view.deal.legal) > 1
    )
    assert graded(by_alice[0]) == alices <= 1 and graded(by_erin[0]) == erins
    assert alices + erins == north  # every decision of north's is one of theirs, once


async def test_a_computers_moves_for_a_member_who_timed_out_are_graded_as_no_ones(interactions):
    from tests.interaction.test_tables import hold_seat

    h = interactions
    table = await start_four(h, preset="modern")
    _, seat = to_act(h)
    member = h.member_at(seat)
    await hold_seat(h, table, seat)
    number = len(table.match.deals)
    await finish_deal(h, number)
    await h.command(member, "table back")
    grades = grades_in(await h.command(member, "review", deal=str(number)))
    own = await decided_by(h, table, number, member.id)
    assert (graded(grades[0]) if grades else 0) == own


async def test_whoever_takes_a_seat_after_the_match_is_not_graded_on_its_deals(interactions):
    h = interactions
    table = await start_four(h, points=1, match="game")
    while table.playing:
        await act(h)
    await h.settle()
    last = len(table.match.deals)
    await h.command("alice", "table leave")
    await h.command("erin", "table join")
    custom_id = f"euchre:review:{table.id}:{table.match_no}:{last}"
    assert not grades_in(await h.click("erin", custom_id))
    assert grades_in(await h.click("alice", custom_id))
