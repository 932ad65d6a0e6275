"""What one process of the bot is doing: for `/admin status` and for Prometheus.

Counted here:
- the requests this process sent to Discord's REST API, and the ones answered 429 (rate
  limited), by scope: a `global` 429 means the whole bot went past Discord's 50 requests/s, which
  every process shares; another 429 is one route's bucket. discord.py waits and retries both; a
  count that grows says the bot is too busy for its budget (or needs a REST proxy).
- the accepted actions stored (the manager's `stored_events`), as a rate over the last minute.

The REST counts come from an `aiohttp.TraceConfig` handed to discord.py (`Client(http_trace=)`,
documented for this), so nothing of discord.py's own request path is replaced.

With `METRICS_PORT` set, the same figures are served for Prometheus by `prometheus-client`, on
`METRICS_HOST` (127.0.0.1 unless told otherwise: the figures are for the operator's scraper,
not the world). The server runs in `prometheus-client`'s own thread; it reads plain counters
that the event loop writes, which the GIL keeps whole.
"""

from __future__ import annotations

import logging
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import aiohttp
from prometheus_client import CollectorRegistry, start_http_server
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from bot.rest_budget import is_rest
from bot.storage.processes import ProcessFigures

log = logging.getLogger(__name__)

RATE_WINDOW = 60.0  # seconds over which events per second are averaged


@dataclass
class Metrics:
    """The counters of one process. The bot owns one; tests may make as many as they like."""

    rest_requests: int = 0
    rest_429: int = 0  # every 429, global ones included
    rest_global_429: int = 0
    started: float = field(default_factory=time.time)
    # (monotonic seconds, events stored so far), oldest first, for the rate over RATE_WINDOW.
    _samples: deque[tuple[float, int]] = field(default_factory=deque)

    def rest_answered(self, status: int, headers: Any) -> None:
        """Count one answer from Discord's REST API (its status and headers)."""
        self.rest_requests += 1
        if status == 429:
            self.rest_429 += 1
            scope = str(headers.get("X-RateLimit-Scope", "")).lower()
            if scope == "global" or str(headers.get("X-RateLimit-Global", "")).lower() == "true":
                self.rest_global_429 += 1

    def trace_config(self) -> aiohttp.TraceConfig:
        """An aiohttp trace that counts every answer of the REST API (`Client(http_trace=)`)."""

        async def on_request_end(
            session: aiohttp.ClientSession,
            context: SimpleNamespace,
            params: aiohttp.TraceRequestEndParams,
        ) -> None:
            if is_rest(params.url.path):
                self.rest_answered(params.response.status, params.response.headers)

        trace = aiohttp.TraceConfig()
        trace.on_request_end.append(on_request_end)
        return trace

    def events_per_second(self, events_total: int, now: float | None = None) -> float:
        """The rate of stored events over about the last minute, given the total stored now.

        Each call is also a sample; the rate is measured between the oldest sample still in the
        window and this one (0 until two samples are at least a second apart).
        """
        now = time.monotonic() if now is None else now
        self._samples.append((now, events_total))
        while len(self._samples) > 2 and now - self._samples[1][0] >= RATE_WINDOW:
            self._samples.popleft()
        first_time, first_total = self._samples[0]
        elapsed = now - first_time
        return (events_total - first_total) / elapsed if elapsed >= 1.0 else 0.0


class _Collector(Collector):
    """Turns the live figures into Prometheus metrics at each scrape."""

    def __init__(self, metrics: Metrics, figures: Callable[[], ProcessFigures]) -> None:
        self.metrics = metrics
        self.figures = figures

    def collect(self) -> Iterator[Metric]:
        now = self.figures()
        stored = CounterMetricFamily("euchre_events_stored", "Accepted actions stored.")
        stored.add_metric([], now.events_total)
        yield stored
        tables = GaugeMetricFamily("euchre_tables_open", "Open tables this process serves.")
        tables.add_metric([], now.tables)
        yield tables
        shards = GaugeMetricFamily("euchre_shards", "Gateway shards this process runs.")
        shards.add_metric([], len(now.shards))
        yield shards
        requests = CounterMetricFamily("euchre_rest_requests", "Requests sent to Discord's API.")
        requests.add_metric([], now.rest_requests)
        yield requests
        limited = CounterMetricFamily(
            "euchre_rest_rate_limited", "Requests Discord answered 429.", labels=["scope"]
        )
        limited.add_metric(["global"], now.rest_global_429)
        limited.add_metric(["route"], now.rest_429 - now.rest_global_429)
        yield limited
        if now.latency_ms is not None:
            latency = GaugeMetricFamily("euchre_gateway_latency_seconds", "Heartbeat latency.")
            latency.add_metric([], now.latency_ms / 1000)
            yield latency
        started = GaugeMetricFamily("euchre_start_time_seconds", "When this process started.")
        started.add_metric([], now.started)
        yield started


class MetricsUnavailable(RuntimeError):
    """The metrics' port cannot be listened on (taken by another process, a bad host)."""


class MetricsServer:
    """Prometheus's view of one process, served over HTTP on `port` (0: any free port)."""

    def __init__(self, metrics: Metrics, figures: Callable[[], ProcessFigures]) -> None:
        self.registry = CollectorRegistry()
        self.registry.register(_Collector(metrics, figures))
        self._server: Any = None
        self.port: int | None = None

    def start(self, port: int, host: str = "127.0.0.1") -> None:
        """Serve `/metrics` from a thread of prometheus-client's.

        Raises:
            MetricsUnavailable: the port is taken or the host cannot be listened on.
        """
        try:
            self._server, _thread = start_http_server(port, addr=host, registry=self.registry)
        except OSError as error:
            raise MetricsUnavailable(
                f"cannot serve metrics on {host}:{port} (METRICS_HOST, METRICS_PORT):"
                f" {error.strerror or error}"
            ) from None
        self.port = self._server.server_port
        log.info("serving metrics on http://%s:%s/metrics", host, self.port)

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None
