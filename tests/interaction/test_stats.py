"""/leaderboard (and its page buttons), /stats, /history, /record and /admin sync, through real
interactions: results recorded by the storage layer, or by a game played through commands."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import jsonschema
import pytest

from bot.engine.egn import import_egn
from bot.storage import results
from tests.interaction.helpers import play_match, start_four, to_act
from tests.storage.builders import quick_rubber, seats
from tests.support.fake_discord import CALLBACK_DEFERRED_MESSAGE, CALLBACK_UPDATE_MESSAGE
from tests.support.interactions import InteractionHarness, enabled_ids

pytest_plugins = ["tests.support.fixtures"]

EGN_SCHEMA = json.loads(
    (Path(__file__).parents[1] / "data" / "egn" / "schemas" / "egn-schema-v1.json").read_text()
)


async def refused(h: InteractionHarness, member: str, command: str, /, **options) -> str:
    async with h.unchanged():
        exchange = await h.command(member, command, **options)
    return exchange.text.lower()


async def seed_rubbers(h: InteractionHarness) -> None:
    """Six rubbers today, recorded by the storage layer: alice and carol win one against bob
    and dave, then five more of four others each: twelve winners, two pages of ten."""
    guild = h.world.guild.id
    now = datetime.now(UTC)
    ids = [h.member(n).id for n in ("alice", "bob", "carol", "dave")]
    await quick_rubber(h.bot.db, seats(*ids), winner=0, rubber_points=(3, 0), when=now, guild=guild)
    for first in range(101, 121, 4):
        others = seats(*range(first, first + 4))
        await quick_rubber(
            h.bot.db, others, winner=first % 2, rubber_points=(2, 0), when=now, guild=guild
        )


async def won_today(h: InteractionHarness, players, rubber_points: int = 3) -> int:
    """A rubber won today by seats 0 and 2 (north–south) in the harness's server."""
    return await quick_rubber(
        h.bot.db,
        players,
        winner=0,
        rubber_points=(rubber_points, 0),
        when=datetime.now(UTC),
        guild=h.world.guild.id,
    )


# -- /leaderboard -------------------------------------------------------------------------


def ranked(text: str) -> list[str]:
    """The rows of a leaderboard message, as shown."""
    return [line for line in text.splitlines() if line.startswith("**") and "." in line.split()[0]]


async def test_leaderboard_pages_with_previous_and_next(interactions):
    h = interactions
    await seed_rubbers(h)
    exchange = await h.command("alice", "leaderboard", metric="rubbers_won")
    board, mine = exchange.messages
    assert not board.ephemeral and "Rubbers won" in board.text and "Page 1 of 2" in board.text
    # The public board names no viewer; alice's own rank is told to her alone (ties share
    # the first rank; by id, her row is on the second page).
    assert "You" not in board.text and "◀" not in board.text
    assert mine.ephemeral and mine.visible_to == h.member("alice").id
    assert "Your rank on **Rubbers won — all time**: #1 — 1 (page 2 of 2)" in mine.text
    ids = {b["label"]: b["custom_id"] for b in board.buttons}
    assert enabled_ids(board, "euchre:lb:") == [ids["Next"], ids["My rank"]]
    first_page = ranked(board.text)
    assert len(first_page) == 10
    exchange = await h.click("bob", ids["Next"], message=board.id)
    assert exchange.response_type == CALLBACK_UPDATE_MESSAGE and exchange.reply.id == board.id
    assert "Page 2 of 2" in board.text and not board.ephemeral
    # Turned by bob, the page is the same for all: no "You", no mark on bob's row.
    assert "You" not in board.text and "◀" not in board.text
    second_page = ranked(board.text)
    assert len(second_page) == 2 and not set(second_page) & set(first_page)
    ids = {b["label"]: b["custom_id"] for b in board.buttons}
    assert enabled_ids(board, "euchre:lb:") == [ids["Previous"], ids["My rank"]]
    with pytest.raises(ValueError, match="disabled"):
        await h.click("bob", ids["Next"], message=board.id)
    await h.click("erin", ids["Previous"], message=board.id)
    assert "Page 1 of 2" in board.text and ranked(board.text) == first_page
    assert "You" not in board.text and "Not on" not in board.text


