"""Running the real bot against the fake Discord, and playing as its members would."""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from bot.ai.variants import make_variant_player
from bot.client import EuchreBot
from bot.config import Settings
from bot.engine.cards import SUIT_SYMBOLS, card_label
from bot.ui.emojis import CARDS, card_of_emoji
from bot.ui.views import deal_number
from tests.support.fake_discord import WAIT, FakeDiscord, FakeMember, FakeMessage
from tests.support.logs import logged_errors

# discord.py is ready only once no GUILD_CREATE came for this long after the last one (2 s by
# default, for Discord's guilds that arrive over seconds). The fake sends every GUILD_CREATE
# at once, right after READY, so a bot started against it need not wait 2 s at each start.
GUILD_READY_TIMEOUT = 0.5


def settings_for(fake: FakeDiscord, db_path: Path, **overrides) -> Settings:
    values = dict(
        token=fake.token,
        database_path=db_path,
        dev_guild_id=fake.guild.id,
        api_base=fake.api_base,
        gateway_url=fake.gateway_url,
        turn_timeout=120,
        owner_ids=frozenset({fake.member("mod").id}),
        # The fake Discord has no global rate limit, and tests play as fast as the bot answers:
        # the process's REST budget is tested on its own (test_status_e2e.py), not in every test.
        rest_budget=0.0,
    )
    values.update(overrides)
    return Settings(**values)


def new_bot(settings: Settings, **kwargs) -> EuchreBot:
    """The project's bot as tests start it: computers move at once, turn timers off unless
    asked for, no wait between session starts, and ready as soon as the fake's guilds came."""
    kwargs.setdefault("timers", False)
    # The fake does not hold session starts apart unless a test asks it to, so bots restarted
    # in a test need not wait Discord's 5 s (the service's own spacing: test_shards_e2e.py).
    kwargs.setdefault("identify_spacing", 0.0)
    kwargs.setdefault("guild_ready_timeout", GUILD_READY_TIMEOUT)
    return EuchreBot(settings, computer_delay=0, **kwargs)


@asynccontextmanager
async def running_bot(fake: FakeDiscord, db_path: Path, **kwargs) -> AsyncIterator[EuchreBot]:
    """The project's bot, started against the fake; the errors it logs (a command, a click or
    a background task that failed) are collected in its ``handler_errors``."""
    bot = new_bot(settings_for(fake, db_path, **kwargs.pop("settings", {})), **kwargs)
    with logged_errors() as errors:
        bot.handler_errors = errors  # type: ignore[attr-defined]
        async with fake.running(bot) as running:
            yield running


def table_of(bot: EuchreBot, fake: FakeDiscord):
    return bot.manager.tables.get(fake.channel.id)


def member_at(bot: EuchreBot, fake: FakeDiscord, seat: int) -> FakeMember:
    occupant = table_of(bot, fake).seats[seat]
    return fake.guild.members[occupant.user_id]


