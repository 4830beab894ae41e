"""Opening tables and the seat draw (its SQL: the seats in one statement on PostgreSQL)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from config.bulk import insert_columns
from core.errors import FloorError
from live.realtime import broadcast_on_commit, tournament_group
from tables.domain.seating import SeatingError, draw, tables_needed
from tables.live import notify_chart, tablets_close
from tables.models import KeepApart, SeatAssignment, Table, new_dealer_token
from tables.selectors import SEATED_STATUSES
from tables.words import seating_reason
from tournament.events import Actor, event_record
from tournament.locks import lock_tournament
from tournament.models import EntryStatus, Tournament


@transaction.atomic
def tables_create(
    *, tournament: Tournament, count: int, actor: Actor, area: str = "", seats: int | None = None
) -> list[Table]:
    """Open `count` more tables, numbered after the highest existing one."""
    tournament = lock_tournament(tournament.pk)
    if not 1 <= count <= 1000:
        raise FloorError(_("Open between 1 and 1,000 tables at a time."))
    seats = seats or tournament.seats_per_table
    if not 2 <= seats <= 10:
        raise FloorError(_("A table has 2 to 10 seats."))
    ids = _open_tables(tournament, count, seats=seats, area=area, actor=actor)
    return list(Table.objects.filter(pk__in=ids).order_by("number"))


def _open_tables(
    tournament: Tournament,
    count: int,
    *,
    seats: int,
    actor: Actor,
    area: str = "",
    players: Sequence[int] | None = None,
    first: bool = False,
) -> list[int]:
    """Insert `count` tables numbered after the highest existing one (with their head counts
    `players`, for a draw that sets the counts itself), log it, and return their ids in number
    order. `first`: the caller knows the tournament has no table yet (nothing to read). The
    caller holds the tournament's lock."""
    last = (
        None
        if first
        else tournament.tables.order_by("-number").values_list("number", "opening_order").first()
    )
    start = (last[0] if last else 0) + 1
    order = (last[1] if last else 0) + 1
    numbers = [start + i for i in range(count)]
    columns: dict[str, Sequence[Any]] = {
        "number": numbers,
        "opening_order": [order + i for i in range(count)],
        "dealer_token": [new_dealer_token() for _i in range(count)],
    }
    if players is not None:
        columns["players"] = players
    # Column by column in one statement (config/bulk.py): a Day 2 opens hundreds of tables at
    # once, and bulk_create prepared every field of every table in Python (334 tables: 50 ms).
    ids = insert_columns(
        Table, columns, constants={"tournament_id": tournament.pk, "seats": seats, "area": area}
    )
    event_record(
        tournament=tournament,
        action="tables.open",
        actor=actor,
        payload={"numbers": numbers, "seats": seats, "area": area},
    )
    return ids


@transaction.atomic
def seats_draw(*, tournament: Tournament, actor: Actor, redraw: bool = False) -> int:
    """Random seat draw of every active entry (tda-de 6), filling the opening order evenly;
    players needing an accessible seat get one (tda-de 8); keep-apart pairs are split
    (bdpv seating rule 4). A redraw replaces the whole draw. Returns the number seated."""
    tournament = lock_tournament(tournament.pk)
    if tournament.pooled:
        # A Day 2: its players are the flights' bags, seated by the event's Day-2 draw (random
        # or seeded by stack, festivals/services.py), not by lot here.
        raise FloorError(
            _("A Day 2 is seated by its event's Day-2 draw, from the flights' bags."),
            code="pooled",
        )
    if tournament.status not in SEATED_STATUSES:
        raise FloorError(_("Seats are drawn once registration is open."))
    has_seats = SeatAssignment.objects.filter(table__tournament=tournament).exists()
    if has_seats and not redraw:
        raise FloorError(_("Seats have been drawn already. Use a redraw to start over."))
    entries = list(
        tournament.entries.filter(status=EntryStatus.ACTIVE)
        .order_by("number")
        .values_list("pk", "player__needs_accessible_seat")
    )
    if not entries:
        raise FloorError(_("Nobody is registered yet."))
    needed = tables_needed(len(entries), tournament.seats_per_table)
    have = tournament.tables.count()
    while have < needed:  # opened without reading them back: they are read as rows below
        have += len(
            _open_tables(
                tournament,
                min(1000, needed - have),
                seats=tournament.seats_per_table,
                actor=actor,
            )
        )
    # Plain rows, not model instances (3,334 tables at 30,000 entries); the accessible seats
    # only when someone needs one.
    needing = [pk for pk, needs in entries if needs]
    tables = list(
        tournament.tables.order_by("opening_order", "number").values_list(
            "number", "pk", "seats", "accessible_seats" if needing else "seats"
        )
    )
    table_ids = {number: pk for number, pk, _seats, _acc in tables}
    reserved = _accessible_pins(
        needing, [(number, seats, acc) for number, _pk, seats, acc in tables[: max(needed, 1)]]
    )
    pairs = [(k.first_id, k.second_id) for k in KeepApart.objects.filter(tournament=tournament)]
    try:
        result = draw(
            [pk for pk, _needs in entries],
            [(number, seats) for number, _pk, seats, _acc in tables],
            reserved=reserved,
            keep_apart=pairs,
        )
    except SeatingError as exc:
        raise FloorError(
            _("The draw is not possible: %(reason)s") % {"reason": seating_reason(exc)}
        ) from exc
    counts: dict[int, int] = {}
    for seat in result.values():
        counts[seat.table] = counts.get(seat.table, 0) + 1
    with _draw_sets_counts():
        SeatAssignment.objects.filter(table__tournament=tournament).delete()
        _reset_tables(tournament, counts)
        _insert_seats(
            [(entry_id, table_ids[seat.table], seat.seat) for entry_id, seat in result.items()]
        )
    used = set(counts)
    event_record(
        tournament=tournament,
        action="seats.redraw" if redraw else "seats.draw",
        actor=actor,
        payload={"seated": len(result), "tables": sorted(used)},
    )
    # Thousands of seats are not sent one by one: the phones and tablets ask once each, spread
    # over a few seconds (static/floor/seat.js, static/tables/dealer.js).
    broadcast_on_commit(tournament_group(tournament.pk), "seating", {"draw": True})
    notify_chart(tournament.pk)
    return len(result)


