"""Seating a player, moves by hand, making and undoing moves."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict
from typing import Any

from django.db import connection, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from core.errors import FloorError
from tables.domain.seating import (
    Move,
    fewest_open_tables,
    late_seat,
    newcomer,
    secure_random,
    tables_apart,
)
from tables.live import notify_tables
from tables.models import KeepApart, SeatAssignment, Table
from tables.selectors import table_state, with_head_counts
from tables.services.draw import _insert_seats, tables_create
from tournament.events import Actor, event_record
from tournament.live import notify_seats
from tournament.locks import lock_tournament
from tournament.models import Entry, EntryStatus, Event, Tournament
from tournament.selectors import event_renumbered


@transaction.atomic
def entry_seat(*, tournament: Tournament, entry: Entry, actor: Actor) -> SeatAssignment:
    """Seat a late entry or a promoted alternate at a random open seat (tda-de 7), away from
    his keep-apart partners when a table with the fewest players allows it (bdpv seating
    rule 4; the event names the partners he could not be kept from)."""
    tournament = lock_tournament(tournament.pk)
    entry = Entry.objects.select_for_update().get(pk=entry.pk, tournament=tournament)
    if entry.status != EntryStatus.ACTIVE:
        raise FloorError(_("Only a player in the tournament can be seated."))
    if SeatAssignment.objects.filter(entry=entry).exists():
        raise FloorError(_("This player has a seat already."))
    numbers = with_head_counts(tournament, fewest_open_tables)
    partners = _partner_tables(tournament, entry.pk)
    if numbers:
        # A random table among those with the fewest players (the room stays balanced), then a
        # random open seat there; only that table is read.
        choice = tables_apart(numbers, set(partners.values()))
        table = tournament.tables.get(number=secure_random().choice(choice))
    else:
        table = tables_create(tournament=tournament, count=1, actor=actor)[0]
    seat = late_seat([table_state(table, table.assignments.all())])
    row = SeatAssignment.objects.create(
        entry=entry, table=table, seat=seat.seat, must_wait=seat.must_wait
    )
    together = sorted(p for p, number in partners.items() if number == table.number)
    payload: dict[str, Any] = {
        "entry": entry.pk,
        "number": entry.number,
        "table": table.number,
        "seat": seat.seat,
        "must_wait": seat.must_wait,
    }
    if together:
        payload["together"] = [[entry.pk, p] for p in together]
    event_record(tournament=tournament, action="seat.assign", actor=actor, payload=payload)
    notify_tables(tournament.pk, [table.pk])
    notify_seats([entry.pk])
    return row


def _partner_tables(tournament: Tournament, entry_id: int) -> dict[int, int]:
    """The keep-apart partners of `entry_id` who sit at an open table -> that table's number."""
    pairs = (
        KeepApart.objects.filter(tournament=tournament)
        .filter(Q(first_id=entry_id) | Q(second_id=entry_id))
        .values_list("first_id", "second_id")
    )
    partners = {b if a == entry_id else a for a, b in pairs}
    if not partners:
        return {}
    return dict(
        SeatAssignment.objects.filter(entry_id__in=partners, table__is_open=True).values_list(
            "entry_id", "table__number"
        )
    )


@transaction.atomic
def seat_move(
    *, tournament: Tournament, entry: Entry, table_number: int, seat: int, actor: Actor
) -> None:
    """A move the floor makes by hand (for example after a wrong seat, tda-de 6)."""
    tournament = lock_tournament(tournament.pk)
    row = (
        SeatAssignment.objects.select_for_update()
        .select_related("table")
        .filter(entry=entry)
        .first()
    )
    if row is None:
        raise FloorError(_("This player has no seat."))
    target = tournament.tables.filter(number=table_number, is_open=True).first()
    if target is None:
        raise FloorError(_("Table %(n)s is not open.") % {"n": table_number})
    if not 1 <= seat <= target.seats:
        raise FloorError(_("Table %(n)s has no seat %(s)s.") % {"n": table_number, "s": seat})
    if SeatAssignment.objects.filter(table=target, seat=seat).exclude(pk=row.pk).exists():
        raise FloorError(_("Table %(n)s seat %(s)s is taken.") % {"n": table_number, "s": seat})
    # Waiting for the button is judged against the next hand there (tda-de 7, 9).
    wait = newcomer(table_state(target), seat).must_wait
    move = Move(entry.pk, row.table.number, row.seat, table_number, seat, wait, "floor")
    _apply(tournament, [move], actor, action="seats.move")


