"""A member's statistics: totals, partners and opponents."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.storage import results
from bot.storage.database import Database
from bot.storage.errors import StatsError
from bot.storage.player_stats import player_stats
from tests.storage.builders import GUILD, TABLE, game, match, seats

NOW = datetime(2025, 5, 20, 18, tzinfo=UTC)


async def test_player_stats_partners_and_opponents(db: Database) -> None:
    # Player 1 partners 2 in four games (wins 3) and 3 in three games (wins all three);
    # opponents (5, 6) four times, (7, 8) three times, (9, 10) once.
    games = [
        ((1, 5, 2, 6), 0),
        ((1, 5, 2, 6), 0),
        ((1, 5, 2, 6), 1),
        ((2, 7, 1, 8), 0),
        ((1, 7, 3, 8), 0),
        ((3, 7, 1, 8), 0),
        ((1, 6, 3, 5), 0),
        ((1, 9, -1, 10), 1),
    ]
    for number, (users, winner) in enumerate(games):
        players = seats(*users, bots=(-1,))
        async with db.transaction():
            m = await results.new_match_id(db, GUILD, TABLE)
            await results.record_game(db, game(m, players, number=0, scores=(5, 2), winner=winner))
            await results.record_match(
                db, match(m, players, kind="game", games=(((5, 2), winner, 1),), winner=winner)
            )
        del number
    mine = await player_stats(db, GUILD, 1, now=NOW, include_bots=True)
    assert mine.name == "player1"
    assert mine.totals.games_played == 8 and mine.totals.games_won == 6
    assert mine.most_frequent_partner is not None
    assert (mine.most_frequent_partner.user_id, mine.most_frequent_partner.games) == (2, 4)
    assert mine.best_partner is not None
    assert (mine.best_partner.user_id, mine.best_partner.won, mine.best_partner.games) == (3, 3, 3)
    assert [(o.user_ids, o.games, o.won, o.lost) for o in mine.opponents] == [
        ((5, 6), 4, 3, 1),
        ((7, 8), 3, 3, 0),
    ]
    # Without the game played with a computer, nothing changes but the totals.
    counted = await player_stats(db, GUILD, 1, now=NOW)
    assert counted.totals.games_played == 7 and counted.excluded.games_played == 1
    with pytest.raises(StatsError, match="no recorded games"):
        await player_stats(db, GUILD, 4242, now=NOW)
    with pytest.raises(StatsError, match="no recorded games"):
        await player_stats(db, GUILD, 4242, period="7d", now=NOW)
    quiet = await player_stats(db, GUILD, 1, period="7d", now=datetime(2026, 1, 1, tzinfo=UTC))
    assert quiet.totals.games_played == 0 and quiet.most_frequent_partner is None