async def test_my_rank_on_a_leaderboard_is_answered_privately(interactions):
    h = interactions
    await seed_rubbers(h)
    board = (await h.command("alice", "leaderboard", metric="rubbers_won")).messages[0]
    my_rank = {b["label"]: b["custom_id"] for b in board.buttons}["My rank"]
    public = board.payload()
    not_on = "You are not on **Rubbers won — all time** yet."
    for name, expected in (
        ("carol", "Your rank on **Rubbers won — all time**: #1 — 1 (page 2 of 2)."),
        ("bob", not_on),
        ("erin", not_on),
    ):
        async with h.unchanged():  # private, and the public board is as it was
            exchange = await h.click(name, my_rank, message=board.id)
        answer = exchange.reply
        assert answer.ephemeral and answer.visible_to == h.member(name).id and answer.id != board.id
        assert expected in answer.text, answer.text
    assert board.payload() == public


async def test_leaderboard_options_and_refusals(interactions):
    h = interactions
    await seed_rubbers(h)
    board, mine = (
        await h.command("erin", "leaderboard", period="7d", preset="somerset", include_bots=True)
    ).messages
    assert "the last 7 days" in board.text and "(somerset)" in board.text
    assert mine.ephemeral and "You are not on" in mine.text and "(somerset)" in mine.text
    empty = (await h.command("erin", "leaderboard", preset="jerome")).messages[0]
    assert "Nobody is on it yet" in empty.text
    assert "pages are numbered from 1" in await refused(h, "alice", "leaderboard", page=0)
    assert "page" in await refused(h, "alice", "leaderboard", page=9)
    assert "unknown leaderboard" in await refused(h, "alice", "leaderboard", metric="bogus")
    # Values outside the options' choices, as a hand-made request sends them: refused in a
    # line naming the choices, not an apology, nor a board titled with what was sent.
    for preset in ("zzz", "x" * 3000, "@everyone"):
        said = await refused(h, "alice", "leaderboard", preset=preset)
        assert "somerset, jerome, modern" in said and len(said) < 300, said
    said = await refused(h, "alice", "leaderboard", period="forever")
    assert "all, season, 30d" in said, said


# -- /stats, /history, /record ------------------------------------------------------------


async def test_stats_of_oneself_and_of_another(interactions):
    h = interactions
    await seed_rubbers(h)
    mine = (await h.command("alice", "stats")).reply
    assert not mine.ephemeral and "alice" in mine.text and "1 won of 1" in mine.text
    theirs = (await h.command("alice", "stats", member=h.member("bob"), period="30d")).reply
    assert "bob — the last 30 days" in theirs.text
    assert "no recorded games" in await refused(h, "alice", "stats", member=h.member("erin"))


async def test_stats_of_a_member_with_hints_but_no_game_yet_shows_the_hints(interactions):
    """A hint is counted for /stats as soon as it is given: before the member's first recorded
    game, /stats still says there is none, and how many hints were asked for."""
    h = interactions
    await start_four(h)
    member, _ = to_act(h)
    for _ in range(2):
        assert "The expert would" in (await h.command(member, "hint")).text
    for asker in (member.name, "erin"):
        async with h.unchanged():
            exchange = await h.command(asker, "stats", member=member)
        assert exchange.ephemeral
        whose = "You have" if asker == member.name else "That member has"
        assert exchange.text == (
            f"{whose} no recorded games on this server yet. Hints asked for, all time: 2."
        )
    # Without a hint, the sentence alone, as before; of oneself, in the second person.
    assert (await h.command("alice", "stats", member=h.member("erin"))).text == (
        "That member has no recorded games on this server yet."
    )
    assert (await h.command("erin", "stats")).text == (
        "You have no recorded games on this server yet."
    )