@transaction.atomic
def moves_undo(*, tournament: Tournament, event_id: int, actor: Actor) -> int:
    """Undo applied moves (a balance or break): everyone goes back if their old seats are free
    and they still sit where the moves put them."""
    tournament = lock_tournament(tournament.pk)
    event = Event.objects.filter(pk=event_id, tournament=tournament).first()
    if event is None or event.action not in ("seats.balance", "seats.break"):
        raise FloorError(_("These moves cannot be undone."))
    if Event.objects.filter(
        tournament=tournament, action="seats.undo", payload__undoes=event_id
    ).exists():
        raise FloorError(_("These moves were undone already."))
    if event_renumbered(event=event):
        raise FloorError(_("These moves were recorded before the tournament was imported."))
    moves = [Move(**m) for m in event.payload["moves"]]
    back = [
        Move(m.entry, m.to_table, m.to_seat, m.from_table, m.from_seat, False, "undo")
        for m in moves
    ]
    numbers = {m.to_table for m in back}
    Table.objects.filter(tournament=tournament, number__in=numbers).update(
        is_open=True, closed_at=None
    )
    occupied = set(
        SeatAssignment.objects.filter(table__tournament=tournament, table__number__in=numbers)
        .exclude(entry_id__in=[m.entry for m in back])
        .values_list("table__number", "seat")
    )
    if any((m.to_table, m.to_seat) in occupied for m in back):
        raise FloorError(_("A seat these players came from is taken now; move them by hand."))
    _apply(tournament, back, actor, action="seats.undo_moves")
    event_record(
        tournament=tournament, action="seats.undo", actor=actor, payload={"undoes": event_id}
    )
    return len(back)


def _move_in_place(
    tournament: Tournament, moves: Sequence[Move], close: int | None = None
) -> dict[int, tuple[int, str]]:
    """Move the seat rows of `moves` in one statement (PostgreSQL), each only if its player
    still sits where the move starts, and close table `close` in the same statement (a break).
    Returns table number -> (table id, area) of the tables the players left and reached. Only
    for moves into seats that are empty before any of them is made, each player once (a balance
    or a break)."""
    seat_table = connection.ops.quote_name(SeatAssignment._meta.db_table)
    table_table = connection.ops.quote_name(Table._meta.db_table)
    values = ", ".join(
        ["(%s::bigint, %s::int, %s::int, %s::int, %s::int, %s::boolean)"] * len(moves)
    )
    params: list[Any] = []
    for m in moves:
        params += [m.entry, m.from_table, m.from_seat, m.to_table, m.to_seat, m.must_wait]
    closing = ""
    if close is not None:
        closing = (
            f", closed AS (UPDATE {table_table} SET is_open = false, closed_at = now(), "  # noqa: S608
            "button_seat = NULL, small_blind_seat = NULL, big_blind_seat = NULL "
            "WHERE tournament_id = %s AND number = %s) "
        )
        params += [tournament.pk, close]
    sql = (
        f"WITH moves(entry_id, from_number, from_seat, to_number, to_seat, must_wait) AS "  # noqa: S608
        f"(VALUES {values}){closing} "
        f"UPDATE {seat_table} s SET table_id = tt.id, seat = m.to_seat, "
        "must_wait = m.must_wait, seated_at = now() "
        f"FROM moves m JOIN {table_table} ft ON ft.tournament_id = %s "
        "AND ft.number = m.from_number "
        f"JOIN {table_table} tt ON tt.tournament_id = %s AND tt.number = m.to_number "
        "AND tt.is_open "
        "WHERE s.entry_id = m.entry_id AND s.table_id = ft.id AND s.seat = m.from_seat "
        "RETURNING ft.number, ft.id, ft.area, tt.number, tt.id, tt.area"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [*params, tournament.pk, tournament.pk])
        rows = cursor.fetchall()
    if len(rows) != len(moves):
        raise FloorError(_("A player in this plan is no longer where the plan expects."))
    tables: dict[int, tuple[int, str]] = {}
    for from_number, from_id, from_area, to_number, to_id, to_area in rows:
        tables[from_number] = (from_id, from_area)
        tables[to_number] = (to_id, to_area)
    return tables


