"""Where the bot's data is: ``DATABASE_URL`` (or a plain SQLite path), read and checked.

``sqlite:///euchre.db`` is a file relative to the working directory and ``sqlite:////var/x.db``
an absolute one (three slashes, then the path); ``sqlite:///:memory:`` a throwaway database.
``postgresql://user:password@host:port/name`` (or ``postgres://``) is a PostgreSQL server,
reached through asyncpg, which reads the rest of the URL (``?host=/run/postgresql`` for a unix
socket, ``?sslmode=...``). Anything without a scheme is an SQLite path, as ``DATABASE_PATH``
always was.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from bot.storage.errors import StorageError

SCHEMES = ("sqlite", "postgresql")
_SCHEME = re.compile(r"^(?P<scheme>[A-Za-z][A-Za-z0-9+.\-]+)://")


class DatabaseUrlError(StorageError):
    """A database URL the bot cannot use: an unknown scheme, or no path or server in it."""


@dataclass(frozen=True, slots=True)
class DatabaseUrl:
    """A parsed database location.

    Attributes:
        scheme: "sqlite" or "postgresql".
        path: the SQLite file (``Path(":memory:")`` for a throwaway one); None for PostgreSQL.
        dsn: the PostgreSQL URL as asyncpg takes it; None for SQLite.
    """

    scheme: str
    path: Path | None = None
    dsn: str | None = None

    @classmethod
    def parse(cls, target: str | Path | DatabaseUrl) -> DatabaseUrl:
        """Read a ``DATABASE_URL`` or an SQLite path.

        Raises:
            DatabaseUrlError: an unknown scheme (the message lists the known ones), or an
                SQLite URL without a path.
        """
        if isinstance(target, DatabaseUrl):
            return target
        if isinstance(target, Path):
            return cls("sqlite", path=target)
        text = target.strip()
        found = _SCHEME.match(text)
        if found is None:
            if not text:
                raise DatabaseUrlError("the database URL is empty")
            return cls("sqlite", path=Path(text))
        scheme = found.group("scheme").lower()
        if scheme == "sqlite":
            path = text[found.end() :]
            if not path.startswith("/") or path == "/":
                raise DatabaseUrlError(
                    f"{text!r} has no file path: write sqlite:///euchre.db (a relative path) or "
                    "sqlite:////absolute/path/euchre.db"
                )
            return cls("sqlite", path=Path(path[1:]))
        if scheme in ("postgresql", "postgres"):
            _check_postgres(text)
            return cls("postgresql", dsn=text)
        raise DatabaseUrlError(
            f"unknown database scheme {scheme!r}: use sqlite:///path/to/euchre.db (or a file's"
            " path) or postgresql://user@host:port/database"
        )

    @property
    def display(self) -> str:
        """The location as shown in messages and logs: the file, or the URL without password."""
        if self.path is not None:
            return str(self.path)
        assert self.dsn is not None
        parts = urlsplit(self.dsn)
        if parts.password is None:
            return self.dsn
        netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
        return urlunsplit(parts._replace(netloc=netloc))

    def __str__(self) -> str:
        return self.display


def _check_postgres(text: str) -> None:
    """Refuse a PostgreSQL URL whose host or port cannot be read (a typo in the port, an
    unclosed IPv6 bracket) here, in one line, rather than deep in the driver."""
    try:
        parts = urlsplit(text)
        parts.port  # noqa: B018 - reading it is the check: a port that is no number raises
    except ValueError as error:
        shown = re.sub(r"(//[^:/@]*:)[^@/]*@", r"\1***@", text)  # never a password
        raise DatabaseUrlError(f"the PostgreSQL URL {shown!r} cannot be read: {error}") from None
