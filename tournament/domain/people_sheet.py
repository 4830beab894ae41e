"""A player list from a spreadsheet (docs/players.md, "A player list from a spreadsheet"): which
column holds which field of a person's record, the checks of each row, and the rows that look
like people already known or like another row of the same file.

Plain Python: tournament/people_sheet.py reads the file into rows of text, the service
(tournament/services/people_import.py) checks the e-mail addresses and the membership numbers
against the database and writes; the words of each problem live in the views' module.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum

from tournament.domain.countries import country_clean
from tournament.domain.people import (
    PersonKeys,
    Reason,
    RecordProblem,
    birth_year_problem,
    duplicate_pairs,
    membership_clean,
)

# The longest values a person's record holds (tournament/models.py Player).
NAME_MAX = 120
DISPLAY_NAME_MAX = 60
EMAIL_MAX = 254
PHONE_MAX = 40
NOTES_MAX = 2000


class Field(Enum):
    """What a column of the sheet may hold: a field of a person's record, or a part of one."""

    FIRST_NAME = "first_name"
    LAST_NAME = "last_name"
    NAME = "name"  # the full name in one column
    DISPLAY_NAME = "display_name"  # the nickname shown in public
    EMAIL = "email"
    PHONE = "phone"
    MEMBERSHIP_NUMBER = "membership_number"
    BIRTH_YEAR = "birth_year"
    COUNTRY = "country"
    NOTES = "notes"


class MappingProblem(Enum):
    TWICE = "twice"  # one field chosen for two columns
    NO_NAME = "no_name"  # neither a full name nor a first or last name column
    NAME_AND_PARTS = "name_and_parts"  # a full name column and first/last name columns


# Headings a sheet's first row commonly has, folded (casefold, no spaces, "-", "_" or ".").
_HEADINGS: dict[str, Field] = {
    **dict.fromkeys(("firstname", "givenname", "vorname", "forename"), Field.FIRST_NAME),
    **dict.fromkeys(
        ("lastname", "surname", "familyname", "nachname", "familienname"), Field.LAST_NAME
    ),
    **dict.fromkeys(("name", "fullname", "vollständigername", "spieler", "player"), Field.NAME),
    **dict.fromkeys(
        ("displayname", "nickname", "nick", "spitzname", "anzeigename", "alias"),
        Field.DISPLAY_NAME,
    ),
    **dict.fromkeys(("email", "e-mail", "mail", "emailaddress", "e-mail-adresse"), Field.EMAIL),
    **dict.fromkeys(("phone", "telephone", "mobile", "telefon", "handy", "tel"), Field.PHONE),
    **dict.fromkeys(
        (
            "membershipnumber",
            "memberno",
            "membernumber",
            "member",
            "mitgliedsnummer",
            "mitgliednr",
            "mitgliedsnr",
            "mitglied",
        ),
        Field.MEMBERSHIP_NUMBER,
    ),
    **dict.fromkeys(("birthyear", "yearofbirth", "geburtsjahr", "jahrgang"), Field.BIRTH_YEAR),
    **dict.fromkeys(
        (
            "country",
            "nation",
            "nationality",
            "land",
            "staat",
            "nationalität",
            "staatsangehörigkeit",
        ),
        Field.COUNTRY,
    ),
    **dict.fromkeys(("notes", "note", "notizen", "notiz", "bemerkung", "comment"), Field.NOTES),
}


def _heading_key(text: str) -> str:
    return "".join(c for c in text.casefold() if c not in " _.-\t")


def guess_mapping(header: Sequence[str]) -> list[Field | None]:
    """A first guess from the headings: each known heading's field, once (the first column
    with it); None for a column to leave out."""
    keys = {_heading_key(k): v for k, v in _HEADINGS.items()}
    guessed: list[Field | None] = []
    for heading in header:
        field = keys.get(_heading_key(heading))
        guessed.append(field if field not in guessed else None)
    return guessed


def mapping_problems(mapping: Sequence[Field | None]) -> list[tuple[MappingProblem, Field | None]]:
    """What is wrong with a column mapping (empty: nothing)."""
    problems: list[tuple[MappingProblem, Field | None]] = []
    chosen = [f for f in mapping if f is not None]
    for field in Field:
        if chosen.count(field) > 1:
            problems.append((MappingProblem.TWICE, field))
    parts = {Field.FIRST_NAME, Field.LAST_NAME} & set(chosen)
    if Field.NAME in chosen and parts:
        problems.append((MappingProblem.NAME_AND_PARTS, None))
    elif Field.NAME not in chosen and not parts:
        problems.append((MappingProblem.NO_NAME, None))
    return problems


class RowProblem(Enum):
    """Why a row cannot become a person's record (the service adds the database's checks)."""

    NAME_MISSING = "name_missing"
    NAME_TOO_LONG = "name_too_long"
    DISPLAY_NAME_TOO_LONG = "display_name_too_long"
    CONTROL_CHARACTERS = "control_characters"
    EMAIL_TOO_LONG = "email_too_long"
    PHONE_TOO_LONG = "phone_too_long"
    BIRTH_YEAR_NOT_A_YEAR = "birth_year_not_a_year"
    BIRTH_YEAR_RANGE = "birth_year_range"
    MEMBERSHIP_TOO_LONG = "membership_too_long"
    MEMBERSHIP_CHARACTERS = "membership_characters"
    NOTES_TOO_LONG = "notes_too_long"
    COUNTRY_UNKNOWN = "country_unknown"


