"""A process's own figures: REST answers counted by scope, stored actions as a rate, and the
METRICS_PORT setting."""

from __future__ import annotations

import pytest

from bot.config import ConfigError, load_settings
from bot.metrics import RATE_WINDOW, Metrics


def test_429s_are_counted_apart_and_global_ones_by_either_header():
    metrics = Metrics()
    metrics.rest_answered(200, {})
    metrics.rest_answered(429, {"X-RateLimit-Scope": "user"})
    metrics.rest_answered(429, {"X-RateLimit-Scope": "global"})
    metrics.rest_answered(429, {"X-RateLimit-Global": "true"})
    assert (metrics.rest_requests, metrics.rest_429, metrics.rest_global_429) == (4, 3, 2)


def test_events_per_second_is_measured_over_the_last_minute():
    metrics = Metrics()
    assert metrics.events_per_second(0, now=0.0) == 0.0  # one sample: no rate yet
    assert metrics.events_per_second(100, now=10.0) == 10.0
    # Reports every 15 s: busy for two minutes, then a quiet minute. The rate is taken from the
    # last report at least a minute old, so it follows the quiet minute, not the whole run.
    total = 100
    for step in range(1, 9):
        total += 15 * 20
        metrics.events_per_second(total, now=10.0 + 15 * step)
    assert metrics.events_per_second(total, now=10.0 + 15 * 8) == pytest.approx(20.0)
    for step in range(9, 14):
        metrics.events_per_second(total, now=10.0 + 15 * step)
    assert metrics.events_per_second(total, now=10.0 + 15 * 13) == 0.0
    assert RATE_WINDOW == 60.0


def settings(**env: str):
    return load_settings({"DISCORD_TOKEN": "t", **env}, dotenv=False)


def test_metrics_are_served_only_when_a_port_is_set():
    assert settings().metrics_port is None
    s = settings(METRICS_PORT="9108", METRICS_HOST="0.0.0.0")
    assert (s.metrics_port, s.metrics_host) == (9108, "0.0.0.0")
    assert settings(METRICS_PORT="9108").metrics_host == "127.0.0.1"


@pytest.mark.parametrize(
    ("port", "problem"),
    [("0", "from 1 to 65535"), ("70000", "from 1 to 65535"), ("nine", "whole number")],
)
def test_a_bad_metrics_port_is_refused_naming_it(port: str, problem: str):
    with pytest.raises(ConfigError, match="METRICS_PORT") as error:
        settings(METRICS_PORT=port)
    assert problem in str(error.value)