@transaction.atomic
def seats_place(
    *,
    tournament: Tournament,
    seats: Mapping[int, tuple[int, int]],
    stacks: Mapping[int, int],
    actor: Actor,
    how: str,
) -> int:
    """Seat a field drawn elsewhere (an event's Day 2 from its flights' bags, festivals/):
    `seats` = {entry id: (table number, seat)}, `stacks` = {entry id: chips carried}. Opens the
    tables it needs; refused when seats exist already. Returns the number seated."""
    tournament = lock_tournament(tournament.pk)
    if tournament.status not in SEATED_STATUSES:
        raise FloorError(_("Seats are drawn once registration is open."))
    have = set(tournament.tables.values_list("number", flat=True))
    # Seats are at the tournament's tables: without a table there is no seat to look for.
    if have and SeatAssignment.objects.filter(table__tournament=tournament).exists():
        raise FloorError(_("Seats have been drawn already. Use a redraw to start over."))
    counts: dict[int, int] = {}
    for table_number, _seat in seats.values():
        counts[table_number] = counts.get(table_number, 0) + 1
    numbers = list(range(1, max(counts, default=0) + 1))
    with _draw_sets_counts():
        if not have and connection.vendor == "postgresql" and set(counts) == set(numbers):
            # A field's first tables (a Day 2): opened with their head counts and nothing to
            # reset, without reading them back (22 ms of a 3,000-player draw, bench/festival.py).
            ids = _open_tables(
                tournament,
                len(numbers),
                seats=tournament.seats_per_table,
                actor=actor,
                players=[counts[n] for n in numbers],
                first=True,
            )
            table_ids = dict(zip(numbers, ids, strict=True))
        else:
            missing = max(counts, default=0) - max(have, default=0)
            if missing > 0:
                _open_tables(tournament, missing, seats=tournament.seats_per_table, actor=actor)
            table_ids = dict(tournament.tables.values_list("number", "pk"))
            _reset_tables(tournament, counts)
        rows = [(entry_id, table_ids[t], s) for entry_id, (t, s) in seats.items()]
        _insert_seats(rows, stacks=[stacks.get(entry_id) for entry_id, _t, _s in rows])
    event_record(
        tournament=tournament,
        action="seats.draw",
        actor=actor,
        payload={"seated": len(rows), "tables": sorted(counts), "how": how},
    )
    broadcast_on_commit(tournament_group(tournament.pk), "seating", {"draw": True})
    notify_chart(tournament.pk)
    return len(rows)


@contextmanager
def _draw_sets_counts() -> Iterator[None]:
    """While the draw replaces every seat, the seat triggers leave the tables' head counts to
    `_reset_tables`, which writes them (PostgreSQL; tournament/counters.py)."""
    if connection.vendor != "postgresql":
        yield
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT set_config('floor.draw_sets_counts', 'on', true)")
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            cursor.execute("SELECT set_config('floor.draw_sets_counts', 'off', true)")


