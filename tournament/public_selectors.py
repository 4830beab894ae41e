"""Reads for public pages: display names and seats only, never names or contact data."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Q

from tournament.models import Entry, EntryStatus, Tournament


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
        }


def public_seat(entry: Entry) -> PublicSeat:
    seat = getattr(entry, "seat", None)
    return PublicSeat(
        entry_id=entry.pk,
        number=entry.number,
        display_name=entry.player.display_name,
        status=entry.status,
        table=seat.table.number if seat else None,
        seat=seat.seat if seat else None,
        area=seat.table.area if seat else "",
        must_wait=seat.must_wait if seat else False,
        alternate_position=entry.alternate_position,
        place=entry.place,
        prize=entry.prize,
    )


def find_seats(tournament: Tournament, query: str, limit: int = 20) -> list[PublicSeat] | None:
    """Entries matching a player number or part of a display name; None if the query is too
    short to search (fewer than two letters)."""
    query = " ".join(query.split())
    entries = (
        tournament.entries.exclude(status=EntryStatus.UNREGISTERED)
        .select_related("player", "seat__table")
        .order_by("number")
    )
    if query.isdigit():
        entries = entries.filter(number=int(query))
    elif len(query) >= 2:
        cond = Q()
        for word in query.split():
            cond &= Q(player__display_name__icontains=word)
        entries = entries.filter(cond)
    else:
        return None
    return [public_seat(e) for e in entries[:limit]]


def entry_by_token(token: str) -> Entry | None:
    if not token or len(token) > 40:
        return None
    return (
        Entry.objects.select_related("player", "tournament", "seat__table")
        .filter(public_token=token)
        .exclude(status=EntryStatus.UNREGISTERED)
        .first()
    )
