"""Storage errors whose messages can be shown to a player or an organiser as they are."""

from __future__ import annotations


class StorageError(Exception):
    """A storage operation was refused; ``str(error)`` is readable by a player."""


class MigrationError(StorageError):
    """The schema migrations on disk or in the database file are not in a usable state."""


class StatsError(StorageError):
    """A statistics or leaderboard question cannot be answered (bad metric, page, member...)."""


class DatabaseFileError(StorageError):
    """The database file cannot be used: a missing directory, a file that is not a database."""


class WriterClosed(StorageError):
    """A write asked for once the bot has begun to stop: nothing of it is stored."""
