"""The README against the code: the settings it lists are the ones the bot reads, with the
defaults it says, and every command line it shows names subcommands and options that exist.

An operator does what the README says; a setting it names that the bot never reads, or an
option the command line does not have, fails here rather than on their server.
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import pytest
from discord import app_commands

from bot.cli import build_parser
from bot.config import load_settings

pytest_plugins = ["tests.support.fixtures"]

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
ENV_EXAMPLE = (ROOT / ".env.example").read_text(encoding="utf-8")


def read_by_the_code() -> set[str]:
    """The environment variables `bot/config.py` reads (every setting is read there)."""
    source = (ROOT / "bot" / "config.py").read_text(encoding="utf-8")
    return set(re.findall(r"""env\.get\(\s*["']([A-Z_]+)["']""", source))


def readme_settings() -> dict[str, str]:
    """The README's table of settings: name -> its default column, as written."""
    section = README.split("\n## Settings\n", 1)[1].split("\n## ", 1)[0]
    return dict(re.findall(r"^\| `([A-Z_]+)` \| ([^|]*) \|", section, flags=re.M))


def test_the_readme_lists_exactly_the_settings_the_bot_reads() -> None:
    assert set(readme_settings()) == read_by_the_code()


def test_env_example_names_every_setting_and_no_other() -> None:
    named = set(re.findall(r"^#? ?([A-Z][A-Z_]+)=", ENV_EXAMPLE, flags=re.M))
    assert named == read_by_the_code()


def test_the_units_environment_files_name_only_settings_the_bot_reads() -> None:
    units = re.findall(r"```ini\n(.*?)```", README, flags=re.S)
    assert len(units) == 3  # the two units, and a process's own file of the second
    named = {name for unit in units for name in re.findall(r"\b([A-Z][A-Z_]{3,})=", unit)}
    assert named and named <= read_by_the_code()


def test_the_readme_defaults_are_the_bots() -> None:
    defaults = readme_settings()
    settings = load_settings({"DISCORD_TOKEN": "t"}, dotenv=False)
    shown = {
        "DATABASE_URL": f"sqlite:///{settings.database_path}" if not settings.database_url else "",
        "DATABASE_PATH": str(settings.database_path),
        "LOG_LEVEL": settings.log_level,
        "DEFAULT_PRESET": settings.default_preset,
        "TURN_TIMEOUT": str(settings.turn_timeout),
        "DISCORD_API_BASE": settings.api_base,
        "DISCORD_GATEWAY_URL": settings.gateway_url,
        "REST_BUDGET": f"{settings.rest_budget:g}",
        "METRICS_HOST": settings.metrics_host,
    }
    for name, value in shown.items():
        assert defaults[name] == f"`{value}`", name
    empty = {
        "DEV_GUILD_ID": settings.dev_guild_id,
        "OWNER_IDS": settings.owner_ids or None,
        "SHARD_COUNT": settings.shard_count,
        "SHARD_IDS": settings.shard_ids,
        "METRICS_PORT": settings.metrics_port,
    }
    for name, value in empty.items():
        assert defaults[name] == "empty" and value is None, name
    assert defaults["DISCORD_TOKEN"] == "(required)"


# -- the command lines ---------------------------------------------------------------------------


def subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def readme_commands() -> list[str]:
    """Every `python -m bot ...` the README shows (code blocks, fenced or indented, with the
    command listing's continued lines; inline spans), and inline mentions of a subcommand with
    options such as `replay --strict`: each as what follows `python -m bot`."""
    found: list[str] = []
    continues = False
    for line in README.splitlines():
        if continues and re.match(r"\s+\[", line):  # the listing's continued line
            found[-1] += " " + line.strip()
            continue
        command = re.match(r"^\s*(?:\$ )?python -m bot(?=\s|$)(.*)$", line)
        continues = command is not None
        if command:
            # The listing puts what a command does after two spaces or more; a shell, after #.
            found.append(re.split(r"\s{2,}|\s#", command.group(1), maxsplit=1)[0].strip())
    names = subcommands(build_parser())
    for span in re.findall(r"`([^`\n]+)`", README):
        command = re.match(r"^python -m bot(?=\s|$)(.*)$", span)
        if command:
            found.append(command.group(1).strip())
        elif span.split()[0] in names and " --" in span:
            found.append(span)
    return found


COMMANDS = readme_commands()


def test_the_readme_shows_the_commands_an_operator_runs() -> None:
    shown = {" ".join(re.findall(r"^(?:[a-z][a-z-]* ?)*", c)[0].split()[:2]) for c in COMMANDS}
    for command in ("replay", "simulate", "review", "verify-deal", "invite", "leaderboard"):
        assert any(s.split()[:1] == [command] for s in shown), command
    for command in ("db copy", "db verify", "db recompute-league", "league schedule"):
        assert command in shown, command


@pytest.mark.parametrize("command", COMMANDS)
def test_each_command_line_of_the_readme_names_options_that_exist(command: str) -> None:
    parser = build_parser()
    words = command.split()
    path = []
    while words and words[0] in subcommands(parser):
        path.append(words.pop(0))
        parser = subcommands(parser)[path[-1]]
    # Whatever follows is the command's own: placeholders, values and options, never a
    # subcommand that does not exist.
    assert not words or not re.fullmatch(r"[a-z][a-z-]*", words[0]) or path, command
    options = {flag for action in parser._actions for flag in action.option_strings}
    named = set(re.findall(r"(?<![\w-])--[a-z][a-z-]*", command))
    assert named <= options, f"{command}: {sorted(named - options)} not options of {path}"


def test_every_file_and_folder_the_readme_names_is_there() -> None:
    named = {
        span.split(":")[0]
        for span in re.findall(r"`([^`\s]+)`", README)
        + re.findall(r"python (bench/[^`\s]+)", README)
        if re.match(r"^(?:\.ci|bench|bot|cogs|tests)/", span)
    }
    assert len(named) > 50
    missing = sorted(path for path in named if not list(ROOT.glob(path.rstrip("/"))))
    assert missing == []


# -- the slash commands ----------------------------------------------------------------------------


def slash_problems(tree: app_commands.CommandTree, span: str) -> list[str]:
    """What a README span such as `/table create [preset] [points]`, `/table addbot level:expert`
    or `/league void\\|replay\\|unvoid league match reason` names that the tree does not have.
    A span that names no top-level command (`/metrics`, `/opt/euchre-bot`) is no command."""
    words = span.replace("\\|", "|").replace("[", " ").replace("]", " ").split()
    top = {c.name: c for c in tree.get_commands()}
    command = top.get(words.pop(0).lstrip("/"))
    if command is None:
        return []
    path = [command.name]
    while isinstance(command, app_commands.Group) and words:
        names = words[0].split("|")
        subs = [command.get_command(name) for name in names]
        if None in subs:
            return [f"/{' '.join(path)} has no subcommand {words[0]!r}"]
        path.append(words.pop(0))
        command = subs[0]
    if isinstance(command, app_commands.Group):
        return [] if not words else [f"/{' '.join(path)} is a group, named with {words}"]
    known = {p.display_name for p in command.parameters}
    # Options by name (`[seat]`, `when`, `level:expert`); a value alone (`G12`, `|`) is none.
    named = [w.split(":")[0] for w in words if re.fullmatch(r"[a-z_]+(:.*)?", w)]
    return [f"/{' '.join(path)} has no option {o!r}" for o in named if o not in known]


async def test_every_slash_command_the_readme_names_exists_with_its_options(interactions) -> None:
    tree = interactions.bot.tree
    spans = re.findall(r"`(/[a-z][^`]*)`", README)
    assert len(spans) > 100
    assert slash_problems(tree, "/table create [colour]") == [
        "/table create has no option 'colour'"
    ]
    assert slash_problems(tree, "/league void\\|undo league") == [
        "/league has no subcommand 'void|undo'"
    ]
    assert [problem for span in spans for problem in slash_problems(tree, span)] == []


async def test_the_readme_names_every_slash_command(interactions) -> None:
    named = {
        " ".join(span.split()[:3])
        for span in re.findall(r"`/([a-z][^`]*)`", README.replace("\\|", "|"))
    }
    commands = [
        c.qualified_name
        for c in interactions.bot.tree.walk_commands()
        if isinstance(c, app_commands.Command)
    ]
    assert len(commands) > 40
    missing = [
        name
        for name in commands
        if not any(n == name or n.startswith(name + " ") for n in named)
        and not any(name in alternatives(n) for n in named)
    ]
    assert missing == []


def alternatives(span: str) -> set[str]:
    """`league void|replay|unvoid league match` -> the commands it names: league void, ..."""
    words = span.split()
    for i, word in enumerate(words):
        if "|" in word:
            return {" ".join([*words[:i], w]) for w in word.split("|")}
    return set()