@dataclass(frozen=True, slots=True)
class PersonRow:
    """One row of the sheet as a person's record. `row`: its number in the sheet (the
    headings are row 1). `display_name` empty: the default one is made when it is written."""

    row: int
    name: str
    display_name: str = ""
    email: str = ""
    phone: str = ""
    membership_number: str = ""
    birth_year: int | None = None
    notes: str = ""
    country: str = ""  # ISO 3166-1 alpha-2 (tournament/domain/countries.py)

    def keys(self, id: int) -> PersonKeys:
        return PersonKeys(
            id=id,
            name=self.name,
            birth_year=self.birth_year,
            email=self.email,
            phone=self.phone,
            membership_number=self.membership_number,
        )


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _has_control(text: str, *, lines: bool = False) -> bool:
    allowed = "\n\t" if lines else ""
    return any(unicodedata.category(c).startswith("C") and c not in allowed for c in text)


def _cell(cells: Sequence[str], mapping: Sequence[Field | None], field: Field) -> str:
    for i, f in enumerate(mapping):
        if f is field:
            return cells[i] if i < len(cells) else ""
    return ""


def _year(text: str) -> int | None:
    """A year as a spreadsheet writes it: '1980', '1980.0'; ValueError for anything else."""
    cleaned = text.strip()
    if cleaned.endswith(".0"):
        cleaned = cleaned[:-2]
    if not (cleaned.isascii() and cleaned.isdigit() and len(cleaned) == 4):
        raise ValueError(cleaned)
    return int(cleaned)


def person_from_row(
    cells: Sequence[str], mapping: Sequence[Field | None], *, row: int, this_year: int
) -> tuple[PersonRow | None, list[RowProblem]]:
    """The person a row describes, or None with every problem found (never raises)."""
    problems: list[RowProblem] = []

    def get(field: Field) -> str:
        return _cell(cells, mapping, field)

    texts = [get(f) for f in Field if f is not Field.NOTES]
    if any(_has_control(t) for t in texts) or _has_control(get(Field.NOTES), lines=True):
        problems.append(RowProblem.CONTROL_CHARACTERS)
    name = _one_line(get(Field.NAME) or f"{get(Field.FIRST_NAME)} {get(Field.LAST_NAME)}")
    if len(name) < 2:
        problems.append(RowProblem.NAME_MISSING)
    elif len(name) > NAME_MAX:
        problems.append(RowProblem.NAME_TOO_LONG)
    display = _one_line(get(Field.DISPLAY_NAME))
    if len(display) > DISPLAY_NAME_MAX:
        problems.append(RowProblem.DISPLAY_NAME_TOO_LONG)
    email, phone = get(Field.EMAIL).strip(), _one_line(get(Field.PHONE))
    if len(email) > EMAIL_MAX:
        problems.append(RowProblem.EMAIL_TOO_LONG)
    if len(phone) > PHONE_MAX:
        problems.append(RowProblem.PHONE_TOO_LONG)
    year: int | None = None
    if get(Field.BIRTH_YEAR).strip():
        try:
            year = _year(get(Field.BIRTH_YEAR))
        except ValueError:
            problems.append(RowProblem.BIRTH_YEAR_NOT_A_YEAR)
        else:
            if birth_year_problem(year, this_year=this_year) is not None:
                problems.append(RowProblem.BIRTH_YEAR_RANGE)
    number = ""
    try:
        number = membership_clean(get(Field.MEMBERSHIP_NUMBER))
    except ValueError as exc:
        too_long = exc.args and exc.args[0] is RecordProblem.MEMBERSHIP_TOO_LONG
        problems.append(
            RowProblem.MEMBERSHIP_TOO_LONG if too_long else RowProblem.MEMBERSHIP_CHARACTERS
        )
    notes = get(Field.NOTES).strip()
    if len(notes) > NOTES_MAX:
        problems.append(RowProblem.NOTES_TOO_LONG)
    country = ""
    try:
        country = country_clean(get(Field.COUNTRY))
    except ValueError:
        problems.append(RowProblem.COUNTRY_UNKNOWN)
    if problems:
        return None, sorted(set(problems), key=list(RowProblem).index)
    person = PersonRow(
        row=row,
        name=name,
        display_name=display,
        email=email,
        phone=phone,
        membership_number=number,
        birth_year=year,
        notes=notes,
        country=country,
    )
    return person, []


@dataclass(frozen=True, slots=True)
class LikelySame:
    """A row that looks like a known person (`player_id`) or an earlier row (`other_row`)."""

    row: int
    player_id: int | None
    other_row: int | None
    reasons: frozenset[Reason]


def likely_duplicates(
    rows: Iterable[PersonRow], known: Iterable[PersonKeys]
) -> dict[int, list[LikelySame]]:
    """For each row number, the known people (ids above 0) and the earlier rows it looks like,
    by tournament/domain/people.py's duplicate_pairs: rows take the ids -row."""
    people = [r.keys(-r.row) for r in rows]
    pairs = duplicate_pairs([*people, *known])
    found: dict[int, list[LikelySame]] = {}
    for (a, b), reasons in sorted(pairs.items()):
        if a > 0:  # two known people: the duplicates page's business
            continue
        if b > 0:  # a row and a known person
            same = LikelySame(row=-a, player_id=b, other_row=None, reasons=frozenset(reasons))
            found.setdefault(-a, []).append(same)
            continue
        later, earlier = -a, -b  # a < b < 0: row -a comes after row -b
        same = LikelySame(row=later, player_id=None, other_row=earlier, reasons=frozenset(reasons))
        found.setdefault(later, []).append(same)
    return found
