"""Stored records by id: a game with its deals, a match with its own record."""

from __future__ import annotations

import pytest

from bot.storage.database import Database
from bot.storage.errors import StatsError
from bot.storage.records import match_record
from tests.storage.builders import GUILD, rubber_then_game


async def test_stored_records_of_a_game_and_a_rubber(db: Database) -> None:
    first, second, game_id = await rubber_then_game(db)
    stored = await match_record(db, GUILD, f"g{game_id}")
    assert stored.kind == "game" and stored.match_id == second
    assert [d["deal"] for d in stored.deals] == [0, 1, 2]
    assert stored.record["scores"] == [3, 0] and len(stored.record["players"]) == 4
    assert (await match_record(db, GUILD, game_id)).record_id == f"G{game_id}"
    rubber = await match_record(db, GUILD, f"M{first}")
    assert rubber.kind == "match" and rubber.record == {"kind": "rubber", "match": first}
    with pytest.raises(StatsError, match="not a game or rubber id"):
        await match_record(db, GUILD, "last one")
    with pytest.raises(StatsError, match=f"no game G{game_id} on this server"):
        await match_record(db, GUILD + 1, f"G{game_id}")
    with pytest.raises(StatsError, match="no finished rubber or game M999"):
        await match_record(db, GUILD, "M999")
