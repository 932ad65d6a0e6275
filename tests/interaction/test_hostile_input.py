"""Every slash command the bot publishes, run with hostile input in every option: the bot answers
within Discord's limits, logs no error, makes no request Discord would refuse and mentions no one.

The commands and their options are read from what the bot synced, so a command added later is
covered without a line here. Text options get mentions, markdown, zero-width characters and the
longest text Discord lets a member type; numbers get their bounds; members, channels, roles and
files get what a member could pick; an option that offers choices as it is typed is also run
with its first choice, to reach the paths past the lookup. Each command is run by an organiser
who is one of the bot's owners (so no permission check stops it early) and by a member with no
permission at all, in a channel where a game is being played.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from tests.interaction.helpers import start_four
from tests.support.fake_discord import FakeUpload
from tests.support.interactions import InteractionHarness

pytest_plugins = ["tests.support.fixtures"]

# What a member may type: Discord allows up to 6,000 characters in an option (less where the
# command sets max_length).
HOSTILE_TEXTS = (
    "@everyone @here <@&1> <@1> **x** `y` __z__ ||w|| \u200b\u202e" + "W" * 5900,
    "",
    "-1",
    "99999999999999999999999999",
    "\n\n\n",
)
SUBCOMMAND, GROUP = 1, 2
STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER, ATTACHMENT = (
    3,
    4,
    5,
    6,
    7,
    8,
    9,
    10,
    11,
)


def leaves(commands: list[dict[str, Any]]) -> Iterator[tuple[str, list[dict[str, Any]]]]:
    """Every runnable command path (`league season start`) with its options."""

    def walk(path: str, node: dict[str, Any]) -> Iterator[tuple[str, list[dict[str, Any]]]]:
        options = node.get("options", [])
        subs = [o for o in options if o["type"] in (SUBCOMMAND, GROUP)]
        if not subs:
            yield path, options
        for sub in subs:
            yield from walk(f"{path} {sub['name']}", sub)

    for command in commands:
        if command.get("type", 1) == 1:
            yield from walk(command["name"], command)


def value_for(h: InteractionHarness, option: dict[str, Any], text: str, high: bool) -> Any:
    kind = option["type"]
    if option.get("choices"):
        choices = option["choices"]
        return (choices[-1] if high else choices[0])["value"]
    if kind == STRING:
        limit = option.get("max_length", 6000)
        return text[:limit] if len(text) >= option.get("min_length", 0) else text
    if kind in (INTEGER, NUMBER):
        if high:
            return option.get("max_value", 2**53)
        return option.get("min_value", -(2**53))
    if kind == BOOLEAN:
        return high
    if kind in (USER, MENTIONABLE):
        return h.member("erin")
    if kind == CHANNEL:
        return h.channel
    if kind == ROLE:
        return h.world.guild.id  # @everyone
    if kind == ATTACHMENT:
        return FakeUpload("game.json", text.encode()[:4000] or b"\xff\xfe", "application/json")
    raise AssertionError(f"an option type the test does not know: {kind}")


def variants(h: InteractionHarness, options: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Each hostile text once in every text option, with the other options at one bound or the
    other; first with the required options only, then with all of them."""
    for everything in (False, True):
        chosen = [o for o in options if everything or o.get("required")]
        for number, text in enumerate(HOSTILE_TEXTS):
            high = number % 2 == 1
            yield {o["name"]: value_for(h, o, text, high) for o in chosen}
            if not any(o["type"] == STRING and not o.get("choices") for o in chosen):
                break  # no text option: once at each bound is enough
        if not any(not o.get("required") for o in options):
            break


async def offered(
    h: InteractionHarness, path: str, options: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """With every option that offers choices as you type set to its first choice (a league, a
    season, a seat that exists) and the other text options hostile: the paths past the lookup."""
    chosen: dict[str, Any] = {}
    for option in options:
        if option.get("autocomplete"):
            choices = await h.autocomplete("owner", path, option["name"], "")
            if choices:
                chosen[option["name"]] = choices[0]["value"]
    if not chosen:
        return []
    return [
        {**values, **chosen}
        for values in variants(h, options)
        if all(o["name"] in values for o in options if o["name"] in chosen)
    ]


def mentions_someone(payload: dict[str, Any]) -> bool:
    """Whether a message the bot sent would ping anyone (its allowed_mentions allow it)."""
    allowed = payload.get("allowed_mentions")
    if allowed is None:
        return False  # the bot's default: AllowedMentions.none()
    return bool(allowed.get("parse")) or bool(allowed.get("roles"))


async def run_every_command(h: InteractionHarness, member: str) -> int:
    """Run every command as `member` with every set of hostile values; how many ran."""
    commands = h.world.synced_commands(h.world.guild) or h.world.synced_commands(None)
    ran = 0
    for path, options in sorted(leaves(commands)):
        if path in ("admin sync",):
            continue  # publishes the commands again: no input of a member's reaches it
        for values in [*variants(h, options), *await offered(h, path, options)]:
            before = len(h.exchanges)
            try:
                await h.command(member, path, **values)
            except PermissionError:
                break  # Discord would not offer it to this member
            await h.settle()
            ran += 1
            problems = h.problems()
            assert problems == [], (path, {k: str(v)[:40] for k, v in values.items()}, problems)
            for exchange in h.exchanges[before:]:
                for message in exchange.messages:
                    assert len(message.content) <= 2000, path
                    assert "@everyone" not in message.content, path
                if exchange.response:
                    assert not mentions_someone(exchange.response), (path, exchange.response)
    return ran


async def club(h: InteractionHarness) -> None:
    """A game being played, and a league the owner runs and the four play in, so commands that
    name a league or act at the table get past the lookup."""
    await start_four(h)
    await h.command("owner", "league create", name="Club", preset="modern")
    for name in ("alice", "bob", "carol", "dave", "owner"):
        await h.command(name, "league join", name="Club")
    assert h.problems() == []


async def test_every_command_with_hostile_input_from_an_organiser_answers_within_limits(
    interactions: InteractionHarness,
):
    h = interactions
    await club(h)
    assert await run_every_command(h, "owner") > 100  # every command, several times


async def test_every_command_with_hostile_input_from_a_passer_by_answers_within_limits(
    interactions: InteractionHarness,
):
    """Erin has no permission and sits at no table: every command she can see refuses her or
    answers her, privately and within the limits."""
    h = interactions
    await club(h)
    assert await run_every_command(h, "erin") > 100
