"""/help and /rules through the real command tree: private answers within Discord's limits, the
commands as clickable mentions, and each rule explained for the channel's table (its preset
and options) or, with no table, for the bot's default preset."""

from __future__ import annotations

import copy
import inspect
import re

import discord
import pytest
from discord import app_commands

from bot.ui.guide import (
    DESCRIPTION_LIMIT,
    EMBED_LIMIT,
    FIELD_LIMIT,
    FIELDS_LIMIT,
    TOPICS,
    CommandLine,
    HelpGroup,
    OptionLine,
    help_answer,
    help_pages,
    menu_options,
)
from tests.support.fake_discord import FakeMessage, notified
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

# Discord's limits for a select menu.
SELECT_OPTIONS_LIMIT = 25


def assert_within_limits(message) -> None:
    """A message within Discord's limits: every embed and all of them together, and its menu."""
    total = 0
    for embed in message.embed_objects():
        assert len(embed.description or "") <= DESCRIPTION_LIMIT
        assert len(embed.fields) <= FIELDS_LIMIT
        assert all(len(f.value or "") <= FIELD_LIMIT for f in embed.fields)
        total += len(embed)
    assert total <= EMBED_LIMIT, total
    for component in message.all_components():
        if component.get("type") == 3:  # a select menu
            assert 1 <= len(component["options"]) <= SELECT_OPTIONS_LIMIT
            assert len(component["custom_id"]) <= 100
            assert all(len(o["label"]) <= 100 for o in component["options"])


async def every_page(h: InteractionHarness, member: str = "alice") -> dict[str, str]:
    """Every page of /help, as the member reaches it: /help, then each page of its menu."""
    return {key: page.text for key, page in (await every_message(h, member)).items()}


async def every_message(h: InteractionHarness, member: str = "alice") -> dict[str, FakeMessage]:
    """Every page of /help as the member is shown it (a copy of the message as each pick left
    it): /help, then each page of its menu."""
    reply = (await h.command(member, "help")).reply
    assert reply.ephemeral and reply.visible_to == h.member(member).id
    (menu,) = [c for c in reply.all_components() if c.get("type") == 3]
    pages = {}
    for option in menu["options"]:
        exchange = await h.click(
            member, menu["custom_id"], message=reply.id, values=[option["value"]]
        )
        page = exchange.reply
        assert page.id == reply.id and page.ephemeral  # shown in place, still private
        assert_within_limits(page)
        pages[option["value"]] = copy.copy(page)  # the next pick edits it in place
    return pages


def mention_of(h: InteractionHarness, name: str) -> str:
    return f"</{name}:{synced_id(h, name)}>"


async def test_help_opens_on_the_commands_at_the_table_each_saying_what_it_does(interactions):
    h = interactions
    reply = (await h.command("alice", "help")).reply
    assert reply.ephemeral and reply.visible_to == h.member("alice").id
    assert_within_limits(reply)
    fields = {f["name"]: f["value"] for f in reply.embeds[0]["fields"]}
    playing = "\n".join(v for k, v in fields.items() if k.startswith("Playing"))
    assert f"{mention_of(h, 'play')} `card` — Play a card to the trick." in playing
    assert "`alone`: play it alone" in playing  # /order's and /call's option, named
    # Every command of the table's, the play's and the settings' cogs, with its description.
    shown = "\n".join(fields.values())
    for command in commands_of(h):
        if command.binding.qualified_name in ("Tables", "Play", "Coach", "Settings"):
            assert mention_of(h, command.qualified_name) in shown, command.qualified_name
            assert f" — {command.description}" in shown, command.qualified_name
    # How to reach the rest: the menu, and /help topic.
    assert "/help topic" in reply.embeds[0]["description"]
    assert any(c.get("type") == 3 for c in reply.all_components())


