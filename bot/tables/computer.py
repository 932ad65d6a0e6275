"""Computer players for tables: which player makes a seat's move, run off the event loop.

The players themselves live in `bot/ai` (pure functions of one seat's view). The expert's
search is pure Python and can take a good part of a second, so it runs in worker processes: in
a thread it would hold the interpreter's lock, and every click at every other table would wait
for it (measured with four computer tables in a two-thread pool: the event loop's lag went from
p99 1.2 ms to 57 ms).
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import random
import signal
import threading
import time
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Protocol

from bot.ai.expert import DEFAULT_BUDGET
from bot.engine.match import MatchView
from bot.engine.variants import VariantMatchView

log = logging.getLogger(__name__)


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


# One player per level in each worker: a player's choice depends only on the view (and its
# seed, the same for every table), so one object serves every seat of that level.
_PLAYERS: dict[str, Player] = {}


# The variants' players (`bot.ai.variants`), by level: they have no expert, whose search models
# the four-handed deal, so an expert seat plays the variants at the standard level.
_VARIANT_PLAYERS: dict[str, Any] = {}


def choose_variant_move(level: str, view: VariantMatchView) -> str:
    """The move of a variant's computer player of `level` for `view` (runs in a worker)."""
    from bot.ai.variants import VARIANT_LEVELS, make_variant_player

    level = level if level in VARIANT_LEVELS else "standard"
    player = _VARIANT_PLAYERS.get(level)
    if player is None:
        player = _VARIANT_PLAYERS[level] = make_variant_player(level)
    return str(player.choose(view))


def choose_move(level: str, view: MatchView | VariantMatchView) -> str:
    """The move of a computer player of `level` for `view` (runs in a worker)."""
    if isinstance(view, VariantMatchView):
        return choose_variant_move(level, view)
    player = _PLAYERS.get(level)
    if player is None:
        player = _PLAYERS[level] = make_player(level)
    return player.choose(view)


# The coach's experts, by search budget (worlds a decision): one per worker, as the players.
_COACHES: dict[int, Any] = {}

# Worlds a decision for a hint and for a review: as many as the tables' experts search, so that
# with the same seed (0, as `make_player` gives) a computer's own move is graded at no cost. A
# whole deal's review at this effort takes well under its target (bench/coach.py).
HINT_BUDGET = REVIEW_BUDGET = DEFAULT_BUDGET


def _coach(budget: int) -> Any:
    expert = _COACHES.get(budget)
    if expert is None:
        from bot.ai.expert import ExpertPlayer

        expert = _COACHES[budget] = ExpertPlayer(budget=budget)
    return expert


def analyse_move(view: MatchView, budget: int = HINT_BUDGET) -> Any:
    """The coach's `Analysis` of the decision in `view` (runs in a worker)."""
    return _coach(budget).analyse(view)


def grade_moves(decisions: list[Any], budget: int = REVIEW_BUDGET) -> list[Any]:
    """The coach's grades of replayed `Decision`s, costliest first (runs in a worker)."""
    from bot.ai.coach import grade_all

    return grade_all(_coach(budget), decisions)


def _worker_start() -> None:
    """In each worker: leave Ctrl-C to the bot. The terminal sends SIGINT to the whole process
    group; the bot then shuts its workers down in order, and a worker stopped by the signal
    mid-search would only print a traceback. And end with the bot: see `_outlive_no_bot`."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    parent = os.getppid()
    threading.Thread(target=_outlive_no_bot, args=(parent,), name="bot-watch", daemon=True).start()


# Seconds between a worker's looks at whether the bot that started it still runs.
PARENT_CHECK_SECONDS = 1.0


def _outlive_no_bot(parent: int) -> None:
    """A bot killed outright (kill -9, out of memory) cannot end its workers: each would wait
    for work for ever, holding its memory and the bot's standard error. A worker whose parent
    is gone is given to another process (its parent id changes): it then ends at once."""
    while os.getppid() == parent:
        time.sleep(PARENT_CHECK_SECONDS)
    os._exit(0)


def default_workers() -> int:
    """Worker processes: every core but one, which the event loop keeps for the members."""
    return max(1, (os.cpu_count() or 2) - 1)


class ComputerSeats:
    """Chooses computer moves in worker processes (or in the executor given).

    Args:
        executor: where to run the players; by default a pool of `workers` processes, started
            on the first move ("spawn": a fork of a process running database threads is unsafe).
        workers: the default pool's size (`default_workers()` if None).
    """

    def __init__(self, executor: Executor | None = None, workers: int | None = None) -> None:
        self._own = executor is None
        self._workers = workers or default_workers()
        self._executor = executor or self._new_pool()

    def _new_pool(self) -> Executor:
        return ProcessPoolExecutor(
            self._workers,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_worker_start,
        )

    async def choose(self, table_id: int, level: str, view: MatchView | VariantMatchView) -> str:
        """The move for the seat of `view` at table `table_id`, chosen off the event loop.
        Forced moves take no search."""
        if len(view.deal.legal) == 1:
            return view.deal.legal[0]
        return str(await self._run(table_id, choose_move, level, view))

    async def analyse(self, table_id: int, view: MatchView) -> Any:
        """The coach's analysis of the decision in `view` (a hint), off the event loop."""
        return await self._run(table_id, analyse_move, view)

    async def grade(self, table_id: int, decisions: list[Any]) -> list[Any]:
        """The coach's grades of a deal's decisions (a review), off the event loop."""
        return list(await self._run(table_id, grade_moves, decisions))

    async def _run(self, table_id: int, work: Any, *args: Any) -> Any:
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._executor, work, *args)
        except BrokenProcessPool:
            if not self._own:
                raise
            # A worker died (killed, out of memory): start a new pool and ask once more.
            log.warning("computer players' pool broke; starting a new one (table %s)", table_id)
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = self._new_pool()
            return await loop.run_in_executor(self._executor, work, *args)

    def close(self) -> None:
        """End the worker processes and wait for them (a search under way is let finish).

        Waiting means every worker has ended, and the pool's queues and their semaphores are
        released, while the bot is still shutting down in order, not in the interpreter's last
        moments. It blocks for up to one move's search: call it off the event loop (`aclose`)."""
        if self._own:
            self._executor.shutdown(wait=True, cancel_futures=True)

    async def aclose(self) -> None:
        """`close`, in a thread, so the event loop runs on meanwhile."""
        await asyncio.to_thread(self.close)
