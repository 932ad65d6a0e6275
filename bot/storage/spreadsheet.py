"""CSV that a spreadsheet opens safely: names members typed are never read as formulas.

A cell starting with `=`, `+`, `-` or `@` (or a tab or carriage return, which some
spreadsheets skip before reading one of those) is taken for a formula by Excel, LibreOffice and
Google Sheets: a display name `=HYPERLINK("http://…")` would become a link in an organiser's
sheet. Such text is written with a leading apostrophe, which those programs show as text.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable
from typing import IO

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def cell(value: object) -> object:
    """A value as a cell: text that would start a formula is quoted; numbers stay numbers."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def write_rows(out: IO[str], header: list[str], rows: Iterable[Iterable[object]]) -> None:
    """A header, then each row with every cell made safe."""
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    writer.writerows([cell(v) for v in row] for row in rows)
