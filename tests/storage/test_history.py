"""A member's history: matches newest first, from the member's side, a page at a time."""

from __future__ import annotations

import pytest

from bot.storage.database import Database
from bot.storage.errors import StatsError
from bot.storage.history import history
from tests.storage.builders import GUILD, at, rubber_then_game


async def test_history_newest_first_from_the_members_side(db: Database) -> None:
    first, second, game_id = await rubber_then_game(db)
    page = await history(db, GUILD, 1)
    assert (page.total, page.page_count, page.name) == (2, 1, "player1")
    newest, oldest = page.entries
    assert (newest.record_id, newest.kind, newest.won) == (f"M{second}", "game", False)
    assert newest.partners == ("player2",) and newest.opponents == ("player3", "player4")
    assert [(g.record_id, g.score, g.won, g.value) for g in newest.games] == [
        (f"G{game_id}", (0, 3), False, 2)
    ]
    assert (oldest.record_id, oldest.won, oldest.rubber_points) == (f"M{first}", False, (0, 4))
    assert oldest.played_at == at("2025-05-01")
    with pytest.raises(StatsError, match="no page 2"):
        await history(db, GUILD, 1, page=2)
    with pytest.raises(StatsError, match="no finished rubber or game"):
        await history(db, GUILD, 77)