async def test_every_command_and_option_registered_is_on_a_page_of_help(interactions):
    """Read from the tree as registered: each command with its description, and each of its
    options with its own, on the page of its group; every page within Discord's limits. As a
    member with Manage Server reads it, to whom every command is open."""
    h = interactions
    pages = await every_page(h, "admin")
    assert {"start", "deal", "table", "playing", "leagues", "admin"} <= set(pages)
    assert "Making trump, first round" in pages["deal"]
    for command in commands_of(h):
        name = command.qualified_name
        head = mention_of(h, name)
        found = [t for key, t in pages.items() if key != "start" and head in t]
        assert found, f"/{name} is on no page of its group"
        text = "\n".join(found)
        assert f" — {command.description}" in text, name
        for option in command.parameters:
            required = " (required)" if option.required else ""
            line = f"• `{option.display_name}`{required}: {option.description}"
            assert line in text, (name, line)


async def test_help_topic_opens_that_page(interactions):
    h = interactions
    leagues = (await h.command("admin", "help", topic="leagues")).reply
    assert leagues.ephemeral and leagues.embeds[0]["title"] == "Leagues"
    assert f"{mention_of(h, 'league create')} `name` `preset`" in leagues.text
    assert not leagues.content  # nothing to say on a page that is there
    deal = (await h.command("bob", "help", topic="deal")).reply
    assert "The discard." in deal.text and "right bower" in deal.text


async def test_help_writes_plain_commands_where_their_ids_are_unknown(interactions):
    h = interactions
    h.bot.tree.command_ids.clear()  # as after a restart with no sync yet
    text = await private_reply(h, "bob", "help")
    assert "</" not in text
    assert "/play `card` — Play a card" in text and "/table create — " in text


# -- /help shows each member the commands they may use -------------------------------------


def manager_commands(h: InteractionHarness) -> list[str]:
    """The commands only a member who may manage the server may use: /admin's (its default
    permissions are Manage Server) and those whose own check asks for it (their description
    says so, as Discord's picker shows it)."""
    return [
        c.qualified_name
        for c in commands_of(h)
        if c.qualified_name.startswith("admin ") or c.description.endswith("(Manage Server).")
    ]


def menu_of(message: FakeMessage) -> list[str]:
    (menu,) = [c for c in message.all_components() if c.get("type") == 3]
    return [o["value"] for o in menu["options"]]


def assert_no_empty_page(pages: dict[str, FakeMessage]) -> None:
    """Every page the menu offers lists commands, but the one on how a deal goes."""
    for key, page in pages.items():
        if key != "deal":
            fields = [f for e in page.embeds for f in e.get("fields", [])]
            assert fields and all(f["value"] for f in fields), key


async def test_help_shows_a_member_without_manage_server_none_of_its_commands(interactions):
    h = interactions
    hidden = manager_commands(h)
    assert {"admin sync", "admin status", "league create", "night open", "fixtures make"} <= set(
        hidden
    )
    pages = await every_message(h, "alice")
    assert "admin" not in pages  # the menu does not offer a page left with no command
    assert_no_empty_page(pages)
    for key, page in pages.items():
        for name in hidden:
            assert mention_of(h, name) not in page.text, (key, name)
        assert "/admin" not in page.text and "Admin" not in page.text, key
    # What the member may use is still there, on the page of its group.
    assert mention_of(h, "league join") in pages["leagues"].text
    assert mention_of(h, "play") in pages["start"].text
    # Asked for by name, the page of /admin is not shown either: /help says why.
    reply = (await h.command("alice", "help", topic="admin")).reply
    assert reply.ephemeral and reply.embeds[0]["title"] == "At the table"
    assert reply.content.startswith("None of the commands on *Admin* are yours to use here.")
    assert "/admin" not in reply.text and "admin" not in menu_of(reply)


@pytest.mark.parametrize("member", ["admin", "boss"])
async def test_help_shows_a_member_with_manage_server_its_commands(interactions, member):
    """A member with Manage Server, or an administrator (who has every permission)."""
    h = interactions
    administrator = discord.Permissions(administrator=True).value
    h.world.add_member(h.world.guild, "boss", permissions=administrator)
    pages = await every_message(h, member)
    assert "admin" in pages
    assert_no_empty_page(pages)
    text = "\n".join(page.text for page in pages.values())
    for name in manager_commands(h):
        assert mention_of(h, name) in text, name
    assert mention_of(h, "admin sync") in pages["admin"].text
    assert mention_of(h, "league create") in pages["leagues"].text


