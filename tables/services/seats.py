"""Seats freed and given back by an action of another app (actions/bust.py): a bust frees its
players' seats, its undo gives them back where still free. Only the tables app writes seats;
the layer above calls these inside the transaction that holds the tournament's lock."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from django.db import connection

from tables.models import SeatAssignment

# A statement of the caller's own, with its parameters: run in the same round trip as the
# seats' (`seats_free`).
Statement = tuple[str, Sequence[Any]]


def seats_free(*, entry_ids: Sequence[int], along: Statement | None = None) -> dict[int, list[int]]:
    """Free the seats of `entry_ids` (the players are out); returns entry id -> [table id,
    seat] of the seats freed, for the event log and an undo.

    `along`: one data-modifying statement of the caller's own tables (the busted entry's
    finish, `tournament.services.eliminations.bust_finish_statement`), run with the seats'
    DELETE as one statement (PostgreSQL's data-modifying WITH): the usual bust is one round
    trip, not two. The caller writes its rows; this module writes only the seats."""
    seat_table = connection.ops.quote_name(SeatAssignment._meta.db_table)
    placeholders = ", ".join(["%s"] * len(entry_ids))
    freeing = (
        f"DELETE FROM {seat_table} WHERE entry_id IN ({placeholders}) "  # noqa: S608
        "RETURNING entry_id, table_id, seat"
    )
    params: list[Any] = list(entry_ids)
    if along is not None:
        sql, along_params = along
        freeing = (
            f"WITH freed AS ({freeing}), along AS ({sql}) "  # noqa: S608
            "SELECT entry_id, table_id, seat FROM freed"
        )
        params += along_params
    with connection.cursor() as cursor:
        cursor.execute(freeing, params)
        return {entry_id: [table_id, seat] for entry_id, table_id, seat in cursor.fetchall()}


def seats_give_back(seats: Iterable[tuple[int, int, int]]) -> list[int]:
    """Give each (entry id, table id, seat) its seat back where nobody has taken it since (an
    undone bust); returns the ids of the tables that got a player back."""
    restored: list[int] = []
    for entry_id, table_id, seat in seats:
        taken = SeatAssignment.objects.filter(table_id=table_id, seat=seat).exists()
        if not taken:
            SeatAssignment.objects.create(entry_id=entry_id, table_id=table_id, seat=seat)
            restored.append(table_id)
    return restored