async def eventually(predicate, timeout: float = WAIT, what: str = "a condition"):
    """Poll a predicate on the bot's own state (the fake cannot see it change) until it holds."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        result = predicate()
        if result:
            return result
        if loop.time() > deadline:
            raise TimeoutError(f"timed out after {timeout}s waiting for {what}")
        await asyncio.sleep(0.005)


def enabled_actions(message: FakeMessage) -> list[str]:
    """The custom ids of the enabled action buttons on a hand message."""
    return [
        b["custom_id"]
        for b in message.buttons
        if not b.get("disabled") and b.get("custom_id", "").startswith("euchre:hand:")
    ]


ALL_LABELS = {card_label(c): c for c in CARDS}
_LABEL = re.compile(r"(?:10|[AKQJ98765])[" + "".join(SUIT_SYMBOLS.values()) + r"]|🃏")
# A custom emoji in text: `<:JH:123>` (or `<a:JH:123>` if it were animated).
_EMOJI = re.compile(r"<a?:(\w{2,32}):\d+>")


def cards_shown(text: str) -> set[str]:
    """Every card a text shows, by its label (`J♥`, `10♦`, `🃏`) or its emoji (`<:10D:id>`)."""
    labelled = {ALL_LABELS[m] for m in _LABEL.findall(text) if m in ALL_LABELS}
    pictured = {card_of_emoji(name) for name in _EMOJI.findall(text)}
    return labelled | {card for card in pictured if card is not None}


def components_text(message: FakeMessage) -> str:
    """A message's buttons and selects as text: labels, custom ids and emojis (`<:JH:id>`),
    so a card shown only on a button is seen by `cards_shown` too."""
    parts = []
    for component in message.all_components():
        parts += [str(component.get("label") or ""), str(component.get("custom_id") or "")]
        emoji = component.get("emoji") or {}
        if emoji.get("id"):
            parts.append(f"<:{emoji.get('name')}:{emoji['id']}>")
    return " ".join(parts)


NAMES = ("alice", "bob", "carol", "dave")


async def seat_four(fake: FakeDiscord, preset: str = "modern", **options) -> None:
    alice = fake.member("alice")
    await (
        await fake.slash(alice, fake.channel, "table create", preset=preset, **options)
    ).response()
    for name in NAMES[1:]:
        await (await fake.slash(fake.member(name), fake.channel, "table join")).response()


async def start(fake: FakeDiscord) -> None:
    answer = await (await fake.slash(fake.member("alice"), fake.channel, "table start")).message()
    assert "dealt" in answer.text, (answer.text, fake.describe(last=12))


async def current_table_message(fake: FakeDiscord, table):
    """The public table message of the deal being played, once the bot has posted it."""

    def posted():
        message = fake.messages_by_id.get(table.message_id)
        if (
            message
            and table.message_deal == deal_number(table)
            and "My hand" in str(message.buttons)
        ):
            return message
        return None

    return await eventually(posted, what="the table message of this deal")


async def act_once(bot, fake: FakeDiscord) -> None:
    """The member whose turn it is opens the hand with the My hand button and clicks the first enabled action."""
    table = table_of(bot, fake)
    seat = table.match.to_act
    member = member_at(bot, fake, seat)
    table_message = await current_table_message(fake, table)
    hand = await (await fake.click(member, table_message, label="My hand")).message()
    assert hand.ephemeral and hand.visible_to == member.id
    actions = enabled_actions(hand)
    assert actions, (hand.text, table.status, table.match is not None, seat, table.match.to_act)
    clicked = await fake.click(member, hand, actions[0])
    response = await clicked.response()
    # The hand message is edited in place.
    assert response.type == 7, (response, (await clicked.message()).text)
    assert (await clicked.message()).ephemeral


# -- the other games of the rule books --------------------------------------------------

# The fewest seats and the shortest game of each variant, so the suite stays quick.
VARIANT_GAMES: dict[str, dict[str, int]] = {
    "two-handed": {"seats": 2, "points": 1},
    "three-handed": {"seats": 3, "points": 1},
    "french": {"seats": 4, "points": 1},
    "napoleon": {"seats": 3},
    "six-handed": {"seats": 6, "points": 1},
    "set-back": {"seats": 2},
}
VARIANT_ENDS = ("wins the game", "win the game", "no single winner")


# The member plays as the standard computer would: a member who always made trump would be
# set back again and again at set-back, and the game would last a hundred deals.
VARIANT_ADVISER = make_variant_player("standard", seed=1)


async def variant_act_once(bot, fake: FakeDiscord) -> None:
    """The member to act opens the hand (My hand) and takes an action by button or select.

    A set-back maker every other player left alone has no action to take: the bot plays his
    cards for him, and this waits for the deal to end instead."""
    table = table_of(bot, fake)
    deal = table.variant_match.deal
    if deal.unopposed:
        await fake.wait_for(lambda: deal.is_over, what="the unopposed maker's cards")
        return
    seat = table.variant_match.to_act
    member = member_at(bot, fake, seat)
    wanted = VARIANT_ADVISER.choose(table.variant_match.view_for(seat))
    table_message = await current_table_message(fake, table)
    hand: FakeMessage = await (await fake.click(member, table_message, label="My hand")).message()
    assert hand.ephemeral and hand.visible_to == member.id
    buttons = {
        b["custom_id"].split(":", 5)[5]: b["custom_id"]
        for b in hand.buttons
        if not b.get("disabled") and b.get("custom_id", "").startswith("euchre:hand:")
    }
    picks = [
        c for c in hand.all_components() if str(c.get("custom_id", "")).startswith("euchre:pick:")
    ]
    if wanted in buttons:
        clicked = await fake.click(member, hand, buttons[wanted])
    else:
        assert picks and wanted in [o["value"] for o in picks[0]["options"]], hand.text
        clicked = await fake.click(member, hand, picks[0]["custom_id"], values=[wanted])
    assert (await clicked.response()).type == 7  # the hand is edited in place


# -- answers by member name ----------------------------------------------------------------


async def private(fake: FakeDiscord, who: str, command: str, /, **options) -> str:
    """The text of the bot's answer to `who`'s slash command, which must be private."""
    message = await (await fake.slash(fake.member(who), fake.channel, command, **options)).message()
    assert message.ephemeral, message.text
    return message.text


async def public(fake: FakeDiscord, who: str, command: str, /, **options) -> str:
    """The text of the bot's answer to `who`'s slash command, which must be public."""
    message = await (await fake.slash(fake.member(who), fake.channel, command, **options)).message()
    assert not message.ephemeral, message.text
    return message.text