async def test_help_menu_shows_the_pages_for_the_member_as_they_pick(interactions):
    """The menu stores nothing (as after a restart, every pick is read by the menu registered
    at start from its custom id alone): a page picked is drawn for the member's permissions at
    the pick, not those they had when /help was opened."""
    h = interactions
    opened = (await h.command("admin", "help", topic="admin")).reply
    assert opened.embeds[0]["title"] == "Admin" and "admin" in menu_of(opened)
    h.member("admin").permissions = 0  # Manage Server taken away since
    old = copy.copy(opened)  # the menu as it was, Admin still offered
    page = (await h.click("admin", "euchre:help", message=old, values=["leagues"])).reply
    assert page.embeds[0]["title"] == "Leagues" and not page.content
    assert mention_of(h, "league create") not in page.text
    assert "admin" not in menu_of(page)
    page = (await h.click("admin", "euchre:help", message=old, values=["admin"])).reply
    assert page.embeds[0]["title"] == "At the table"
    assert page.content.startswith("None of the commands on *Admin* are yours to use here.")
    assert "/admin" not in page.text and "admin" not in menu_of(page)
    # The other way: a member given Manage Server finds its commands at the next pick.
    opened = (await h.command("alice", "help")).reply
    assert "admin" not in menu_of(opened)
    h.member("alice").permissions = discord.Permissions(manage_guild=True).value
    page = (await h.click("alice", "euchre:help", message=opened.id, values=["start"])).reply
    assert "admin" in menu_of(page)
    page = (await h.click("alice", "euchre:help", message=opened.id, values=["admin"])).reply
    assert page.embeds[0]["title"] == "Admin" and not page.content
    assert mention_of(h, "admin sync") in page.text


async def test_help_in_a_dm_lists_all_but_the_server_commands_that_need_a_permission(
    interactions,
):
    """No server's permissions in a DM: the commands of a table are listed as before (a member
    reads there what to do at one), /admin's and the organisers' are not."""
    h = interactions
    tree = h.bot.tree
    opening = help_answer(tree, None, None, discord.Permissions.none())
    offered = [o.value for o in opening.view.children[0].item.options]  # the menu's pages
    assert "admin" not in offered
    answers = [help_answer(tree, None, key, discord.Permissions.none()) for key in offered]
    assert all(a.content is None for a in answers)
    text = "\n".join(f.value or "" for a in answers for f in a.embed.fields)
    for name in manager_commands(h):
        assert f"/{name} " not in text and f"/{name}:" not in text, name
    for name in ("play", "table create", "league join", "help", "rules"):
        assert f"/{name} " in text or f"/{name}:" in text, name


# Values a stale or forged client could send as a topic: Discord lets an option's string be up
# to 6,000 characters, and anything at all.
HOSTILE = [
    "x" * 6000,
    "@everyone look",
    "<@123> and <@&456>",
    "```py\nboom``` **bold** ||spoiler|| [link](https://example.com)",
    "order_up",  # as a topic was once named
]


def assert_quoted_safely(exchange, value: str) -> None:
    """The reply's own words quote what was sent: within Discord's limits, notifying no one
    (neither by its mentions nor by what it allows), and formatting nothing."""
    reply = exchange.reply
    assert reply.ephemeral and reply.visible_to == exchange.member.id
    assert len(reply.content) <= 2000
    assert_within_limits(reply)
    assert exchange.response["allowed_mentions"] == {"parse": []}
    assert notified(reply.content, None) == set()  # nothing to notify, whatever were allowed
    assert "@everyone" not in reply.content and not re.search(r"<@[!&]?[0-9]", reply.content)
    assert "```" not in reply.content and "**bold" not in reply.content
    assert "\n" not in reply.content
    if len(value) > 100:
        assert len(reply.content) < 300 and value[:100] not in reply.content


@pytest.mark.parametrize("value", HOSTILE)
async def test_help_with_an_unknown_topic_says_so_and_opens_on_the_commands(interactions, value):
    h = interactions
    exchange = await h.command("bob", "help", topic=value)
    assert_quoted_safely(exchange, value)
    reply = exchange.reply
    assert reply.content.startswith("/help has no page “")
    assert reply.embeds[0]["title"] == "At the table"
    assert len(menu_of(reply)) > 2  # the other pages, to pick from


