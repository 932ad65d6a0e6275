"""Storage errors whose messages can be shown to a player or an organiser as they are."""

from __future__ import annotations


class StorageError(Exception):
    """A storage operation was refused; ``str(error)`` is readable by a player."""


class MigrationError(StorageError):
    """The schema migrations on disk or in the database file are not in a usable state."""


class StatsError(StorageError):
    """A statistics or leaderboard question cannot be answered (bad metric, page, member...)."""


class NoGamesYet(StatsError):
    """The member has no recorded game on the server: no statistics to show (their hints,
    counted apart, may still be)."""


class DatabaseFileError(StorageError):
    """The database file cannot be used: a missing directory, a file that is not a database."""


class DatabaseUnreachable(DatabaseFileError):
    """The database server cannot be reached now (refused, down, starting, or its name not
    found): unlike a bad file or a refused login, trying again later may mend it."""


# What a member is told of a request that reaches the bot as it stops: it changed nothing.
RESTARTING = "the bot is restarting: please try again in a moment"


class WriterClosed(StorageError):
    """A write asked for once the bot has begun to stop: nothing of it is stored."""


class IntegrityError(Exception):
    """A statement broke a constraint (unique, foreign key, check), whichever the backend.

    ``constraint`` names what was broken where the backend says: SQLite's message names the
    columns (``tables.channel_id``), PostgreSQL's error the constraint or index
    (``tables_one_open_per_channel``); :meth:`concerns` checks either.
    """

    def __init__(self, message: str, constraint: str | None = None) -> None:
        super().__init__(message)
        self.constraint = constraint

    def concerns(self, *names: str) -> bool:
        """Whether the message or the constraint names any of `names`."""
        text = f"{self} {self.constraint or ''}"
        return any(name in text for name in names)


class LeaseLost(StorageError):
    """A table's write came from a process that no longer holds the table's lease (another
    process took the table over): nothing of it is stored."""


class AlreadyApplied(StorageError):
    """A request's Discord interaction was applied before (delivered twice): nothing of it is
    stored the second time."""
