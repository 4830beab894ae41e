"""Reads for public pages: display names and seats only, never names or contact data."""

from __future__ import annotations

import threading
import time
import uuid
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
    bump = getattr(cache, "bump", None)
    if bump is not None:  # Redis: one round trip
        bump(key)
        return
    try:
        cache.incr(key)
    except ValueError:
        cache.set(key, 1, None)


_EPOCH_KEY = "floor:v:epoch"


def data_version(tournament_id: int) -> str:
    """The tournament's data version. The epoch changes whenever the cache starts empty (a Redis
    restart), so counters that start again from zero never match an older index; while the cache
    is unreachable every call gets a new version, so the index is never trusted."""
    from config.cache import failed_since

    t0 = time.monotonic()
    keys = _version_keys(tournament_id)
    values = cache.get_many([*keys, _EPOCH_KEY])
    epoch = values.get(_EPOCH_KEY)
    if epoch is None:
        cache.add(_EPOCH_KEY, uuid.uuid4().hex[:8], None)
        epoch = cache.get(_EPOCH_KEY)
    if failed_since(t0) or epoch is None:
        return f"down:{uuid.uuid4().hex}"
    return f"{epoch}:{values.get(keys[0], 0)}:{values.get(keys[1], 0)}"


def index_clear() -> None:
    with _index_lock:
        _index.clear()
        _built_at.clear()


REBUILD_EVERY = 1.0  # seconds: at most one rebuild per tournament per process in this time
_built_at: dict[int, float] = {}


def seat_index(tournament_id: int) -> tuple[Tournament, dict[int, PublicSeat]] | None:
    """The tournament and {player number: public seat}, current as of the data version; None
    when the index is stale and another request is rebuilding it (or rebuilt it less than a
    second ago): the caller then asks the database directly, so a stale seat is never shown
    and a busy floor never makes the phones queue behind rebuilds."""
    version = data_version(tournament_id)
    now = time.monotonic()
    hit = _index.get(tournament_id)
    if hit and hit[0] == version and now - hit[1] < INDEX_MAX_AGE:
        return hit[2], hit[3]
    if now - _built_at.get(tournament_id, 0.0) < REBUILD_EVERY:
        return None
    if not _index_lock.acquire(blocking=False):
        return None
    try:
        _built_at[tournament_id] = now
        tournament = (
            Tournament.objects.select_related("structure", "chip_set")
            .filter(pk=tournament_id)
            .first()
        )
        if tournament is None:
            return None
        seats = _all_public_seats(tournament)
        _index[tournament_id] = (version, now, tournament, seats)
        return tournament, seats
    finally:
        _index_lock.release()


def _all_public_seats(tournament: Tournament) -> dict[int, PublicSeat]:
    rows = (
        tournament.entries.exclude(status=EntryStatus.UNREGISTERED)
        .values_list(
            "pk",
            "number",
            "player__display_name",
            "status",
            "seat__table__number",
            "seat__seat",
            "seat__table__area",
            "seat__must_wait",
            "alternate_position",
            "place",
            "prize",
            "won_seat",
        )
        .iterator(chunk_size=5000)
    )
    return {
        r[1]: PublicSeat(
            entry_id=r[0],
            number=r[1],
            display_name=r[2],
            status=r[3],
            table=r[4],
            seat=r[5],
            area=r[6] or "",
            must_wait=bool(r[7]),
            alternate_position=r[8],
            place=r[9],
            prize=r[10],
            won_seat=r[11],
        )
        for r in rows
    }


def find_seats(
    tournament: Tournament,
    query: str,
    limit: int = 20,
    index: dict[int, PublicSeat] | None = None,
) -> list[PublicSeat] | None:
    """Entries matching a player number or part of a display name; None if the query is too
    short to search (fewer than two letters). A current `seat_index` answers numbers."""
    query = " ".join(query.split())
    if query.isdigit() and index is not None:
        found = index.get(int(query))
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
