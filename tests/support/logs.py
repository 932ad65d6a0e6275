"""Catching errors the bot only logs: a command, a click or a background task that failed."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager


class ErrorLog(logging.Handler):
    """Collects error records: a handler that failed is logged by discord.py or the bot."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@contextmanager
def logged_errors() -> Iterator[list[logging.LogRecord]]:
    """The error records logged while the block runs (the list fills as they come)."""
    errors = ErrorLog()
    root = logging.getLogger()
    root.addHandler(errors)
    try:
        yield errors.records
    finally:
        root.removeHandler(errors)
