"""Settling the garbage collector: survivors frozen, cyclic garbage still reclaimed."""

from __future__ import annotations

import asyncio
import gc
import weakref

import pytest

from bot import collector


class Node:
    def __init__(self) -> None:
        self.other: Node | None = None


def _cycle() -> weakref.ref[Node]:
    a, b = Node(), Node()
    a.other, b.other = b, a
    return weakref.ref(a)


@pytest.fixture
def thawed():
    """Leave the process's collector as it was found: nothing frozen, its thresholds."""
    thresholds = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*thresholds)


def test_settling_collects_the_youngest_generation_less_often_and_cycles_still_go(thawed):
    gc.set_threshold(700, 10, 10)
    collector.settle()
    assert gc.get_threshold() == (collector.YOUNG_THRESHOLD, 10, 10)
    # Garbage in a cycle is still found by the collections that allocations bring about.
    gone = _cycle()
    kept = []  # containers kept alive: what makes the collector count up to a collection
    for _ in range(collector.YOUNG_THRESHOLD * 3):
        kept.append(Node())
        if gone() is None:
            break
    assert gone() is None


def test_settling_freezes_what_survives_so_later_collections_skip_it(thawed):
    kept = [Node() for _ in range(100)]
    frozen = collector.settle()
    assert frozen == gc.get_freeze_count() >= len(kept)
    # What is frozen is not in any generation a collection scans.
    assert not any(obj is kept[0] for obj in gc.get_objects())


def test_settling_again_collects_a_cycle_that_became_garbage_after_it_was_frozen(thawed):
    holder = [_cycle()]
    node = holder[0]()
    collector.settle()  # the cycle is alive, and now frozen
    del node
    gc.collect()
    assert holder[0]() is not None  # a frozen cycle is not collected by ordinary collections
    collector.settle()  # thaw, collect everything, freeze again
    assert holder[0]() is None


async def test_keep_settled_settles_at_once_and_stops_when_cancelled(thawed):
    gc.unfreeze()
    task = asyncio.create_task(collector.keep_settled(every=3600))
    await asyncio.sleep(0)
    assert gc.get_freeze_count() > 0
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task


async def test_what_a_slow_full_collection_left_is_frozen_before_the_next_settling(
    thawed, monkeypatch
):
    """Tables opened after a settling are scanned by every full collection: once one is slow,
    what it left is frozen, long before the next settling."""
    monkeypatch.setattr(collector, "SLOW_FULL", 0.0)  # every full collection counts as slow
    task = asyncio.create_task(collector.keep_settled(every=3600, look_every=0.01))
    try:
        await asyncio.sleep(0.05)  # settled once; nothing slow since
        opened = [Node() for _ in range(1000)]  # the tables opened since
        assert any(obj is opened[0] for obj in gc.get_objects())
        gc.collect()  # a full collection: slow, by the mark above
        for _ in range(500):
            if not any(obj is opened[0] for obj in gc.get_objects()):
                break
            await asyncio.sleep(0.01)
        # Frozen: no later collection scans them.
        assert not any(obj is opened[0] for obj in gc.get_objects())
    finally:
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
    assert collector._FullCollections not in {type(c) for c in gc.callbacks}


async def test_a_quick_full_collection_freezes_nothing(thawed, monkeypatch):
    monkeypatch.setattr(collector, "SLOW_FULL", 3600.0)
    task = asyncio.create_task(collector.keep_settled(every=3600, look_every=0.01))
    try:
        await asyncio.sleep(0.05)
        opened = [Node() for _ in range(1000)]
        gc.collect()
        await asyncio.sleep(0.1)  # ten looks
        assert any(obj is opened[0] for obj in gc.get_objects())
    finally:
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
