"""Reads for public pages: display names and seats only, never names or contact data."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from django.conf import settings
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from tournament.domain.collation import by_name
from tournament.domain.names import query_words
from tournament.models import Entry, EntryStatus, Status, Tournament
from tournament.selectors import name_query


@dataclass(frozen=True)
class PublicSeat:
    entry_id: int
    number: int
    display_name: str
    status: str
    table: int | None
    seat: int | None
    area: str
    must_wait: bool
    alternate_position: int | None
    place: int | None
    prize: int
    won_seat: bool = False

    def as_dict(self) -> dict[str, object]:
        return {
            "number": self.number,
            "display_name": self.display_name,
            "status": self.status,
            "table": self.table,
            "seat": self.seat,
            "area": self.area,
            "must_wait": self.must_wait,
            "alternate_position": self.alternate_position,
            "place": self.place,
            "prize": self.prize,
            "won_seat": self.won_seat,
        }


# --- Retention ------------------------------------------------------------------------------
#
# A finished tournament's public pages keep players' names for FLOOR_PUBLIC_RESULTS_DAYS after
# its start, then show initials only; the console keeps the names for the staff.


def names_withheld(*, status: str, starts_at: datetime | str) -> bool:
    """Whether a tournament's public pages show initials instead of display names."""
    days = settings.FLOOR_PUBLIC_RESULTS_DAYS
    if not days or status != Status.FINISHED:
        return False
    if isinstance(starts_at, str):  # a raw SQLite row holds the text
        starts_at = parse_datetime(starts_at) or timezone.now()
    if timezone.is_naive(starts_at):
        starts_at = starts_at.replace(tzinfo=UTC)
    return starts_at < timezone.now() - timedelta(days=days)


def initials(name: str) -> str:
    """'Anna S.' -> 'A. S.' (what stays public of an old result)."""
    letters = [word[0] for word in name.replace(".", " ").split() if word[0].isalpha()]
    return " ".join(f"{c.upper()}." for c in letters) or "–"


def public_name(entry: Entry) -> str:
    """The name a public page shows for `entry` (its tournament is read from the entry)."""
    t = entry.tournament
    if names_withheld(status=t.status, starts_at=t.starts_at):
        return initials(entry.player.display_name)
    return entry.player.display_name


def public_seat(entry: Entry) -> PublicSeat:
    seat = getattr(entry, "seat", None)
    return PublicSeat(
        entry_id=entry.pk,
        number=entry.number,
        display_name=public_name(entry),
        status=entry.status,
        table=seat.table.number if seat else None,
        seat=seat.seat if seat else None,
        area=seat.table.area if seat else "",
        must_wait=seat.must_wait if seat else False,
        alternate_position=entry.alternate_position,
        place=entry.place,
        prize=entry.prize,
        won_seat=entry.won_seat,
    )


def find_seats_by_name(tournament: Tournament, query: str, limit: int = 20) -> list[PublicSeat]:
    """Entries whose full or display name holds every word of `query`, in any order, folded
    the German way (tournament/domain/names.py: "Schäfer" = "Schaefer" = "schafer"). Only the
    display name and the seat are shown (numbers: `tables.lookup.seat_by_number`), in German alphabetical
    order of the display names (tournament/domain/collation.py; the first `limit` entries by
    number). Nobody, once the tournament's names are withheld: a match would confirm the name."""
    if names_withheld(status=tournament.status, starts_at=tournament.starts_at):
        return []
    if not query_words(query):
        return []
    cond = name_query(query, through="player__")
    entries = (
        tournament.entries.exclude(status=EntryStatus.UNREGISTERED)
        .filter(cond)
        .select_related("player", "seat__table")
        .order_by("number")
    )
    return by_name((public_seat(e) for e in entries[:limit]), lambda s: s.display_name)


def entry_by_token(token: str) -> Entry | None:
    if not token or len(token) > 40:
        return None
    return (
        Entry.objects.select_related("player", "tournament", "seat__table")
        .filter(public_token=token)
        .exclude(status=EntryStatus.UNREGISTERED)
        .first()
    )


# --- The end -------------------------------------------------------------------------------
#
