"""The table's messages as players read them: results, names that cannot ping, stale buttons
of an earlier rubber, a table message never ahead of what is stored, and ping settings."""

from __future__ import annotations

import asyncio
import copy

from bot.engine.deal import PLAY, HandResult
from bot.ui.embeds import outcome_text, score_text
from tests.interaction.helpers import (
    act,
    action_ids,
    close_table,
    legal,
    play_match,
    seat_four,
    start_four,
    to_act,
)
from tests.support.interactions import InteractionHarness

pytest_plugins = ["tests.support.fixtures"]


# -- how a deal ended, in words -----------------------------------------------------------------


async def test_results_name_the_makers_side_first_and_who_played_alone(interactions):
    h = interactions
    table = await start_four(h)  # alice north, bob east, carol south, dave west
    march = HandResult(0, "march", maker=1, trump="S", tricks=(0, 5), points=(0, 2))
    assert (
        outcome_text(table, march) == "**East–West** march, 5 tricks to 0: 2 points to East–West."
    )
    made = HandResult(0, "made", maker=0, trump="H", tricks=(3, 2), points=(1, 0))
    assert (
        outcome_text(table, made)
        == "**North–South** made it, 3 tricks to 2: 1 point to North–South."
    )
    # The partner took it alone from the maker (S.94): the lone player is named, not the maker.
    partner = HandResult(0, "march", maker=2, trump="D", alone=0, tricks=(5, 0), points=(4, 0))
    text = outcome_text(table, partner)
    assert text.startswith("**alice**, alone for North–South (taking it from carol), marched")
    lone_made = HandResult(0, "made", maker=3, trump="C", alone=3, tricks=(1, 4), points=(0, 1))
    assert "alone" in outcome_text(table, lone_made) and "made it, 4 tricks to 1" in outcome_text(
        table, lone_made
    )
    # Who euchred whom.
    euchred = HandResult(0, "euchred", maker=0, trump="H", tricks=(2, 3), points=(0, 2))
    assert outcome_text(table, euchred) == (
        "**East–West** euchred **North–South**, who took 2 tricks to 3: 2 points to East–West."
    )
    defended = HandResult(
        0, "euchred", maker=1, trump="S", alone=1, defender=0, tricks=(3, 2), points=(4, 0)
    )
    assert outcome_text(table, defended).startswith(
        "**alice**, defending alone for North–South, euchred **bob**, alone for East–West"
    )


async def test_the_score_is_given_for_the_game_and_the_rubber(interactions):
    h = interactions
    table = await start_four(h, preset="somerset")
    text = score_text(table.match.public_view())
    assert text == (
        "North–South 0, East–West 0 in game 1 of the rubber; games won 0–0, rubber points 0–0"
    )


# -- names mention no one ------------------------------------------------------------------------


async def test_a_name_like_everyone_pings_no_one_and_formats_nothing(interactions):
    h = interactions
    rogue = h.world.add_member(h.world.guild, "@everyone **boss**")
    await seat_four(h, preset="somerset")
    await h.command(rogue, "table join")  # five: the cut decides, and names the one out
    await h.command("alice", "table start")
    table = h.table()
    posts = [c for c in h.calls if c.method == "POST" and c.path.endswith("/messages")]
    assert posts
    for call in posts:
        assert call.body.get("allowed_mentions", {}).get("parse") == [], call.body
        assert "@everyone" not in (call.body.get("content") or "")
    cut = next(m for m in h.public_messages() if "The cut" in m.text)
    assert "@\u200beveryone \\*\\*boss\\*\\*" in cut.text
    assert table.playing


# -- a button of an earlier rubber -------------------------------------------------------------


async def test_a_button_from_the_same_deal_of_an_earlier_rubber_is_stale(interactions):
    h = interactions
    table = await start_four(h, points=1)
    member, seat = to_act(h)
    first = (await h.command(member, "hand")).reply
    stale = copy.deepcopy(first)  # deal 1 of the first match, as a client kept it
    stale_pass = action_ids(stale)["pass"]
    await play_match(h)
    assert (await h.command("alice", "table start", keep_seats=True)).ephemeral
    assert table.match_no == 2 and len(table.match.deals) == 1  # deal 1 again
    async with h.unchanged():
        exchange = await h.click(member, stale_pass, message=stale)
    assert "earlier deal" in exchange.text