def _reset_tables(tournament: Tournament, counts: dict[int, int]) -> None:
    """In one statement: no button or blinds anywhere, the tables in `counts` (number -> players
    drawn there) open with those head counts, the rest closed and empty."""
    used = sorted(counts)
    tablets_close(
        pk
        for number, pk in Table.objects.filter(tournament=tournament, is_open=True).values_list(
            "number", "pk"
        )
        if number not in counts
    )
    if connection.vendor != "postgresql":
        Table.objects.filter(tournament=tournament).update(
            button_seat=None, small_blind_seat=None, big_blind_seat=None, hand_number=0
        )
        Table.objects.filter(tournament=tournament, number__in=used).update(
            is_open=True, closed_at=None
        )
        Table.objects.filter(tournament=tournament).exclude(number__in=used).update(is_open=False)
        return
    table = connection.ops.quote_name(Table._meta.db_table)
    with connection.cursor() as cursor:
        # A hash join with the drawn tables (= ANY over an array would scan it for every row:
        # half a second at 3,000 tables).
        cursor.execute(
            f"UPDATE {table} t SET button_seat = NULL, small_blind_seat = NULL, "  # noqa: S608
            "big_blind_seat = NULL, hand_number = 0, is_open = (u.number IS NOT NULL), "
            "closed_at = CASE WHEN u.number IS NULL THEN t.closed_at END, "
            "players = COALESCE(u.players, 0) "
            f"FROM {table} t2 LEFT JOIN unnest(%s::int[], %s::int[]) AS u(number, players) "
            "ON u.number = t2.number WHERE t2.id = t.id AND t2.tournament_id = %s",
            [_int_array(used), _int_array(counts[n] for n in used), tournament.pk],
        )


def _int_array(values: Iterable[int]) -> str:
    """A PostgreSQL array literal of integers, for a `%s::int[]` parameter: psycopg adapts a
    list element by element in Python (20 ms for 30,000 numbers), a string in one piece."""
    return "{" + ",".join(map(str, values)) + "}"


def _insert_seats(
    rows: list[tuple[int, int, int]],
    *,
    waits: Sequence[bool] | None = None,
    stacks: Sequence[int | None] | None = None,
) -> None:
    """Insert (entry id, table id, seat) rows, with whether each sits out and its stack. On
    PostgreSQL one statement over arrays (a 30,000-player draw in a fraction of a second);
    elsewhere in batches through the ORM."""
    if connection.vendor != "postgresql":
        waits = waits or [False] * len(rows)
        stacks = stacks or [None] * len(rows)
        SeatAssignment.objects.bulk_create(
            (
                SeatAssignment(entry_id=e, table_id=t, seat=s, must_wait=w, stack=k)
                for (e, t, s), w, k in zip(rows, waits, stacks, strict=True)
            ),
            batch_size=500,
        )
        return
    table = connection.ops.quote_name(SeatAssignment._meta.db_table)
    # Seated at (in the select list), then the arrays in the order of `names`.
    params: list[Any] = [
        timezone.now(),
        _int_array([r[0] for r in rows]),
        _int_array([r[1] for r in rows]),
        _int_array([r[2] for r in rows]),
    ]
    arrays, names = ["%s::bigint[]", "%s::bigint[]", "%s::int[]"], ["e", "t", "s"]
    # A draw seats nobody waiting and knows no stacks: constants instead of two more arrays.
    if waits:
        arrays.append("%s::boolean[]")
        names.append("w")
        params.append("{" + ",".join("t" if w else "f" for w in waits) + "}")
    if stacks:
        arrays.append("%s::int[]")
        names.append("k")
        params.append("{" + ",".join("NULL" if k is None else str(k) for k in stacks) + "}")
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table} (entry_id, table_id, seat, must_wait, stack, seated_at) "  # noqa: S608
            f"SELECT e, t, s, {'w' if waits else 'false'}, {'k' if stacks else 'NULL::int'}, "
            f"%s FROM unnest({', '.join(arrays)}) AS x({', '.join(names)})",
            params,
        )


def _accessible_pins(
    needing: Sequence[int], tables: Sequence[tuple[int, int, list[int] | None]]
) -> dict[int, tuple[int, int]]:
    """Entry id -> (table number, seat) for the players who need an accessible seat, given the
    tables as (number, seats, accessible seats) in opening order."""
    if not needing:
        return {}
    slots = [(number, s) for number, seats, acc in tables for s in acc or [] if 1 <= s <= seats]
    return dict(zip(needing, slots, strict=False))