async def test_names_on_the_board_in_stats_and_history_are_escaped(interactions):
    """Names as members typed them format nothing, link nowhere and mention no one, on the
    public board, /stats and /history (a display name may hold a masked link)."""
    h = interactions
    ids = [h.member(n).id for n in ("alice", "bob", "carol", "dave")]
    names = ("**bold**", "[x](https://e.vil)", f"<@{ids[0]}> `tick`", "@everyone ~~s~~")
    players = tuple(replace(p, name=n) for p, n in zip(seats(*ids), names, strict=True))
    for _ in range(3):  # opponents are listed once met three times
        await won_today(h, players)
    texts = [
        (await h.command("erin", "leaderboard", metric="rubbers_won")).messages[0].text,
        (await h.command("alice", "stats")).reply.text,  # partner carol, against bob & dave
        (await h.command("bob", "history")).reply.text,
    ]
    for text in texts:
        for raw in ("**bold**", "`tick`", "~~s~~"):
            assert raw not in text, (raw, text)
        assert not re.search(r"(?<!\\)\[x\]\(", text), text  # no masked link
        assert not re.search(r"<@!?\d|@everyone", text), text
    assert r"\*\*bold\*\*" in texts[0] and r"\[x](https://e.vil)" in texts[1]
    assert "Most frequent partner" in texts[1] and "6 games" in texts[1]


async def test_stats_with_computers_counted_when_asked(interactions):
    h = interactions
    ids = [h.member(n).id for n in ("alice", "bob")] + [-1, -2]
    players = seats(*ids, bots=(-1, -2))
    await won_today(h, players)
    without = (await h.command("alice", "stats")).reply.text
    counted = (await h.command("alice", "stats", include_bots=True)).reply.text
    assert "0 won of 0" in without and "Not counted" in without
    # What was left out is shown apart, with how to count it.
    assert "played: 1 rubber, 2 games" in without and "include_bots:True" in without, without
    assert "1 won of 1" in counted and "Not counted" not in counted
    assert "leave out the period" in await refused(
        h, "alice", "stats", variant="napoleon", period="7d"
    )


async def test_a_page_button_of_a_board_that_shrank_shows_its_last_page(interactions):
    """Page 3 of 3 on view, then most of its rubbers flagged late (a substitute found to have
    played): Previous asks for page 2 of a board of one page, and shows that page."""
    h = interactions
    # Eleven rubbers, two winners each: 22 rows, 3 pages.
    rubbers = [await won_today(h, seats(*range(first, first + 4))) for first in range(101, 145, 4)]
    board = (await h.command("alice", "leaderboard", metric="rubbers_won")).messages[0]
    for _ in range(2):
        await h.click(
            "bob", {b["label"]: b["custom_id"] for b in board.buttons}["Next"], message=board.id
        )
    assert "Page 3 of 3" in board.text
    for match_id in rubbers[2:]:
        await results.flag_match(h.bot.db, match_id)
    previous = {b["label"]: b["custom_id"] for b in board.buttons}["Previous"]
    exchange = await h.click("bob", previous, message=board.id)
    assert exchange.response_type == CALLBACK_UPDATE_MESSAGE
    assert "Page 1 of 1" in board.text and len(ranked(board.text)) == 4


