"""Reading the fields of a record (parsed JSON) with their types checked, once, at the boundary.

Records come from other programs and from people's editors: a `dealNumber` may be a string, a
score `5.7` or `true`, a title a number or a string with a lone surrogate that no output can
write. Each reader here takes one field, checks its JSON type exactly (a bool is not a number,
a float is not a whole number) and returns it typed, or raises a `RecordError` that names the
field and quotes the value briefly. Past these readers the code works with the types it expects.
"""

from __future__ import annotations

from typing import Any

from bot.engine.errors import RecordError
from bot.engine.quoting import shown

# Far beyond any count or score in a game, far below any size that costs time to handle.
MAX_WHOLE = 10**6


def whole(value: Any, what: str, low: int = 0, high: int = MAX_WHOLE) -> int:
    """A whole number from `low` to `high` (`true` and `5.0` are not whole numbers)."""
    if type(value) is not int or not low <= value <= high:
        raise RecordError(f"{what} must be a whole number from {low} to {high}, not {shown(value)}")
    return value


def flag(value: Any, what: str) -> bool:
    """`true` or `false`."""
    if type(value) is not bool:
        raise RecordError(f"{what} must be true or false, not {shown(value)}")
    return value


def text(value: Any, what: str) -> str:
    """A string of Unicode text (a lone surrogate, which JSON can escape, is not text)."""
    if not isinstance(value, str):
        raise RecordError(f"{what} must be text, not {shown(value)}")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise RecordError(
            f"{what} is not Unicode text: it holds {shown(value[exc.start])} at character {exc.start}"
        ) from None
    return value


def texts(value: Any, what: str) -> tuple[str, ...]:
    """A list of strings of text."""
    return tuple(text(item, what) for item in items(value, what))


def items(value: Any, what: str) -> list[Any]:
    """A list (of anything: its items are read by their own readers)."""
    if not isinstance(value, list):
        raise RecordError(f"{what} must be a list, not {shown(value)}")
    return value


def mapping(value: Any, what: str) -> dict[str, Any]:
    """An object (of anything: its fields are read by their own readers)."""
    if not isinstance(value, dict):
        raise RecordError(f"{what} must be an object, not {shown(value)}")
    return value


def same(stored: Any, replayed: Any) -> bool:
    """Whether a stored value is the replayed one, types and all (`1.0` and `true` are not `1`)."""
    if type(stored) is not type(replayed):
        return False
    if isinstance(replayed, list):
        return len(stored) == len(replayed) and all(map(same, stored, replayed))
    if isinstance(replayed, dict):
        return stored.keys() == replayed.keys() and all(
            same(stored[key], value) for key, value in replayed.items()
        )
    return bool(stored == replayed)
