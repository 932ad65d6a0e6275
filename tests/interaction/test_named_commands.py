"""Every command the bot's own words name exists as named.

Replies, help pages and refusals tell members what to type next ("use /table back", "/league
join", "/table create league:"). A command renamed or removed while a sentence still names it
sends a member to something Discord does not offer, so each name in the bot's text is checked
against the command tree as registered: the command, its subcommand and its options."""

from __future__ import annotations

import ast
import pathlib
import re

from discord import app_commands

from tests.support.interactions import InteractionHarness

pytest_plugins = ["tests.support.fixtures"]

ROOT = pathlib.Path(__file__).resolve().parents[2]

# "/word", then up to two more words (a group's subcommand), then "option:" names. A word
# followed by ":" is an option, not a subcommand.
NAMED = re.compile(
    r"(?:^|[\s`(\"'*])/([a-z][a-z-]*)((?: [a-z][a-z-]*(?![a-z:-])){0,2})((?: [a-z_]+:)*)"
)


def texts_of_the_bot() -> list[tuple[str, str]]:
    """Every string constant in bot/ and cogs/ but docstrings (f-strings' literal parts too),
    with its place."""
    found = []
    for folder in ("bot", "cogs"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            module = ast.parse(path.read_text(encoding="utf-8"))
            # Docstrings and other bare strings speak to the code's readers, not to members.
            prose = {id(n.value) for n in ast.walk(module) if isinstance(n, ast.Expr)}
            for node in ast.walk(module):
                if (
                    isinstance(node, ast.Constant)
                    and isinstance(node.value, str)
                    and id(node) not in prose
                ):
                    place = f"{path.relative_to(ROOT)}:{node.lineno}"
                    found.append((place, node.value))
    return found


def problems_with(tree: app_commands.CommandTree, text: str) -> list[str]:
    """What in ``text`` names a command, subcommand or option the tree does not have."""
    top = {c.name: c for c in tree.get_commands()}
    # A group is named by one of its subcommands; "the /league commands" speaks of them all.
    prose = {"commands"}
    problems = []
    for match in NAMED.finditer(text):
        name, words, options = match.group(1), match.group(2).split(), match.group(3).split()
        command = top.get(name)
        if command is None:
            continue  # a path or an address ("/webhooks/…"), not a command
        path = [name]
        while isinstance(command, app_commands.Group) and words:
            sub = command.get_command(words[0])
            if sub is None:
                if words[0] not in prose:
                    problems.append(f"/{' '.join(path)} has no subcommand {words[0]!r}")
                break
            path.append(words.pop(0))
            command = sub
        if isinstance(command, app_commands.Group) and options:
            problems.append(f"/{' '.join(path)} is a group, named with options {options}")
        elif isinstance(command, app_commands.Command):
            known = {p.display_name for p in command.parameters}
            problems += [
                f"/{' '.join(path)} has no option {option!r}"
                for option in options
                if option.rstrip(":") not in known
            ]
    return problems


async def test_the_check_finds_a_wrong_name_and_lets_right_ones_and_paths_pass(interactions):
    tree = interactions.bot.tree
    assert problems_with(tree, "Use `/table create preset:` here, then /table join.") == []
    assert problems_with(tree, "See /webhooks/1/2 and sqlite:///euchre.db.") == []
    assert problems_with(tree, "/help lists them; /table back first; the /league commands") == []
    assert problems_with(tree, "Use /table create colour: here") == [
        "/table create has no option 'colour:'"
    ]
    assert problems_with(tree, "Use /table standings first, or /league return.") == [
        "/table has no subcommand 'standings'",
        "/league has no subcommand 'return'",
    ]
    assert problems_with(tree, "Use /table preset: here") == [
        "/table is a group, named with options ['preset:']"
    ]


async def test_every_command_the_bots_text_names_exists(interactions):
    h: InteractionHarness = interactions
    texts = texts_of_the_bot()
    assert len(texts) > 1000  # the scan read the bot's sources
    problems = [
        f"{place}: {problem}"
        for place, text in texts
        for problem in problems_with(h.bot.tree, text)
    ]
    assert problems == []
