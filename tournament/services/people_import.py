"""A player list from a spreadsheet becomes person records (docs/players.md, "A player list from
a spreadsheet"): every row checked first, then all written in one transaction or none.

The rows come from tournament/people_sheet.py and tournament/domain/people_sheet.py; here the
checks that need the database (a membership number held already) or Django (an e-mail
address), and the write. Directors only (contact data): the caller checks.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from core.errors import Conflict, FloorError
from tournament.domain.people import PersonKeys, membership_key
from tournament.domain.people_sheet import PersonRow
from tournament.events import Actor, event_record
from tournament.models import Player
from tournament.services.registration import _default_display_name

PLAYERS_IMPORT = "players.import"


@dataclass(frozen=True)
class RowError:
    row: int
    reasons: list[str]


class ImportRefused(FloorError):
    """Rows that cannot be written: each with its number and reasons; nothing was written."""

    def __init__(self, errors: list[RowError]) -> None:
        super().__init__(
            _("%(n)s rows cannot be imported; nothing was written.") % {"n": len(errors)}
        )
        self.errors = errors


def known_people() -> list[PersonKeys]:
    """Every record's keys, for the likely duplicates (one query)."""
    return [
        PersonKeys(id=pk, name=n, birth_year=y, email=e, phone=p, membership_number=m)
        for pk, n, y, e, p, m in Player.objects.values_list(
            "pk", "name", "birth_year", "email", "phone", "membership_number"
        ).iterator(chunk_size=5000)
    ]


def rows_checked(people: Sequence[PersonRow]) -> list[RowError]:
    """The problems only the database and Django see: an e-mail address that is none, a
    membership number another record holds, or an earlier row of the file."""
    errors: dict[int, list[str]] = {}
    numbers = [p.membership_number for p in people if p.membership_number]
    held = {
        membership_key(n): (pk, name)
        for pk, name, n in Player.objects.filter(membership_number__in=numbers).values_list(
            "pk", "name", "membership_number"
        )
    }
    seen: dict[str, int] = {}
    for p in people:
        if p.email:
            try:
                validate_email(p.email)
            except ValidationError:
                errors.setdefault(p.row, []).append(_("The e-mail address is not valid."))
        key = membership_key(p.membership_number)
        if not key:
            continue
        if key in held:
            pk, name = held[key]
            errors.setdefault(p.row, []).append(
                _("Membership number %(number)s belongs to %(name)s (#%(id)s) already.")
                % {"number": p.membership_number, "name": name, "id": pk}
            )
        elif key in seen:
            errors.setdefault(p.row, []).append(
                _("Membership number %(number)s is in row %(row)s already.")
                % {"number": p.membership_number, "row": seen[key]}
            )
        else:
            seen[key] = p.row
    return [RowError(row=r, reasons=reasons) for r, reasons in sorted(errors.items())]


def people_import(*, people: Sequence[PersonRow], file_name: str, actor: Actor) -> list[Player]:
    """Create a record for each row, all in one transaction; ImportRefused (nothing written)
    when any row cannot be. One `players.import` line in the event log (the count and the
    file's name, no personal data)."""
    if not people:
        raise FloorError(_("There is no row to import."))
    errors = rows_checked(people)
    if errors:
        raise ImportRefused(errors)
    try:
        with transaction.atomic():
            created = [
                Player.objects.create(
                    name=p.name,
                    display_name=(p.display_name or _default_display_name(p.name))[:60],
                    email=p.email,
                    phone=p.phone,
                    membership_number=p.membership_number,
                    birth_year=p.birth_year,
                    notes=p.notes,
                    country=p.country,
                )
                for p in people
            ]
            event_record(
                tournament=None,
                action=PLAYERS_IMPORT,
                actor=actor,
                payload={
                    "count": len(created),
                    "file": file_name[:100],
                    "first": created[0].pk,
                    "last": created[-1].pk,
                },
            )
    except IntegrityError as exc:  # a membership number taken meanwhile
        raise Conflict(
            _("A membership number was given to another record meanwhile; upload the file again.")
        ) from exc
    return created