# -- nothing drawn is ahead of what is stored ------------------------------------------------------


async def test_a_table_message_drawn_while_a_play_is_being_stored_never_shows_it(interactions):
    h = interactions
    table = await start_four(h, partner_alone=False)
    while table.match.deal.phase != PLAY:
        await act(h)
    member, seat = to_act(h)
    card = legal(h)[0]
    # The card's event cannot be stored (a real SQLite failure), so the play is undone.
    await h.bot.db.execute(
        "CREATE TRIGGER refuse_card BEFORE INSERT ON table_events"
        f" WHEN NEW.action = '{card}' BEGIN SELECT RAISE(ABORT, 'refused by the test'); END"
    )
    play, show = await asyncio.gather(
        h.command(member, "play", card=card), h.command("erin", "table show")
    )
    assert "could not be saved" in play.text and card in table.match.deal.hands[seat]
    assert show.ephemeral
    # The table message posted by /table show was drawn after the play was undone: the
    # harness's check of every public message finds no card still in a hand.
    assert h.leaks == []
    h.logged_errors.clear()  # the failed write is logged, as it should be
    await h.bot.db.execute("DROP TRIGGER refuse_card")


# -- ping settings -------------------------------------------------------------------------------


async def test_a_members_own_ping_setting_is_stored_and_wins_over_the_tables(interactions):
    h = interactions
    table = await start_four(h, ping="every turn")
    member, seat = to_act(h)
    manager = h.bot.manager
    assert manager.ping_delay(table, seat, 120) == 0.0
    answer = await h.command(member, "settings ping", when="after a wait", seconds=20)
    assert answer.ephemeral and "20 seconds" in answer.text
    assert manager.ping_delay(table, seat, 120) == 20.0
    assert manager.ping_delay(table, seat, 30) == 15.0  # never later than half the turn
    await h.command(member, "settings ping", when="never")
    assert manager.ping_delay(table, seat, 120) is None
    stored = await h.bot.db.fetchall("SELECT user_id, ping FROM member_settings")
    assert [(r[0], r[1]) for r in stored] == [(member.id, "never")]
    refused = await h.command(member, "settings ping", when="never", seconds=10)
    assert refused.ephemeral and "after a wait" in refused.text
    assert manager.pings[member.id] == ("never", None)


async def test_a_closed_table_message_keeps_no_button(interactions: InteractionHarness):
    h = interactions
    await seat_four(h)
    message = h.table_message()
    await close_table(h, "alice")
    closed = h.messages[message.id]
    assert "closed" in closed.text and not closed.buttons


# -- one and many ------------------------------------------------------------------------------


def test_stats_say_one_march_and_two_marches():
    from bot.storage.player_stats import PlayerStats, Totals
    from bot.ui.stats import stats_embed

    def shown(**counts) -> str:
        stats = PlayerStats(
            1, 2, "ann", "all", None, False, Totals(**counts), Totals(), None, None, ()
        )
        embed = stats_embed(stats, "ann")
        return "\n".join(f.value or "" for f in embed.fields)

    one = shown(hands_played=1, points=1, marches=1, euchres_inflicted=1, euchres_suffered=1)
    assert "1 point scored, 1 march" in one and "1 euchre inflicted" in one and "1 time" in one
    many = shown(hands_played=9, points=4, marches=2, euchres_inflicted=3, euchres_suffered=2)
    assert "4 points scored, 2 marches" in many and "3 euchres inflicted" in many


async def test_the_close_is_announced_with_who_closed_it(interactions):
    h = interactions
    await seat_four(h)
    await close_table(h, "alice")
    assert any("The table is closed (closed by the host)." in m.text for m in h.public_messages())
