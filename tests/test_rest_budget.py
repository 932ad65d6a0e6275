"""Each process's share of Discord's global REST budget: requests leave in order, at the rate,
after a burst; interaction responses and follow-ups are not counted."""

from __future__ import annotations

import pytest

from bot.config import ConfigError, load_settings
from bot.rest_budget import RestBudget, counts_globally, process_share


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


def test_a_process_keeps_to_its_shards_share():
    assert process_share(40.0, None, None) == 40.0
    assert process_share(40.0, 4, None) == 40.0  # one process runs all four shards
    assert process_share(40.0, 4, (0,)) == 10.0
    assert process_share(40.0, 4, (1, 3)) == 20.0


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
