"""Playing through the interaction harness: seating, and taking whatever action the deal allows.

The deal is shuffled at random, so nothing here assumes a hand: every choice is read from
the engine's legal actions for the seat to act, through the manager.
"""

from __future__ import annotations

from typing import Any

from bot.engine.cards import SUIT_NAMES
from bot.engine.deal import DISCARD
from bot.tables.table import Table
from tests.support.fake_discord import FakeMember, FakeMessage
from tests.support.interactions import Exchange, InteractionHarness, enabled_ids

PLAYERS = ("alice", "bob", "carol", "dave")


async def seat_four(h: InteractionHarness, **options: Any) -> Table:
    """alice opens a table (modern rules unless told) and bob, carol and dave join it."""
    options.setdefault("preset", "modern")
    assert (await h.command("alice", "table create", **options)).ephemeral
    for name in PLAYERS[1:]:
        assert (await h.command(name, "table join")).ephemeral
    table = h.table()
    assert table is not None and table.full
    return table


async def start_four(h: InteractionHarness, **options: Any) -> Table:
    """Four seated as they joined (alice north, bob east, carol south, dave west), cards dealt."""
    table = await seat_four(h, **options)
    assert (await h.command("alice", "table start", keep_seats=True)).ephemeral
    assert table.playing
    return table


def to_act(h: InteractionHarness) -> tuple[FakeMember, int]:
    """The member whose turn it is, and the seat."""
    seat = h.table().match.to_act
    return h.member_at(seat), seat


def legal(h: InteractionHarness) -> tuple[str, ...]:
    return tuple(h.table().match.deal.legal_actions())


def hand_of(h: InteractionHarness, seat: int) -> list[str]:
    return list(h.table().match.deal.hands[seat])


def command_for(action: str, phase: str) -> tuple[str, dict[str, Any]]:
    """The slash command (and its options) that makes an engine action."""
    if action == "pass":
        return "pass", {}
    if action in ("order", "order:alone"):
        return "order", {"alone": True} if action.endswith("alone") else {}
    if action.startswith("call:"):
        parts = action.split(":")
        options: dict[str, Any] = {"suit": SUIT_NAMES[parts[1]]}
        if len(parts) == 3:
            options["alone"] = True
        return "call", options
    if action in ("alone", "defend"):
        return "alone", {}
    return ("discard" if phase == DISCARD else "play"), {"card": action}


def making_choice(actions: tuple[str, ...]) -> str:
    """Make trump when one may (so a hand scores and a short game ends), never alone; else
    the first legal action."""
    for action in actions:
        if action == "order" or (action.startswith("call:") and not action.endswith("alone")):
            return action
    return next((a for a in actions if a not in ("order:alone", "alone", "defend")), actions[0])


async def act(h: InteractionHarness, action: str | None = None) -> Exchange:
    """The member to act takes ``action`` (default: ``making_choice``) by slash command."""
    member, _ = to_act(h)
    deal = h.table().match.deal
    chosen = action or making_choice(legal(h))
    name, options = command_for(chosen, deal.phase)
    exchange = await h.command(member, name, **options)
    assert exchange.ephemeral, exchange.text
    return exchange


async def play_match(h: InteractionHarness, limit: int = 400) -> None:
    """Slash commands until the match ends."""
    table = h.table()
    for _ in range(limit):
        if not table.playing:
            return
        await act(h)
    raise AssertionError("the match did not end")


async def open_hand(h: InteractionHarness, member: FakeMember) -> FakeMessage:
    """The member clicks My hand on the table message; the ephemeral hand shown."""
    table = h.table()
    exchange = await h.click(member, f"euchre:table:{table.id}:hand")
    assert exchange.ephemeral and exchange.reply.visible_to == member.id
    return exchange.reply


def action_ids(hand: FakeMessage) -> dict[str, str]:
    """The enabled action buttons of a hand message, by action."""
    return {cid.split(":", 5)[5]: cid for cid in enabled_ids(hand, "euchre:hand:")}


async def close_table(
    h: InteractionHarness, who: str | FakeMember, channel_permissions: int | None = None
) -> Exchange:
    """/table close, then the confirmation's "Close the table" button: the click's exchange
    (or the command's, when it was refused and offered no button)."""
    asked = await h.command(who, "table close", channel_permissions=channel_permissions)
    assert asked.ephemeral, asked.text
    yes = [cid for cid in enabled_ids(asked.reply, "euchre:close:") if cid.endswith(":yes")]
    if not yes:
        return asked
    return await h.click(
        who, yes[0], message=asked.reply.id, channel_permissions=channel_permissions
    )
