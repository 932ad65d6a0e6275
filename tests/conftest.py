"""Session-wide test set-up: the throwaway PostgreSQL server of ``tests/support/postgres.py``.

It is started only by a test that needs it (the PostgreSQL tests, or every storage and manager
test when ``EUCHRE_TEST_DATABASE=postgres``), each test's databases are dropped after it, and
the server is stopped when the session ends. When it cannot start, the tests that need it skip
and the summary says so in capitals. Under pytest-xdist (``-n``) each worker starts its own
server, and tells the controller, which prints the summary, why one could not start.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from tests.support import postgres

# The README's install copies .env.example to .env in the checkout before it runs the tests, and
# the bot reads the .env beside its code when the folder it runs in has none: every bot process
# a test starts (in a folder of its own) would take the operator's settings (a database URL,
# shards, a metrics port) on top of the ones the test gives it. No .env is read in a test run;
# a test of .env files themselves takes this out of its bot's environment.
os.environ["PYTHON_DOTENV_DISABLED"] = "1"


@pytest.fixture(scope="session", autouse=True)
def _postgres_server_stops() -> Iterator[None]:
    yield
    postgres.stop()


@pytest.fixture(autouse=True)
def _postgres_databases_dropped() -> Iterator[None]:
    yield
    postgres.forget_databases()


def pytest_report_header() -> str:
    return f"database backend of the storage and manager suites: {postgres.BACKEND}"


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """`-n auto`: one worker more than the cores. A third of the suite's time is spent waiting
    (bot processes started and stopped, leases running out, IDENTIFY turns, REST budgets): on
    two cores the whole run used 630 s of CPU in about 450 s, so two workers left a core idle
    for a third of it. A third worker fills that time."""
    return (os.cpu_count() or 1) + 1


_WORKERS_FAILURE: list[str] = []


def pytest_sessionfinish(session: pytest.Session) -> None:
    # In an xdist worker: hand the reason to the controller (`pytest_testnodedown`).
    output = getattr(session.config, "workeroutput", None)
    if output is not None and postgres.failure() is not None:
        output["postgres_failure"] = postgres.failure()


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: object, error: object) -> None:
    reason = getattr(node, "workeroutput", {}).get("postgres_failure")
    if reason:
        _WORKERS_FAILURE.append(reason)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    reason = postgres.failure() or next(iter(_WORKERS_FAILURE), None)
    if reason is not None:
        terminalreporter.write_line(
            f"POSTGRESQL COULD NOT START: ITS TESTS WERE SKIPPED. {reason}", red=True, bold=True
        )
