"""A player list from a spreadsheet, for directors (docs/players.md, "A player list from a
spreadsheet"): upload a CSV or .xlsx file, say which column holds what, see every row with its
problems and likely duplicates, confirm. The file's rows wait in the session between the steps
(at most tournament/people_sheet.MAX_ROWS); the import writes all chosen rows or none.

Every refusal is a 4xx with its message and changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_POST

from core.errors import FloorError
from core.roles import director_required
from tournament.domain.people import Reason
from tournament.domain.people_sheet import (
    Field,
    LikelySame,
    MappingProblem,
    PersonRow,
    RowProblem,
    guess_mapping,
    likely_duplicates,
    mapping_problems,
    person_from_row,
)
from tournament.events import Actor
from tournament.models import Player
from tournament.people_sheet import MAX_ROWS, Sheet, SheetError, sheet_read
from tournament.services.people_import import (
    ImportRefused,
    RowError,
    known_people,
    people_import,
    rows_checked,
)

SESSION_KEY = "people_sheet"

FIELD_LABELS = {
    Field.FIRST_NAME: gettext_lazy("First name"),
    Field.LAST_NAME: gettext_lazy("Last name"),
    Field.NAME: gettext_lazy("Full name"),
    Field.DISPLAY_NAME: gettext_lazy("Display name (nickname)"),
    Field.EMAIL: gettext_lazy("E-mail"),
    Field.PHONE: gettext_lazy("Phone"),
    Field.MEMBERSHIP_NUMBER: gettext_lazy("Membership number"),
    Field.BIRTH_YEAR: gettext_lazy("Year of birth"),
    Field.COUNTRY: gettext_lazy("Country"),
    Field.NOTES: gettext_lazy("Notes"),
}

ROW_PROBLEMS = {
    RowProblem.NAME_MISSING: gettext_lazy("No name."),
    RowProblem.NAME_TOO_LONG: gettext_lazy("The name is longer than 120 characters."),
    RowProblem.DISPLAY_NAME_TOO_LONG: gettext_lazy(
        "The display name is longer than 60 characters."
    ),
    RowProblem.CONTROL_CHARACTERS: gettext_lazy("A cell holds control characters."),
    RowProblem.EMAIL_TOO_LONG: gettext_lazy("The e-mail address is too long."),
    RowProblem.PHONE_TOO_LONG: gettext_lazy("The phone number is longer than 40 characters."),
    RowProblem.BIRTH_YEAR_NOT_A_YEAR: gettext_lazy("The year of birth is not a year such as 1980."),
    RowProblem.BIRTH_YEAR_RANGE: gettext_lazy("The year of birth is not plausible."),
    RowProblem.MEMBERSHIP_TOO_LONG: gettext_lazy("A membership number has at most 40 characters."),
    RowProblem.MEMBERSHIP_CHARACTERS: gettext_lazy(
        "A membership number holds letters, digits and spaces, no control characters."
    ),
    RowProblem.NOTES_TOO_LONG: gettext_lazy("The notes are longer than 2000 characters."),
    RowProblem.COUNTRY_UNKNOWN: gettext_lazy(
        "The country is not a country's two-letter code (DE) or its name."
    ),
}

REASONS = {
    Reason.NAME_AND_BIRTH_YEAR: gettext_lazy("same name and year of birth"),
    Reason.NAME: gettext_lazy("same name, a year of birth missing"),
    Reason.EMAIL: gettext_lazy("same e-mail"),
    Reason.PHONE: gettext_lazy("same phone"),
    Reason.MEMBERSHIP_NUMBER: gettext_lazy("same membership number"),
}


@dataclass
class PreviewRow:
    row: int
    cells: list[str]
    person: PersonRow | None
    problems: list[str] = field(default_factory=list)
    same: list[dict[str, Any]] = field(default_factory=list)  # {player, row, reasons}
    skip: bool = False


def _sheet(request: HttpRequest) -> Sheet | None:
    data = request.session.get(SESSION_KEY)
    if not isinstance(data, dict):
        return None
    return Sheet(name=data["name"], header=data["header"], rows=[(r, c) for r, c in data["rows"]])


def _no_sheet(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "tournament/people_import.html",
        {
            "step": "upload",
            "max_rows": MAX_ROWS,
            "error": _("No file is waiting: upload the player list first."),
        },
        status=400,
    )


@director_required
def upload(request: HttpRequest) -> HttpResponse:
    """Step 1: the file. Read, checked and kept in the session; then the mapping."""
    context: dict[str, Any] = {"step": "upload", "max_rows": MAX_ROWS}
    if request.method != "POST":
        return render(request, "tournament/people_import.html", context)
    upload = request.FILES.get("file")
    try:
        if upload is None:
            raise SheetError(_("Choose a CSV or Excel (.xlsx) file."))
        sheet = sheet_read(upload.name or "", upload.read())
    except SheetError as exc:
        context["error"] = str(exc)
        return render(request, "tournament/people_import.html", context, status=400)
    request.session[SESSION_KEY] = {
        "name": sheet.name[:100],
        "header": sheet.header,
        "rows": [[r, c] for r, c in sheet.rows],
    }
    return redirect("people-import-map")


def _mapping_from(request: HttpRequest, sheet: Sheet) -> tuple[list[Field | None], list[str]]:
    """The mapping posted (`col_0`, `col_1`, …) and what is wrong with it, in words."""
    mapping: list[Field | None] = []
    errors: list[str] = []
    for i, heading in enumerate(sheet.header):
        value = request.POST.get(f"col_{i}", "")
        try:
            mapping.append(Field(value) if value else None)
        except ValueError:
            mapping.append(None)
            errors.append(
                _("Column “%(c)s”: choose one of the fields offered.") % {"c": heading or i + 1}
            )
    for problem, f in mapping_problems(mapping):
        if problem is MappingProblem.TWICE and f is not None:
            errors.append(
                _("“%(field)s” is chosen for more than one column.") % {"field": FIELD_LABELS[f]}
            )
        elif problem is MappingProblem.NAME_AND_PARTS:
            errors.append(
                _("Choose either a full name column or first and last name columns, not both.")
            )
        else:
            errors.append(_("Choose the column with the name (or first and last name)."))
    return mapping, errors


def _map_context(sheet: Sheet, mapping: list[Field | None], errors: list[str]) -> dict[str, Any]:
    columns = [
        {
            "index": i,
            "heading": heading,
            "chosen": chosen.value if chosen is not None else "",
            "examples": [cells[i] for _r, cells in sheet.rows[:3] if cells[i]],
        }
        for i, (heading, chosen) in enumerate(zip(sheet.header, mapping, strict=True))
    ]
    return {
        "step": "map",
        "sheet": sheet,
        "columns": columns,
        "fields": [(f.value, FIELD_LABELS[f]) for f in Field],
        "errors": errors,
    }


def _same_words(same: LikelySame, players: dict[int, Player]) -> dict[str, Any]:
    reasons = ", ".join(str(REASONS[r]) for r in sorted(same.reasons, key=list(Reason).index))
    return {"player": players.get(same.player_id or 0), "row": same.other_row, "reasons": reasons}


def _preview(sheet: Sheet, mapping: list[Field | None]) -> list[PreviewRow]:
    """Every row with its problems (the row's own and the database's) and likely duplicates;
    rows that look like someone known or an earlier row are left out unless unticked."""
    this_year = timezone.localdate().year
    rows = []
    for number, cells in sheet.rows:
        person, problems = person_from_row(cells, mapping, row=number, this_year=this_year)
        rows.append(
            PreviewRow(
                row=number,
                cells=cells,
                person=person,
                problems=[str(ROW_PROBLEMS[p]) for p in problems],
            )
        )
    people = [r.person for r in rows if r.person is not None]
    errors = {e.row: e.reasons for e in rows_checked(people)}
    found = likely_duplicates(people, known_people())
    ids = {s.player_id for sames in found.values() for s in sames if s.player_id}
    players = Player.objects.in_bulk(list(ids))
    for r in rows:
        r.problems += errors.get(r.row, [])
        r.same = [_same_words(s, players) for s in found.get(r.row, [])]
        r.skip = bool(r.same)
    return rows


def _preview_context(
    sheet: Sheet, mapping: list[Field | None], rows: list[PreviewRow]
) -> dict[str, Any]:
    shown = [(i, f) for i, f in enumerate(mapping) if f is not None]
    return {
        "step": "preview",
        "sheet": sheet,
        "mapping": [(i, f.value) for i, f in shown],
        "labels": [FIELD_LABELS[f] for _i, f in shown],
        "rows": [(r, [r.cells[i] for i, _f in shown]) for r in rows],
        "problem_count": sum(1 for r in rows if r.problems),
        "same_count": sum(1 for r in rows if r.same),
    }


@director_required
def map_columns(request: HttpRequest) -> HttpResponse:
    """Step 2: which column is which field (a first guess from the headings). Posted: the
    preview (step 3), or the mapping again with what is wrong (400)."""
    sheet = _sheet(request)
    if sheet is None:
        return _no_sheet(request)
    if request.method != "POST":
        context = _map_context(sheet, guess_mapping(sheet.header), [])
        return render(request, "tournament/people_import.html", context)
    mapping, errors = _mapping_from(request, sheet)
    if errors:
        context = _map_context(sheet, mapping, errors)
        return render(request, "tournament/people_import.html", context, status=400)
    context = _preview_context(sheet, mapping, _preview(sheet, mapping))
    return render(request, "tournament/people_import.html", context)


def _skipped(request: HttpRequest) -> set[int]:
    return {int(v) for v in request.POST.getlist("skip") if v.isascii() and v.isdigit()}


def _refused(
    request: HttpRequest, sheet: Sheet, mapping: list[Field | None], errors: list[RowError]
) -> HttpResponse:
    rows = _preview(sheet, mapping)
    skipped = _skipped(request)
    for r in rows:
        r.skip = r.row in skipped
    context = _preview_context(sheet, mapping, rows)
    context["refused"] = errors
    return render(request, "tournament/people_import.html", context, status=400)


@director_required
@require_POST
def confirm(request: HttpRequest) -> HttpResponse:
    """Step 4: import the rows not left out, in one transaction; with any row that cannot be
    written, nothing is, and every such row is listed with its number and reasons (400)."""
    sheet = _sheet(request)
    if sheet is None:
        return _no_sheet(request)
    mapping, mapping_errors = _mapping_from(request, sheet)
    if mapping_errors:
        context = _map_context(sheet, mapping, mapping_errors)
        return render(request, "tournament/people_import.html", context, status=400)
    skipped = _skipped(request)
    this_year = timezone.localdate().year
    people, errors = [], []
    for number, cells in sheet.rows:
        if number in skipped:
            continue
        person, problems = person_from_row(cells, mapping, row=number, this_year=this_year)
        if person is None:
            errors.append(RowError(row=number, reasons=[str(ROW_PROBLEMS[p]) for p in problems]))
        else:
            people.append(person)
    if errors:
        return _refused(request, sheet, mapping, errors)
    try:
        created = people_import(
            people=people, file_name=sheet.name, actor=Actor.from_request(request)
        )
    except ImportRefused as exc:
        return _refused(request, sheet, mapping, exc.errors)
    except FloorError as exc:  # no row left, or a membership number taken meanwhile
        return _refused(request, sheet, mapping, [RowError(row=0, reasons=[str(exc)])])
    del request.session[SESSION_KEY]
    messages.success(
        request,
        ngettext("%(n)s player was imported.", "%(n)s players were imported.", len(created))
        % {"n": len(created)},
    )
    return redirect("players")