async def test_history_and_record_of_a_game_played_through_commands(interactions):
    h = interactions
    table = await start_four(h, points=1)
    await play_match(h)
    history = (await h.command("bob", "history")).reply
    assert not history.ephemeral and "bob's recent play" in history.text
    words = history.text.replace("*", " ").replace(",", " ").replace(";", " ").split()
    game_id = next(w for w in words if w[:1] == "G" and w[1:].isdigit())
    match_id = next(w for w in words if w[:1] == "M" and w[1:].isdigit())
    game = (await h.command("carol", "record", game_id=game_id)).reply
    assert not game.ephemeral and game.attachments
    document = json.loads(game.attachments[0].data)
    assert game.attachments[0].filename.endswith(".egn")
    assert document["metadata"]["finalScore"] == list(table.match.games[0].scores)
    rubber = (await h.command("carol", "record", game_id=match_id)).reply
    assert rubber.attachments[0].filename.endswith(".json")
    record = json.loads(rubber.attachments[0].data)
    assert record["final_score"] == list(table.match.scores) and len(record["deals"]) == len(
        table.match.deals
    )
    theirs = (await h.command("alice", "history", member=h.member("dave"))).reply
    assert "dave's recent play" in theirs.text


async def test_record_of_a_game_played_with_a_hint_says_so_in_its_egn(interactions):
    h = interactions
    table = await start_four(h, points=1)
    member, seat = to_act(h)
    assert "The expert would" in (await h.command(member, "hint")).text
    await play_match(h)
    words = (await h.command("bob", "history")).reply.text.replace("*", " ").split()
    game_id = next(w for w in words if w[:1] == "G" and w[1:].isdigit())
    game = (await h.command("carol", "record", game_id=game_id)).reply
    assert game.attachments[0].filename.endswith(".egn")
    document = json.loads(game.attachments[0].data)
    jsonschema.validate(document, EGN_SCHEMA)
    bidding = document["deals"][0]["phases"][0]
    assert bidding["callAnnotations"] == {
        "0": [f"[hint] Seat {seat} asked the bot for a hint (/hint) during this deal."]
    }
    # Only the deal that had the hint is marked, and the file replays to the game played.
    assert not any(
        key.endswith("Annotations")
        for deal in document["deals"][1:]
        for phase in deal["phases"]
        for key in phase
    )
    assert import_egn(document).final_score == table.match.games[0].scores


async def test_history_and_record_refusals(interactions):
    h = interactions
    assert "no finished" in await refused(h, "alice", "history")
    assert "no finished" in await refused(h, "alice", "history", member=h.member("bob"))
    assert "not a game" in await refused(h, "alice", "record", game_id="nonsense")
    assert "g999" in await refused(h, "alice", "record", game_id="G999")
    for typed in ("V²", "V" + "9" * 30, "V١٢"):  # no game: not a crash, nor V12
        assert "not a game" in await refused(h, "alice", "record", game_id=typed)


# -- /admin sync --------------------------------------------------------------------------


async def test_admin_sync_by_an_owner(interactions):
    h = interactions
    exchange = await h.command("owner", "admin sync")
    assert exchange.response_type == CALLBACK_DEFERRED_MESSAGE
    assert exchange.ephemeral and "Synced" in exchange.text and "(global)" in exchange.text
    synced = h.world.commands[None]
    assert f"Synced {len(synced)} commands" in exchange.text
    assert {c["name"] for c in synced} >= {"table", "hand", "play", "leaderboard", "admin"}
    assert h.calls[-2].route == f"PUT /applications/{h.world.application_id}/commands"
    exchange = await h.command("owner", "admin sync", scope="here")
    assert "(here)" in exchange.text
    assert (
        h.calls[-2].route
        == f"PUT /applications/{h.world.application_id}/guilds/{h.world.guild.id}/commands"
    )


async def test_admin_sync_is_for_owners_only(interactions):
    h = interactions
    syncs = sum(c.method == "PUT" for c in h.calls)
    assert "only the bot's owners" in await refused(h, "admin", "admin sync")
    # Discord offers /admin only to members who may manage the server ...
    with pytest.raises(PermissionError):
        await h.command("alice", "admin sync")
    # ... and a client that sends it anyway is refused by the bot.
    h.world.enforce_default_permissions = False
    assert "only the bot's owners" in await refused(h, "alice", "admin sync")
    assert sum(c.method == "PUT" for c in h.calls) == syncs
