"""Reads for public pages: display names and seats only, never names or contact data."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import NamedTuple

from django.conf import settings
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from config.prepared import prepared_cursor
from tables.models import SeatAssignment
from tables.models import Table as FloorTable
from tournament.domain.collation import by_name
from tournament.domain.names import query_words
from tournament.models import Entry, EntryStatus, Player, Status, Tournament
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


# --- Look-up by number ---------------------------------------------------------------------
#
# "Where do I sit?" by player number is the request a crowd of phones makes after every table
# break, while the floor is moving players. It is answered with one statement on the unique
# (tournament, number) index, so the answer is never stale and there is nothing to rebuild.

_BY_NUMBER_SQL = """
SELECT t.currency, e.id, e.number, p.display_name, e.status, tb.number, sa.seat, tb.area,
       sa.must_wait, e.alternate_position, e.place, e.prize, e.won_seat, t.status, t.starts_at,
       t.alternates_waiting, t.registration_closed_at IS NOT NULL
  FROM {tournament} t
  LEFT JOIN {entry} e ON e.tournament_id = t.id AND e.number = %s AND e.status <> %s
  LEFT JOIN {player} p ON p.id = e.player_id
  LEFT JOIN {seat} sa ON sa.entry_id = e.id
  LEFT JOIN {table} tb ON tb.id = sa.table_id
 WHERE t.id = %s
"""


@functools.cache
def _by_number_sql() -> str:
    return _BY_NUMBER_SQL.format(
        tournament=Tournament._meta.db_table,
        entry=Entry._meta.db_table,
        player=Player._meta.db_table,
        seat=SeatAssignment._meta.db_table,
        table=FloorTable._meta.db_table,
    )


class NumberLookup(NamedTuple):
    """A look-up by number: the tournament's currency, the player's public seat (None: no such
    player) and what the tournament's row says of whether its places are final
    (`tournament.field.field_final_by_row`), so that a player who is out is answered without
    loading the tournament once registration is closed."""

    currency: str
    seat: PublicSeat | None
    alternates_waiting: int
    registration_closed: bool
    status: str


def seat_by_number(tournament_id: int, number: int) -> NumberLookup | None:
    """The look-up of player `number`, read in one statement; None when there is no such
    tournament."""
    if not 0 < number < 2**31:
        number = 0  # no entry has it; the statement still tells whether the tournament exists
    params = [number, str(EntryStatus.UNREGISTERED), tournament_id]
    with prepared_cursor() as cur:
        cur.execute(_by_number_sql(), params)
        row = cur.fetchone()
    if row is None:
        return None
    facts = (row[15], bool(row[16]), row[13])
    if row[1] is None:
        return NumberLookup(row[0], None, *facts)
    seat = PublicSeat(
        entry_id=row[1],
        number=row[2],
        display_name=initials(row[3])
        if names_withheld(status=row[13], starts_at=row[14])
        else row[3],
        status=row[4],
        table=row[5],
        seat=row[6],
        area=row[7] or "",
        must_wait=bool(row[8]),
        alternate_position=row[9],
        place=row[10],
        prize=row[11],
        won_seat=bool(row[12]),
    )
    return NumberLookup(row[0], seat, *facts)


def find_seats_by_name(tournament: Tournament, query: str, limit: int = 20) -> list[PublicSeat]:
    """Entries whose full or display name holds every word of `query`, in any order, folded
    the German way (tournament/domain/names.py: "Schäfer" = "Schaefer" = "schafer"). Only the
    display name and the seat are shown (numbers: `seat_by_number`), in German alphabetical
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
