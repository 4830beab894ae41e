"""The tournament lock. Every service that changes seats, tables or the tournament's state
starts by locking the tournament row, so actions on one tournament queue in one order (the
tournament first, then tables, then seats) and two of them never deadlock."""

from __future__ import annotations

from collections.abc import Sequence

from tournament.models import Tournament


def lock_tournament(pk: int, *, key: bool = False, only: Sequence[str] = ()) -> Tournament:
    """Lock tournament `pk` for the rest of the transaction and return the row.

    `key=False` (seat changes): `FOR NO KEY UPDATE`, which does not block inserts of rows that
    reference the tournament (an entry, an event) in other transactions. `key=True`: a full
    `FOR UPDATE`. `only`: the fields to read, when the caller needs nothing else of the row."""
    rows = Tournament.objects.select_for_update(no_key=not key)
    if only:
        rows = rows.only(*only)
    return rows.get(pk=pk)
