"""Computer seats: moves are chosen in worker processes, so a search never holds up the event
loop that answers the members' clicks."""

from __future__ import annotations

import asyncio
import os
import random
import signal

import pytest

from bot.ai import LEVELS, make_player
from bot.engine.match import Match
from bot.engine.rules import build_options
from bot.tables.computer import ComputerSeats


def _a_view_with_a_choice(seed: int):
    """The eldest hand's first declaration: pass, order, or order alone."""
    match = Match(build_options("somerset"), seed % 4, random.Random(seed))
    view = match.view_for(match.to_act)
    assert len(view.deal.legal) > 1
    return view


def _a_forced_view():
    """The first position with a single legal action (a card that must follow suit, or the
    last trick), reached by the standard player's play."""
    match = Match(build_options("modern"), 0, random.Random(3))
    player = make_player("standard", 0)
    for _ in range(200):
        view = match.view_for(match.to_act)
        if len(view.deal.legal) == 1:
            return view
        match.apply(player.choose(view), match.to_act)
    raise AssertionError("no forced move in 200 actions")


@pytest.fixture
def seats():
    seats = ComputerSeats(workers=1)
    yield seats
    seats.close()


async def test_every_level_moves_legally_from_a_worker_process(seats):
    loop = asyncio.get_running_loop()
    for n, level in enumerate(LEVELS):
        view = _a_view_with_a_choice(n)
        assert await seats.choose(1, level, view) in view.deal.legal
    worker = await loop.run_in_executor(seats._executor, os.getpid)
    assert worker != os.getpid()


async def test_a_forced_move_takes_no_search():
    seats = ComputerSeats(workers=1)
    seats.close()  # no worker at all: a forced move does not need one
    view = _a_forced_view()
    assert await seats.choose(1, "expert", view) == view.deal.legal[0]


async def test_a_worker_that_dies_is_replaced(seats):
    loop = asyncio.get_running_loop()
    view = _a_view_with_a_choice(5)
    assert await seats.choose(1, "standard", view) in view.deal.legal
    worker = await loop.run_in_executor(seats._executor, os.getpid)
    os.kill(worker, signal.SIGKILL)
    # The next move still comes, from a new pool.
    assert await seats.choose(1, "standard", view) in view.deal.legal
    assert await loop.run_in_executor(seats._executor, os.getpid) != worker
