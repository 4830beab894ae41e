"""CSV downloads for the books and the record.

Every cell goes through `csv_cell`: a spreadsheet runs a cell that starts with = + - @ (or a tab
or carriage return) as a formula, so a player named `=HYPERLINK(...)` would become a link in
the books. Such text cells get a leading `'` (the OWASP advice; spreadsheets hide it). Numbers
stay numbers, negative ones included: they are written as numbers, and a text cell that is
nothing but a number (`-150`, `+3.5`) cannot be a formula, so it stays as it is too.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterable, Sequence
from typing import Any

from django.http import HttpResponse

_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_PLAIN_NUMBER = re.compile(r"[+-]?\d+(?:[.,]\d+)?")


def csv_cell(value: Any) -> Any:
    """The value as a spreadsheet may read it safely (text that could start a formula gets a
    leading apostrophe); anything but text is returned unchanged."""
    if not isinstance(value, str) or not value.startswith(_FORMULA_START):
        return value
    if _PLAIN_NUMBER.fullmatch(value):
        return value
    return "'" + value


def csv_response(
    filename: str, header: Sequence[str], rows: Iterable[Sequence[Any]], *, bom: bool = False
) -> HttpResponse:
    """A CSV download. `bom`: start with the UTF-8 byte order mark, so that a spreadsheet
    opened by a double click reads the file as UTF-8 (umlauts intact), not as the system's
    legacy code page."""
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    if bom:
        response.write("\ufeff")
    writer = csv.writer(response)
    writer.writerow([csv_cell(v) for v in header])
    writer.writerows([csv_cell(v) for v in row] for row in rows)
    return response