def _in_place_safe(moves: Sequence[Move]) -> bool:
    """Moves that one UPDATE can make without two rows meeting in a seat on the way."""
    sources = {(m.from_table, m.from_seat) for m in moves}
    targets = [(m.to_table, m.to_seat) for m in moves]
    return (
        connection.vendor == "postgresql"
        and len({m.entry for m in moves}) == len(moves)
        and len(set(targets)) == len(targets)
        and not sources & set(targets)
    )


def _apply(
    tournament: Tournament,
    moves: Sequence[Move],
    actor: Actor,
    *,
    action: str,
    payload: dict[str, Any] | None = None,
    close: int | None = None,
) -> int:
    """Make the moves, close table `close` (a break) and log them as one event (`payload` adds
    to its moves)."""
    if _in_place_safe(moves):
        placed = _move_in_place(tournament, moves, close)
        return _record_moves(tournament, moves, actor, action, placed, payload)
    numbers = {m.from_table for m in moves} | {m.to_table for m in moves}
    tables = {
        t.number: t
        for t in Table.objects.select_for_update(no_key=True)
        .filter(tournament=tournament, number__in=numbers)
        .only("pk", "number", "area")
    }
    rows = {
        r.entry_id: r
        for r in SeatAssignment.objects.select_for_update()
        .filter(entry_id__in=[m.entry for m in moves])
        .only("pk", "entry_id", "table_id", "seat", "stack")
    }
    for m in moves:
        row = rows.get(m.entry)
        if row is None or row.table_id != tables[m.from_table].pk or row.seat != m.from_seat:
            raise FloorError(_("A player in this plan is no longer where the plan expects."))
    # Two steps so swaps and redraws never collide on the unique (table, seat) constraint.
    SeatAssignment.objects.filter(pk__in=[r.pk for r in rows.values()]).delete()
    _insert_seats(
        [(m.entry, tables[m.to_table].pk, m.to_seat) for m in moves],
        waits=[m.must_wait for m in moves],
        stacks=[rows[m.entry].stack for m in moves],
    )
    placed = {number: (t.pk, t.area) for number, t in tables.items()}
    if close is not None:
        _close_table(tournament, close)
    return _record_moves(tournament, moves, actor, action, placed, payload)


def _close_table(tournament: Tournament, number: int) -> None:
    Table.objects.filter(tournament=tournament, number=number).update(
        is_open=False,
        closed_at=timezone.now(),
        button_seat=None,
        small_blind_seat=None,
        big_blind_seat=None,
    )


def _record_moves(
    tournament: Tournament,
    moves: Sequence[Move],
    actor: Actor,
    action: str,
    tables: dict[int, tuple[int, str]],
    payload: dict[str, Any] | None = None,
) -> int:
    """Log applied moves and tell the players and the tables involved (`tables`: number ->
    (id, area))."""
    event = event_record(
        tournament=tournament,
        action=action,
        actor=actor,
        payload={"moves": [asdict(m) for m in moves], **(payload or {})},
    )
    notify_seats(m.entry for m in moves)
    notify_tables(tournament.pk, (table_id for table_id, _area in tables.values()))
    return event.pk
