"""/help and /rules through the real command tree: private answers within Discord's limits, the
commands as clickable mentions, and each rule explained for the channel's table (its preset
and options) or, with no table, for the bot's default preset."""

from __future__ import annotations

import re

import pytest
from discord import app_commands

from bot.ui.guide import (
    DESCRIPTION_LIMIT,
    EMBED_LIMIT,
    FIELD_LIMIT,
    FIELDS_LIMIT,
    TOPICS,
    CommandLine,
    help_embed,
)
from tests.support.interactions import InteractionHarness

pytest_plugins = ["tests.support.fixtures"]

LAW = re.compile(r"\b[SJ]\.\s?\d")


def commands_of(h: InteractionHarness) -> list[app_commands.Command]:
    return [c for c in h.bot.tree.walk_commands() if isinstance(c, app_commands.Command)]


def synced_id(h: InteractionHarness, name: str) -> int:
    """The id the server gave a command (by its top-level name) at the bot's sync."""
    base = name.split()[0]
    return next(int(c["id"]) for c in h.world.synced_commands(h.world.guild) if c["name"] == base)


async def private_reply(h: InteractionHarness, member: str, command: str, **options) -> str:
    exchange = await h.command(member, command, **options)
    reply = exchange.reply
    assert reply.ephemeral and reply.visible_to == h.member(member).id, reply.text
    return reply.text


# -- /help ----------------------------------------------------------------------------------


async def test_help_explains_a_deal_and_lists_every_command_as_a_mention(interactions):
    h = interactions
    exchange = await h.command("alice", "help")
    reply = exchange.reply
    assert reply.ephemeral and reply.visible_to == h.member("alice").id
    (embed,) = reply.embeds
    # How a deal goes: the deal, both rounds of making trump, the discard, the play, scoring.
    for words in (
        "The deal.",
        "first round",
        "second round",
        "The discard.",
        "The play.",
        "Scoring.",
        "right bower",
        "left bower",
    ):
        assert words in embed["description"], words
    groups = [f["name"] for f in embed["fields"]]
    for group in ("Table", "Playing", "Records and leaderboards", "Admin"):
        assert group in groups
    listed = "\n".join(f["value"] for f in embed["fields"])
    for command in commands_of(h):
        name = command.qualified_name
        assert f"</{name}:{synced_id(h, name)}>" in listed, name
    # Commands are grouped where they belong.
    fields = {f["name"]: f["value"] for f in embed["fields"]}
    assert "</play:" in fields["Playing"] and "</table create:" in fields["Table"]
    assert "</leaderboard:" in fields["Records and leaderboards"]
    assert "</admin sync:" in fields["Admin"]
    assert "`card`" in fields["Playing"]  # what a member must give


async def test_help_writes_plain_commands_where_their_ids_are_unknown(interactions):
    h = interactions
    h.bot.tree.command_ids.clear()  # as after a restart with no sync yet
    text = await private_reply(h, "bob", "help")
    assert "</" not in text
    assert "/play `card`" in text and "/table create" in text


def test_help_embed_keeps_within_discords_limits_however_many_commands():
    lines = [
        CommandLine(f"Group {g}", f"command{g}{i} sub", ("argument",), "d" * 100)
        for g in range(3)
        for i in range(25)
    ]
    embed = help_embed(lines, lambda name: f"</{name}:{'9' * 19}>")
    assert len(embed.description) <= DESCRIPTION_LIMIT
    assert len(embed.fields) <= FIELDS_LIMIT
    assert all(len(f.value) <= FIELD_LIMIT for f in embed.fields)
    assert len(embed) <= EMBED_LIMIT
    assert embed.fields[0].name == "Group 0" and embed.fields[1].name == "Group 0 (more)"


def test_help_embed_cuts_descriptions_before_it_leaves_a_command_out():
    lines = [CommandLine("Group", f"command{i} sub", ("argument",), "d" * 100) for i in range(60)]
    embed = help_embed(lines, lambda name: f"</{name}:{'9' * 19}>")
    listed = "\n".join(f.value for f in embed.fields)
    assert all(f"</command{i} sub:" in listed for i in range(60))
    assert len(embed) <= EMBED_LIMIT and "d" * 100 not in listed  # shortened, not left out
    few = help_embed(lines[:5])
    assert "d" * 100 in few.fields[0].value  # whole when they fit


async def test_command_descriptions_are_plain_words(interactions):
    """What Discord's picker shows: no law numbers (those are for /rules), within 100 characters."""
    h = interactions
    texts = []
    for command in h.bot.tree.walk_commands():
        texts.append(command.description)
        if isinstance(command, app_commands.Command):
            texts += [p.description for p in command.parameters]
    for text in texts:
        assert text and len(text) <= 100, text
        assert not LAW.search(text), text


# -- /rules ---------------------------------------------------------------------------------

