"""The manager: a table's wait before a turn's ping, as the host chooses it at creation."""

from __future__ import annotations

import pytest

from bot.tables.table import TableError
from tests.tables.managers import GUILD, member


async def test_a_ping_wait_the_turn_would_cut_is_refused_saying_the_most_it_may_be(manager):
    """A host asks for players to be pinged after 100 seconds of a 60-second turn: the ping
    comes by half the turn whatever the table says, so the wait was cut without a word. It is
    refused, naming the most it may be; so is a wait with no ping at all. Half the turn is
    taken as it is asked for, and the default turn (120 seconds) allows 60."""
    host = member(93, 1)
    with pytest.raises(TableError, match="at most half the turn: 30 seconds when a turn lasts 60"):
        await manager.create(GUILD, 93, host, "host", turn_timeout=60, ping_after=100)
    with pytest.raises(TableError, match="with ping never"):
        await manager.create(GUILD, 93, host, "host", ping="never", ping_after=20)
    assert 93 not in manager.tables
    table = (await manager.create(GUILD, 93, host, "host", turn_timeout=60, ping_after=30)).table
    assert table.ping_after == 30
    other = (await manager.create(GUILD, 94, member(94, 1), "host", ping_after=60)).table
    assert other.ping_after == 60 and manager.turn_timeout == 120
