"""What the sign-up pages read: a sheet's numbers, the list by status for the console, and the
search by name (German folding, as find-my-seat)."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Count, Q

from signups.domain.places import Slot, Status, waiting_positions
from signups.models import SignUp, SignUpSheet, SignUpStatus
from signups.services import room_of
from tournament.domain.names import fold, name_matches
from tournament.models import Tournament


@dataclass(frozen=True)
class SheetNumbers:
    """A sheet at a glance. `is_open` is False without a sheet."""

    is_open: bool
    places: int
    reserved: int
    free: int
    holding: int
    waiting: int
    checked_in: int


@dataclass
class SignUpList:
    """The console's list: each status in its order (the waiting list in its moving order)."""

    confirmed: list[SignUp] = field(default_factory=list)
    waiting: list[SignUp] = field(default_factory=list)
    checked_in: list[SignUp] = field(default_factory=list)
    cancelled: list[SignUp] = field(default_factory=list)
    no_show: list[SignUp] = field(default_factory=list)

    @property
    def groups(self) -> list[tuple[str, list[SignUp]]]:
        return [
            (SignUpStatus.CONFIRMED, self.confirmed),
            (SignUpStatus.WAITING, self.waiting),
            (SignUpStatus.CHECKED_IN, self.checked_in),
            (SignUpStatus.CANCELLED, self.cancelled),
            (SignUpStatus.NO_SHOW, self.no_show),
        ]

    @property
    def count(self) -> int:
        return sum(len(rows) for _status, rows in self.groups)


def sheet_or_none(tournament: Tournament) -> SignUpSheet | None:
    return SignUpSheet.objects.filter(tournament=tournament).first()


def _slots(sheet: SignUpSheet) -> list[Slot]:
    return [
        Slot(seq, Status(status), rank)
        for seq, status, rank in sheet.signups.values_list("sequence", "status", "rank")
    ]


def sheet_numbers(tournament: Tournament, sheet: SignUpSheet | None = None) -> SheetNumbers:
    """The sheet's figures in one counting query (the public pages read them on every visit,
    during a burst of sign-ups too: counts, not every row)."""
    sheet = sheet or sheet_or_none(tournament)
    if sheet is None:
        return SheetNumbers(False, 0, 0, 0, 0, 0, 0)
    counted = sheet.signups.aggregate(
        **{
            str(status): Count("pk", filter=Q(status=status))
            for status in (SignUpStatus.CONFIRMED, SignUpStatus.WAITING, SignUpStatus.CHECKED_IN)
        }
    )
    holding = counted[SignUpStatus.CONFIRMED]
    checked_in = counted[SignUpStatus.CHECKED_IN]
    # Every entry counts, whoever made it (a walk-in at the desk takes a seat too).
    capacity, entries = Tournament.objects.values_list("capacity", "players_left").get(
        pk=tournament.pk
    )
    room = room_of(
        sheet, capacity=capacity, entries=entries, counted=(holding + checked_in, holding)
    )
    return SheetNumbers(
        is_open=sheet.is_open,
        places=room.offered,
        reserved=sheet.reserved,
        free=room.free,
        holding=holding,
        waiting=counted[SignUpStatus.WAITING],
        checked_in=checked_in,
    )


def signup_list(sheet: SignUpSheet, query: str = "") -> SignUpList:
    """Every sign-up of the sheet, or those whose name holds every word of `query` (any part of
    the name, case, accents and umlauts folded: "muller" finds "Müller")."""
    rows = list(sheet.signups.select_related("player", "entry").order_by("sequence"))
    if query.strip():
        rows = [s for s in rows if name_matches(fold(s.display_name), query)]
    positions = waiting_positions(_slots(sheet))
    listed = SignUpList()
    for s in rows:
        s.position = positions.get(s.sequence)  # type: ignore[attr-defined]
        getattr(listed, s.status).append(s)
    listed.waiting.sort(key=lambda s: positions.get(s.sequence, 0))
    return listed


def to_check_in(tournament: Tournament) -> int | None:
    """How many sign-ups hold a place and are not at the door yet; None without a sheet."""
    sheet = sheet_or_none(tournament)
    if sheet is None:
        return None
    return sheet.signups.filter(status=SignUpStatus.CONFIRMED).count()