# For each preset, what each topic must say at its table: the preset's own numbers and choices.
AT_TABLE = {
    "somerset": {
        "bowers": ["ace, king, queen, ten, nine, eight, seven", "There is no Joker here."],
        "order-up": ["assists", "takes it up", "any card but the turn-up itself (S.88)"],
        "discard": ["the turn-up itself cannot be the discard (S.88)"],
        "next": ["counts as a pass", "making it next", "passes to the left (S.77)"],
        "stick-the-dealer": ["Stick the dealer is off here"],
        "alone": ["4 points for all five tricks", "the adversaries score 4 points"],
        "partner-alone": ["On here.", "I take it from you"],
        "defend-alone": ["Off here"],
        "joker": ["There is no Joker here: the pack is 32 cards, ace down to seven."],
        "scoring": ["A game is 5 points", "a rubber of three games"],
        "lap": ["Lap is on here", "5 that win a game", "a fourth is played"],
        "double-game": ["On here: a game counts two"],
        "rubber": ["at most 10 rubber points"],
    },
    "jerome": {
        "bowers": ["ace, king, queen, ten, nine, eight, seven"],
        "order-up": ["any card, the turn-up too"],
        "discard": ["may discard any card, the turn-up too"],
        "next": ["passes to the left (S.77)"],
        "stick-the-dealer": ["Stick the dealer is off here"],
        "alone": ["4 points for all five tricks", "the adversaries score 4 points"],
        "partner-alone": ["On here."],
        "defend-alone": ["Off here"],
        "joker": ["the pack is 32 cards"],
        "scoring": ["A game is 5 points", "A match here is a single game."],
        "lap": ["Lap is off here"],
        "double-game": ["There are no rubbers here"],
        "rubber": ["a single game of 5 points, not a rubber"],
    },
    "modern": {
        "bowers": ["ace, king, queen, ten, nine. The other suit"],
        "order-up": ["any card, the turn-up too"],
        "discard": ["may discard any card"],
        "next": ["with stick the dealer, he must name a suit"],
        "stick-the-dealer": ["Stick the dealer is on here"],
        "alone": ["4 points for all five tricks", "the adversaries score 2 points"],
        "partner-alone": ["Off here: only the player who makes the trump may play alone"],
        "defend-alone": ["Off here"],
        "joker": ["the pack is 24 cards, ace down to nine"],
        "scoring": ["A game is 10 points", "A match here is a single game."],
        "lap": ["Lap is off here"],
        "double-game": ["There are no rubbers here"],
        "rubber": ["a single game of 10 points"],
    },
}


def assert_cites_its_law(text: str, topic) -> None:
    if topic.laws:
        assert f": {topic.laws}." in text, (topic.key, text)
    else:
        assert "No law: a modern rule" in text, (topic.key, text)


@pytest.mark.parametrize("preset", sorted(AT_TABLE))
async def test_rules_follow_the_tables_preset(interactions, preset):
    h = interactions
    await h.command("alice", "table create", preset=preset)
    # No topic: the index of every topic, with what this table turns on or off.
    index = await private_reply(h, "bob", "rules")
    for topic in TOPICS:
        assert topic.title in index
    assert f"This table plays by the {preset} preset" in index
    assert "Lap** (S.1): " + ("on here" if preset == "somerset" else "off here") in index
    for topic in TOPICS:
        text = await private_reply(h, "bob", "rules", topic=topic.key)
        assert text.startswith(topic.title), text
        assert_cites_its_law(text, topic)
        for words in AT_TABLE[preset][topic.key]:
            assert words in text, (topic.key, words, text)
    assert set(AT_TABLE[preset]) == {t.key for t in TOPICS}


async def test_rules_follow_the_tables_own_options(interactions):
    h = interactions
    await h.command(
        "alice",
        "table create",
        preset="modern",
        points=7,
        stick_the_dealer=False,
        joker=True,
        defend_alone=True,
        partner_alone=True,
    )
    index = await private_reply(h, "carol", "rules")
    assert "with some options of its own" in index
    assert "Stick the dealer** (a modern rule): off here" in index
    expected = {
        "scoring": "A game is 7 points",
        "stick-the-dealer": "Stick the dealer is off here",
        "joker": "The Joker is in the pack here (25 cards)",
        "bowers": "The Joker is in the pack here",
        "defend-alone": "his side scores 4 points",
        "partner-alone": "On here.",
        "alone": "One adversary may defend alone",
        "rubber": "a single game of 7 points",
    }
    for key, words in expected.items():
        assert words in await private_reply(h, "carol", "rules", topic=key), key


async def test_rules_with_no_table_explain_the_default_preset(interactions):
    h = interactions
    index = await private_reply(h, "dave", "rules")
    assert "There is no table in this channel" in index
    assert "default rules: the somerset preset" in index
    for key, words in AT_TABLE["somerset"].items():
        text = await private_reply(h, "dave", "rules", topic=key)
        assert "There is no table in this channel" in text
        for word in words:
            assert word in text, (key, word)


async def test_rules_with_no_table_follow_the_default_preset_setting(tmp_path):
    h = await InteractionHarness.open(tmp_path / "euchre.db", default_preset="modern")
    try:
        text = await private_reply(h, "erin", "rules", topic="lap")
        assert "Lap is off here" in text and "default rules: the modern preset" in text
        text = await private_reply(h, "erin", "rules", topic="stick-the-dealer")
        assert "Stick the dealer is on here" in text
    finally:
        await h.close()
    assert not h.problems(), h.problems()


async def test_help_says_an_expert_plays_the_other_games_at_standard(interactions):
    h = interactions
    text = await private_reply(h, "bob", "help")
    assert "an expert plays them at standard" in text, text
