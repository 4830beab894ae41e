"""Reads for public pages: display names and seats only, never names or contact data."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass

from django.core.cache import cache
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
        won_seat=entry.won_seat,
    )


# --- Look-up by number from an in-process index -------------------------------------------
#
# "Where do I sit?" by player number is the request a crowd of phones makes after every table
# break. Each process keeps, per tournament, the tournament row and every entry's public seat,
# built with one query, and rebuilds it when the tournament's data version changes. The version
# lives in the cache (Redis in the full stack, so all processes see it) and is bumped by every
# event written (`tournament.events.event_record`), inside the transaction and after the commit.

INDEX_MAX_AGE = 60.0  # seconds: a safety net, the version is what keeps the index right
_index: dict[int, tuple[str, float, Tournament, dict[int, PublicSeat]]] = {}
_index_lock = threading.Lock()


def _version_keys(tournament_id: int) -> tuple[str, str]:
    return f"floor:v:t{tournament_id}", "floor:v:all"


def data_changed(tournament_id: int | None) -> None:
    """Bump the data version of a tournament (or of all of them, for changes to players)."""
    key = _version_keys(tournament_id)[0] if tournament_id is not None else "floor:v:all"
    try:
        cache.incr(key)
    except ValueError:
        cache.set(key, 1, None)


def data_version(tournament_id: int) -> str:
    keys = _version_keys(tournament_id)
    values = cache.get_many(keys)
    return f"{values.get(keys[0], 0)}:{values.get(keys[1], 0)}"


def index_clear() -> None:
    with _index_lock:
        _index.clear()


def seat_index(tournament_id: int) -> tuple[Tournament, dict[int, PublicSeat]] | None:
    """The tournament and {player number: public seat}, current as of the data version."""
    version = data_version(tournament_id)
    hit = _index.get(tournament_id)
    if hit and hit[0] == version and time.monotonic() - hit[1] < INDEX_MAX_AGE:
        return hit[2], hit[3]
    with _index_lock:
        hit = _index.get(tournament_id)
        if hit and hit[0] == version and time.monotonic() - hit[1] < INDEX_MAX_AGE:
            return hit[2], hit[3]
        tournament = (
            Tournament.objects.select_related("structure", "chip_set")
            .filter(pk=tournament_id)
            .first()
        )
        if tournament is None:
            return None
        seats = {
            e.number: public_seat(e)
            for e in tournament.entries.exclude(status=EntryStatus.UNREGISTERED).select_related(
                "player", "seat__table"
            )
        }
        _index[tournament_id] = (version, time.monotonic(), tournament, seats)
        return tournament, seats


def find_seats(tournament: Tournament, query: str, limit: int = 20) -> list[PublicSeat] | None:
    """Entries matching a player number or part of a display name; None if the query is too
    short to search (fewer than two letters)."""
    query = " ".join(query.split())
    if query.isdigit():
        index = seat_index(tournament.pk)
        if index is not None:
            found = index[1].get(int(query))
            return [found] if found else []
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
