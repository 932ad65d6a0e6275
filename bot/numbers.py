"""Whole numbers and ids from text a person typed: ASCII digits only, and not too many of them.

`str.isdigit()` is true of `²` and `٣`, and `int()` reads `٣`, `１２` and `1_000` but not `²`,
so a check with one and a parse with the other disagree: `/record G²` passed the check and
failed the parse, and the member got an apology instead of a reason. Python also refuses to read
more than 4,300 digits, and SQLite stores no integer beyond 2**63 - 1. One rule for every id and
count the bot reads from a member, a setting or a command-line argument keeps them in agreement.
"""

from __future__ import annotations

# The largest integer SQLite stores; Discord's ids (snowflakes) are below it.
SQLITE_MAX = 2**63 - 1


def parse_whole(text: str, high: int = SQLITE_MAX) -> int | None:
    """The whole number `text` writes in ASCII digits, from 0 to `high`; None for anything else.

    Surrounding spaces are allowed; signs, underscores, other scripts' digits and superscripts
    are not.
    """
    digits = text.strip()
    if not digits or len(digits) > len(str(high)) or not (digits.isascii() and digits.isdigit()):
        return None
    value = int(digits)
    return value if value <= high else None
