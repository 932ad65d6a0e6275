"""The bot's SQL, as written for SQLite, turned into what PostgreSQL accepts.

The repository modules write one SQL text for both backends: ``?`` (or ``:name``) parameters,
and otherwise statements both databases understand (``INSERT ... ON CONFLICT``, ``RETURNING``,
``COALESCE``...). What cannot be written once is translated here, for PostgreSQL only, and kept
small:

- parameters: ``?`` becomes ``$1``, ``$2``...; ``:name`` becomes ``$n`` with a name-to-number
  order, so a dict of parameters can be passed as a list;
- ``INDEXED BY index``, SQLite's hint to its query planner, is dropped (PostgreSQL's planner
  takes no hints);
- types: ``REAL`` is SQLite's 8-byte float, which PostgreSQL calls ``DOUBLE PRECISION``
  (its ``REAL`` has 4 bytes and would round the deadlines and ratings stored);
- in migrations only (:func:`schema`): SQLite's ``INTEGER`` is 8 bytes (Discord's ids need
  them), PostgreSQL's ``BIGINT``; ``id INTEGER PRIMARY KEY`` numbers its rows by itself in SQLite,
  which PostgreSQL asks for as an identity column; ``WITHOUT ROWID`` is dropped; and a table
  that SQLite gives an implicit ``rowid`` (no ``INTEGER PRIMARY KEY``, not ``WITHOUT ROWID``)
  gets an explicit ``rowid`` identity column, so ``ORDER BY rowid`` (the order rows were added)
  means the same on both.

Nothing is translated inside string literals, quoted names or comments.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

# One token of SQL: a string literal, a quoted name, a comment, a parameter, a word, or anything
# else one character at a time.
_TOKEN = re.compile(
    r"""
    (?P<string>'(?:[^']|'')*')
  | (?P<quoted>"(?:[^"]|"")*")
  | (?P<comment>--[^\n]*|/\*.*?\*/)
  | (?P<cast>::)
  | (?P<named>:[A-Za-z_][A-Za-z0-9_]*)
  | (?P<numbered>\?)
  | (?P<word>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<other>.)
    """,
    re.VERBOSE | re.DOTALL,
)


# SQLite's planner hint; no string literal in the bot's SQL contains these words.
_INDEXED_BY = re.compile(r"\bINDEXED\s+BY\s+\w+", re.IGNORECASE)


class ParameterError(ValueError):
    """A statement mixes ``?`` and ``:name`` parameters, or is given the wrong kind."""


@lru_cache(maxsize=4096)
def _statement(sql: str) -> tuple[str, tuple[str, ...] | None]:
    """The PostgreSQL text of a statement and, for ``:name`` parameters, their names in order."""
    out: list[str] = []
    names: list[str] = []
    numbered = 0
    for token in _TOKEN.finditer(_INDEXED_BY.sub(" ", sql)):
        kind, text = token.lastgroup, token.group()
        if kind == "numbered":
            numbered += 1
            out.append(f"${numbered}")
        elif kind == "named":
            name = text[1:]
            if name not in names:
                names.append(name)
            out.append(f"${names.index(name) + 1}")
        elif kind == "word" and text.upper() == "REAL":
            out.append("DOUBLE PRECISION")
        else:
            out.append(text)
    if numbered and names:
        raise ParameterError(f"a statement mixes ? and :name parameters: {sql!r}")
    return "".join(out), (tuple(names) if names else None)


def statement(sql: str, params: Sequence[Any] | Mapping[str, Any] = ()) -> tuple[str, list[Any]]:
    """One statement and its parameters, in PostgreSQL's form.

    Args:
        sql: the statement as the repository modules write it.
        params: a sequence for ``?`` parameters, a mapping for ``:name`` ones.

    Returns:
        The statement with ``$n`` parameters, and the parameter values in that order.

    Raises:
        ParameterError: ``?`` and ``:name`` are mixed, or a mapping is given for ``?``
            parameters (or the other way round), or a named parameter is missing.
    """
    text, names = _statement(sql)
    if names is None:
        if isinstance(params, Mapping):
            if params:
                raise ParameterError(f"named parameters given for ? parameters: {sql!r}")
            return text, []
        return text, list(params)
    if not isinstance(params, Mapping):
        raise ParameterError(f"a sequence given for :name parameters: {sql!r}")
    missing = [name for name in names if name not in params]
    if missing:
        raise ParameterError(f"no value for :{missing[0]} in {sql!r}")
    return text, [params[name] for name in names]


_CREATE_TABLE = re.compile(
    r"CREATE\s+TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?(?P<name>\w+)\s*\(", re.IGNORECASE
)
_WITHOUT_ROWID = re.compile(r"\)\s*WITHOUT\s+ROWID", re.IGNORECASE)
_ID_PRIMARY_KEY = re.compile(r"\bid\s+INTEGER\s+PRIMARY\s+KEY\b", re.IGNORECASE)
_INTEGER_PRIMARY_KEY = re.compile(r"\bINTEGER\s+PRIMARY\s+KEY\b", re.IGNORECASE)


def _strip_comments(sql: str) -> str:
    """The script without its comments (a comment may name a type or say WITHOUT ROWID)."""
    return "".join(
        token.group() if token.lastgroup != "comment" else " " for token in _TOKEN.finditer(sql)
    )


def _closing(sql: str, start: int) -> int:
    """The index of the parenthesis closing the one just before `start`."""
    depth = 1
    for token in _TOKEN.finditer(sql, start):
        text = token.group()
        if text == "(":
            depth += 1
        elif text == ")":
            depth -= 1
            if depth == 0:
                return token.start()
    raise ValueError("a CREATE TABLE without its closing parenthesis")


def _tables(sql: str) -> str:
    """Each CREATE TABLE in PostgreSQL's words (see the module's docstring)."""
    out: list[str] = []
    at = 0
    for found in _CREATE_TABLE.finditer(sql):
        if found.start() < at:
            continue
        end = _closing(sql, found.end())
        body = sql[found.end() : end]
        rest = sql[end:]
        suffix = _WITHOUT_ROWID.match(rest)
        without_rowid = suffix is not None
        if _ID_PRIMARY_KEY.search(body):
            body = _ID_PRIMARY_KEY.sub(
                "id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY", body
            )
        elif _INTEGER_PRIMARY_KEY.search(body):
            body = _INTEGER_PRIMARY_KEY.sub("BIGINT PRIMARY KEY", body)
        elif not without_rowid:
            body = body.rstrip() + ",\n    rowid BIGINT GENERATED ALWAYS AS IDENTITY\n"
        out.append(sql[at : found.end()] + body + ")")
        at = end + (len(suffix.group()) if suffix is not None else 1)
    out.append(sql[at:])
    return "".join(out)


def schema(sql: str) -> str:
    """A migration script in PostgreSQL's words.

    Args:
        sql: the script as written for SQLite (``bot/storage/migrations/NNNN_*.sql``).

    Returns:
        The same schema for PostgreSQL: see the module's docstring for what changes.
    """
    script = _tables(_strip_comments(sql))
    out: list[str] = []
    for token in _TOKEN.finditer(script):
        kind, text = token.lastgroup, token.group()
        if kind == "word" and text.upper() == "INTEGER":
            out.append("BIGINT")
        elif kind == "word" and text.upper() == "REAL":
            out.append("DOUBLE PRECISION")
        else:
            out.append(text)
    return "".join(out)