@pytest.mark.parametrize("value", HOSTILE)
async def test_rules_with_an_unknown_topic_says_so_then_lists_the_topics(interactions, value):
    h = interactions
    for where in ("no table", "table"):
        if where == "table":
            await h.command("alice", "table create", preset="modern")
        exchange = await h.command("bob", "rules", topic=value)
        assert_quoted_safely(exchange, value)
        reply = exchange.reply
        assert reply.content.startswith("/rules has no topic “")
        assert reply.content.endswith("These are its topics:")
        assert reply.embeds[0]["title"] == "The rules, topic by topic"
        for topic in TOPICS:
            assert topic.title in reply.text
    # A known topic, or none, has nothing before the answer.
    for topic in (None, "lap"):
        options = {} if topic is None else {"topic": topic}
        assert not (await h.command("bob", "rules", **options)).reply.content


def many_commands(groups: int, commands: int, options: int) -> list[CommandLine]:
    """More commands, with longer descriptions and more options, than a bot would have."""
    return [
        CommandLine(
            HelpGroup(f"g{g}", f"Group {g}", (), at_table=g < 2),
            f"command{g}x{i} sub",
            "d" * 100,
            tuple(OptionLine(f"option{j}", "o" * 100, j == 0) for j in range(options)),
        )
        for g in range(groups)
        for i in range(commands)
    ]


@pytest.mark.parametrize("groups,commands,options", [(3, 25, 25), (30, 3, 2), (1, 1, 0)])
def test_help_pages_keep_within_discords_limits_however_many_commands(groups, commands, options):
    lines = many_commands(groups, commands, options)
    pages = help_pages(lines, lambda name: f"</{name}:{'9' * 19}>")
    assert len({p.key for p in pages}) == len(pages)
    for page in pages:
        embed = page.embed
        assert len(embed.description or "") <= DESCRIPTION_LIMIT
        assert len(embed.fields) <= FIELDS_LIMIT
        assert all(len(f.value or "") <= FIELD_LIMIT for f in embed.fields)
        assert len(embed) <= EMBED_LIMIT
        assert len(page.label) <= 100 and len(page.summary) <= 100
    # Every command and option is whole on a page of its group.
    groups = [p for p in pages if not p.key.startswith(("start", "deal"))]
    text = "\n".join(f.value or "" for p in groups for f in p.embed.fields)
    for line in lines:
        assert f"</{line.name}:{'9' * 19}> " in text and f"— {'d' * 100}" in text
        for option in line.options:
            assert f"• `{option.name}`" in text
    assert text.count("o" * 100) == len(lines) * options
    # The menu offers at most 25 pages, the one shown among them.
    for page in (pages[0], pages[-1]):
        menu = menu_options(pages, page.key)
        assert len(menu) <= SELECT_OPTIONS_LIMIT and [o.value for o in menu if o.default] == [
            page.key
        ]


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
    text = await private_reply(h, "bob", "help", topic="deal")
    assert "an expert plays them at standard" in text, text


async def test_every_command_whose_own_check_asks_manage_server_says_so_for_help(interactions):
    """/help reads the permission a command checks in its body from its description's end,
    "(Manage Server)." (`NAMED_PERMISSIONS`): a command checking `manage_guild` itself (or
    through the leagues' `organiser`) without saying so would be listed to every member. One
    that checks only to change something (/league settings) names it elsewhere, and is listed."""
    h = interactions
    checked = {}
    for command in commands_of(h):
        body = inspect.getsource(command.callback)
        # A night's own commands let its organiser too: those are listed to everyone.
        if re.search(
            r"(?<!_require_)organiser\(interaction|permissions\.manage_guild|_correct\(", body
        ):
            checked[command.qualified_name] = command.description
            assert "Manage Server" in command.description, command.qualified_name
    assert {"league create", "night open", "fixtures make", "league void"} <= set(checked)
    assert "(Manage Server)" not in checked["league settings"]
