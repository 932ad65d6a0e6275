"""Computer players for tables: which player makes a seat's move, run off the event loop.

The players themselves live in `bot/ai` (pure functions of one seat's view). Their search can
take most of a second, so the manager runs them in a thread pool: a table of four computers
must never delay another table's click.
"""

from __future__ import annotations

import asyncio
import random
from concurrent.futures import Executor, ThreadPoolExecutor
from typing import Protocol

from bot.engine.match import MatchView


class Player(Protocol):
    def choose(self, view: MatchView) -> str: ...


class RandomPlayer:
    """Plays a random legal action: the fallback when no level is available."""

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def choose(self, view: MatchView) -> str:
        return self._rng.choice(list(view.deal.legal))


def make_player(level: str, seed: int | None = None) -> Player:
    """A player of the given level from `bot.ai`, or a random legal player if it has none."""
    try:
        from bot.ai import make_player as make_ai_player
    except ImportError:
        return RandomPlayer(seed)
    try:
        return make_ai_player(level, seed)
    except (KeyError, ValueError):
        return RandomPlayer(seed)


class ComputerSeats:
    """Chooses computer moves in a pool of worker threads."""

    def __init__(self, executor: Executor | None = None, workers: int = 2) -> None:
        self._executor = executor or ThreadPoolExecutor(workers, thread_name_prefix="euchre-ai")
        self._own = executor is None
        self._players: dict[tuple[int, int, str], Player] = {}

    async def choose(self, table_id: int, seat: int, level: str, view: MatchView) -> str:
        """The move for `seat`, chosen off the event loop. Forced moves take no search."""
        if len(view.deal.legal) == 1:
            return view.deal.legal[0]
        key = (table_id, seat, level)
        player = self._players.get(key)
        if player is None:
            player = self._players[key] = make_player(level, seed=None)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, player.choose, view)

    def forget(self, table_id: int) -> None:
        for key in [k for k in self._players if k[0] == table_id]:
            del self._players[key]

    def close(self) -> None:
        if self._own:
            self._executor.shutdown(wait=False, cancel_futures=True)
