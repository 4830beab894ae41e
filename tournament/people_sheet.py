"""Reading a player list: a CSV file (Python's csv module; UTF-8, or Windows-1252 as a German
Excel saves it; comma, semicolon or tab) or an Excel workbook (.xlsx, its first sheet, read by
openpyxl with defusedxml). The first row holds the headings. Bounded before anything is parsed:
the file's size (FLOOR_UPLOAD_MAX_BYTES), the unpacked size of a workbook, the rows and the
columns. Every refusal is a SheetError with a message; nothing else escapes.
"""

from __future__ import annotations

import csv
import datetime
import io
import zipfile
from dataclasses import dataclass

from django.conf import settings
from django.utils.translation import gettext as _

from core.errors import FloorError

MAX_ROWS = 2000  # people in one file, headings not counted
MAX_COLUMNS = 30
MAX_CELL = 2000  # characters in one cell (the longest field, notes)
# Characters in all cells together: what waits in the session between the steps (a small
# workbook can repeat one long shared string in every cell).
MAX_TEXT = 1_000_000
# A workbook is a zip: its unpacked parts may not exceed this (a small file can unpack to
# gigabytes).
MAX_UNPACKED = 40 * 1024 * 1024
_ZIP_MAGIC = b"PK\x03\x04"


class SheetError(FloorError):
    """The file cannot be read as a player list (400)."""


@dataclass(frozen=True)
class Sheet:
    name: str  # the file's name, for the pages
    header: list[str]
    rows: list[tuple[int, list[str]]]  # (row number in the sheet, cells); empty rows left out


def _too_many_rows() -> SheetError:
    return SheetError(
        _("The file has more than %(n)s rows of people. Split it into smaller files.")
        % {"n": MAX_ROWS}
    )


def _text(value: object) -> str:
    """A cell as text: whole numbers without '.0', dates as YYYY-MM-DD."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, datetime.datetime | datetime.date):
        return value.isoformat()[:10]
    return str(value)


def _table(name: str, lines: list[list[str]]) -> Sheet:
    """Headings and rows from the cells read, checked for size; empty rows dropped."""
    if not lines or not any(c.strip() for c in lines[0]):
        raise SheetError(_("The file is empty: the first row must hold the column headings."))
    header = [c.strip()[:100] for c in lines[0]]
    while header and not header[-1]:
        header.pop()
    if len(header) > MAX_COLUMNS:
        raise SheetError(_("The file has more than %(n)s columns.") % {"n": MAX_COLUMNS})
    rows = []
    total = 0
    for number, cells in enumerate(lines[1:], start=2):
        cells = [c.strip() for c in cells[: len(header)]]
        if not any(cells):
            continue
        if any(len(c) > MAX_CELL for c in cells):
            raise SheetError(
                _("Row %(row)s has a cell longer than %(n)s characters.")
                % {"row": number, "n": MAX_CELL}
            )
        total += sum(len(c) for c in cells)
        if total > MAX_TEXT:
            raise SheetError(_("The file holds too much text for a player list."))
        rows.append((number, cells + [""] * (len(header) - len(cells))))
    if not rows:
        raise SheetError(_("The file has headings but no rows of people."))
    if len(rows) > MAX_ROWS:
        raise _too_many_rows()
    return Sheet(name=name, header=header, rows=rows)


def _csv_lines(data: bytes) -> list[list[str]]:
    if b"\x00" in data:
        raise SheetError(_("This is not a spreadsheet: choose a CSV or an Excel (.xlsx) file."))
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = data.decode("cp1252", errors="replace")
    first = text.split("\n", 1)[0]
    delimiter = max((",", ";", "\t"), key=first.count)
    lines = []
    try:
        for line in csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True):
            lines.append(line)
            if len(lines) > MAX_ROWS + 1 + 1000:  # empty lines allowed, within reason
                raise _too_many_rows()
    except csv.Error as exc:
        raise SheetError(
            _("The CSV file cannot be read (line %(line)s): check its quotes.")
            % {"line": len(lines) + 1}
        ) from exc
    return lines


def _xlsx_lines(data: bytes) -> list[list[str]]:
    # inside: openpyxl is loaded only when a workbook comes (it is large to import)
    from openpyxl import load_workbook

    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            unpacked = sum(i.file_size for i in archive.infolist())
    except (zipfile.BadZipFile, ValueError, OSError) as exc:
        raise SheetError(_("The Excel file is damaged or not an .xlsx workbook.")) from exc
    if unpacked > MAX_UNPACKED:
        raise SheetError(_("The Excel file unpacks to more than 40 MB: save a smaller one."))
    lines: list[list[str]] = []
    try:
        book = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
        try:
            sheet = book.worksheets[0]
            for values in sheet.iter_rows(values_only=True, max_col=MAX_COLUMNS + 1):
                lines.append([_text(v) for v in values])
                if len(lines) > MAX_ROWS + 1 + 1000:
                    raise _too_many_rows()
        finally:
            book.close()
    except SheetError:
        raise
    except Exception as exc:  # openpyxl raises many kinds for a broken workbook: all are "damaged"
        raise SheetError(_("The Excel file is damaged or not an .xlsx workbook.")) from exc
    return lines


def sheet_read(name: str, data: bytes) -> Sheet:
    """The player list in `data` (the uploaded file's bytes); SheetError when it is none."""
    if not data:
        raise SheetError(_("The file is empty."))
    if len(data) > settings.FLOOR_UPLOAD_MAX_BYTES:
        raise SheetError(
            _("The file is larger than %(n)s KB: split it into smaller files.")
            % {"n": settings.FLOOR_UPLOAD_MAX_BYTES // 1024}
        )
    lower = name.lower()
    if data.startswith(_ZIP_MAGIC):
        return _table(name, _xlsx_lines(data))
    if lower.endswith((".xlsx", ".xlsm", ".xls", ".ods")):
        raise SheetError(_("The Excel file is damaged or not an .xlsx workbook."))
    return _table(name, _csv_lines(data))
