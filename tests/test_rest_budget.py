"""Each process's share of Discord's global REST budget: requests leave in order, at the rate,
after a burst; interaction responses and follow-ups are not counted."""

from __future__ import annotations

import asyncio

import pytest

from bot.config import ConfigError, load_settings
from bot.rest_budget import (
    DISCORD_GLOBAL_LIMIT,
    BudgetClosed,
    RestBudget,
    counts_globally,
    process_burst,
    process_share,
)


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_burst_goes_at_once_then_requests_are_spaced_at_the_rate():
    clock = Clock()
    budget = RestBudget(10.0, burst=3, clock=clock)
    assert [budget.reserve() for _ in range(3)] == [0.0, 0.0, 0.0]
    assert budget.reserve() == pytest.approx(0.1)
    assert budget.reserve() == pytest.approx(0.2)
    clock.now += 10  # a quiet spell gives the whole burst back
    assert [budget.reserve() for _ in range(3)] == [0.0, 0.0, 0.0]


def test_over_any_second_no_more_than_rate_plus_burst_leave():
    clock = Clock()
    budget = RestBudget(40.0, clock=clock)
    departures = [clock.now + budget.reserve() for _ in range(400)]
    assert departures == sorted(departures)  # in the order asked
    for start in departures:
        in_second = sum(start <= t < start + 1.0 for t in departures)
        assert in_second <= 40 + budget.burst


async def test_a_closed_budget_drops_what_waits_and_lets_what_is_due_go():
    """At a stop, requests still waiting for their slot are dropped, not sent all at once."""
    clock = Clock()
    budget = RestBudget(1.0, burst=1, clock=clock)
    await budget.acquire()  # the first goes at once
    waiting = asyncio.create_task(budget.acquire())  # the next slot is a second away
    await asyncio.sleep(0)
    budget.close()
    with pytest.raises(BudgetClosed):
        await waiting
    with pytest.raises(BudgetClosed):
        await budget.acquire()  # asked for after the stop, and not yet due
    clock.now += 100.0
    await budget.acquire()  # due: it goes


def test_a_process_keeps_to_its_shards_share():
    assert process_share(40.0, None, None) == 40.0
    assert process_share(40.0, 4, None) == 40.0  # one process runs all four shards
    assert process_share(40.0, 4, (0,)) == 10.0
    assert process_share(40.0, 4, (1, 3)) == 20.0


@pytest.mark.parametrize(("shard_count", "processes"), [(None, 1), (2, 2), (4, 4), (16, 8), (3, 3)])
def test_every_process_bursting_at_once_keeps_the_bot_under_discords_limit(shard_count, processes):
    """After a quiet spell every process may send its burst in the same second (many tables
    starting at once): together they must stay under Discord's 50 a second, with room to
    spare for requests that reach Discord closer together than they left. A burst as large
    as each process's rate let the default budget of 40 send 80 in a second."""
    clock = Clock()
    departures = []
    per_process = (shard_count or 1) // processes
    for n in range(processes):
        shards = (
            None if shard_count is None else tuple(range(n * per_process, (n + 1) * per_process))
        )
        share = process_share(40.0, shard_count, shards)
        budget = RestBudget(share, burst=process_burst(40.0, share), clock=clock)
        departures += [clock.now + budget.reserve() for _ in range(200)]
    departures.sort()
    # (A hair under a second: departures k/rate apart sum to a second in floating point.)
    most = max(sum(start <= t < start + 0.999999 for t in departures) for start in departures)
    assert most <= 45 < DISCORD_GLOBAL_LIMIT, most


def test_a_small_budget_keeps_a_burst_of_its_rate():
    assert process_burst(4.0, 2.0) == 2
    assert process_burst(40.0, 40.0) == 5  # one process: half the margin of 10
    assert process_burst(40.0, 20.0) == 2
    assert process_burst(60.0, 30.0) == 1  # a budget over Discord's limit: no burst at all


def test_interaction_responses_and_followups_are_not_counted():
    assert counts_globally("/api/v10/channels/1/messages")
    assert not counts_globally("/api/v10/interactions/1/tok/callback")
    assert not counts_globally("/api/v10/webhooks/2/tok/messages/@original")
    assert not counts_globally("/")  # the gateway


def settings(**env: str):
    return load_settings({"DISCORD_TOKEN": "t", **env}, dotenv=False)


def test_the_budget_setting_defaults_to_40_and_0_turns_it_off():
    assert settings().rest_budget == 40.0
    assert settings(REST_BUDGET="0").rest_budget == 0.0
    with pytest.raises(ConfigError, match="REST_BUDGET"):
        settings(REST_BUDGET="-1")
    with pytest.raises(ConfigError, match="REST_BUDGET must be from 0"):
        settings(REST_BUDGET="20000")
    with pytest.raises(ValueError):
        RestBudget(0.0)


def test_after_a_stall_what_was_due_meanwhile_still_leaves_at_the_rate():
    """The event loop stalled (a long collection, a busy machine), so every request whose slot
    passed meanwhile wakes at once: they leave no more than rate + burst in any second, not all
    together (Discord would count them in one second, and answer the rest with global 429s)."""
    clock = Clock()
    budget = RestBudget(20.0, burst=2, clock=clock)
    waits = [budget.reserve() for _ in range(60)]  # slots over the next 2.9 s
    clock.now += max(waits) + 0.5  # the loop wakes them all late, together
    assert [budget.depart() for _ in range(60)].count(0.0) == 22
    clock.now += 0.5
    assert budget.depart() > 0  # still within the second of those 22
    clock.now += 0.5
    assert [budget.depart() for _ in range(38)].count(0.0) == 22


async def test_requests_that_wake_together_wait_for_the_second_to_pass():
    clock = Clock()
    budget = RestBudget(1.0, burst=1, clock=clock)
    await budget.acquire()  # the budget's one a second
    clock.now += 5  # a quiet spell: the next slot has come
    budget._departed.extend([clock.now, clock.now])  # as if two had just left (rate + burst)
    waiting = asyncio.create_task(budget.acquire())
    await asyncio.sleep(0)
    assert not waiting.done()  # waits for the second, though its slot has come
    budget.close()
    with pytest.raises(BudgetClosed):
        await waiting
