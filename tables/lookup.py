"""The player's look-up by number: "where do I sit?", one statement over the entry, the player
and the seat. The seat is the tables' row, so the read lives here; the public page
(tournament/public_views.py) calls it."""

from __future__ import annotations

import functools
from typing import NamedTuple

from config.prepared import prepared_cursor
from tables.models import SeatAssignment
from tables.models import Table as FloorTable
from tournament.models import Entry, EntryStatus, Player, Tournament
from tournament.public_selectors import PublicSeat, initials, names_withheld

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
