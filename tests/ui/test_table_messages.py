"""bot/ui/table_messages.py: a finished deal is drawn alike as it ends and when drawn again
after a restart lost that drawing, whatever the table plays; one helper decides how."""

from __future__ import annotations

import asyncio
import random
from types import SimpleNamespace
from typing import Any

import pytest

from bot.engine.rules import build_options
from bot.engine.variants import make_variant, seats_allowed
from bot.tables.manager import Change
from bot.tables.table import Occupant, Table
from bot.ui.table_messages import TableMessages


def _played_to_the_end_of_deal_1(variant: str | None) -> Table:
    """A table (four-handed, or of `variant` at its fewest seats) whose first deal is over."""
    rules = None if variant is None else make_variant(variant, seats_allowed(variant)[0])
    table = Table(7, 1, 1, Occupant(1, "ann"), build_options("modern"), rules)
    for seat in range(1, table.seat_count):
        table.seats[seat] = Occupant(seat + 1, f"player{seat + 1}")
    table._rng = random.Random(3)
    table.start()
    match: Any = table.match if variant is None else table.variant_match
    rng = random.Random(5)
    while match.deals[0].result is None:
        legal = match.legal_actions()
        table.act_for_seat(match.to_act, legal[rng.randrange(len(legal))])
    return table


def _messages() -> TableMessages:
    """The table messages of a bot whose manager knows every table (nothing is sent)."""
    manager = SimpleNamespace(knows=lambda table: True, lock_for=lambda table: asyncio.Lock())
    return TableMessages(SimpleNamespace(manager=manager))  # type: ignore[arg-type]


@pytest.mark.parametrize("variant", [None, "two-handed"], ids=["four-handed", "two-handed"])
async def test_a_finished_deal_is_drawn_alike_as_it_ends_and_after_a_restart(
    variant: str | None,
) -> None:
    table = _played_to_the_end_of_deal_1(variant)
    messages = _messages()
    drawn = messages._finished_embed(table, table.match_no, 1)
    own = (
        messages._finished_deal(table, table.match_no, 1)
        if variant is None
        else messages._finished_variant_deal(table, table.match_no, 1)
    )
    assert drawn is not None and own is not None and drawn.to_dict() == own.to_dict()

    assert messages._keep_finished(Change(table, "action", deal=1, match_no=table.match_no), [])
    kept = messages._finished[table.id][(table.match_no, 1)]
    again = await messages._finished_now(table, table.match_no, 1)
    assert again is not None
    assert kept.embed.to_dict() == again.embed.to_dict() == drawn.to_dict()

    # Nothing is drawn for a deal not over, or of another match, on either way.
    for match_no, deal in ((table.match_no, 2), (table.match_no + 1, 1)):
        assert messages._finished_embed(table, match_no, deal) is None
        assert not messages._keep_finished(
            Change(table, "action", deal=deal, match_no=match_no), []
        )
        assert await messages._finished_now(table, match_no, deal) is None


async def test_a_games_result_is_posted_when_another_change_showed_its_last_deal_first() -> None:
    # The change that ended the game keeps its last deal's drawing with the lines it posts
    # (who won). Another change, bringing the channel up to date while this one waited for the
    # table's lock, drew that deal finished first, without those lines: they are still
    # posted, once. (Seen as a game that ended with no word of who won.)
    table = _played_to_the_end_of_deal_1(None)
    messages = _messages()
    result = "North and South win the game!"
    change = Change(table, "action", deal=1, match_no=table.match_no)
    assert messages._keep_finished(change, [result])
    messages._mark_shown(table, (table.match_no, 1))
    table.message_id, table.message_deal, table.message_finished = 99, 1, True
    sent: list[str] = []

    async def send(content: str, **_: Any) -> None:
        sent.append(content)

    channel = SimpleNamespace(send=send)
    await messages._show_finished(table, channel)  # type: ignore[arg-type]
    await messages._show_finished(table, channel)  # type: ignore[arg-type]
    assert sent == [result]
