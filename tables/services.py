"""Seat-changing services. Every one locks the tournament row first, so two floor people and
forty tablets acting at once are serialized per tournament; the database constraints (one
player per seat, one seat per player) are the last line of defence."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import asdict
from datetime import datetime
from typing import Any, TypeVar

from django.db import connection, transaction
from django.db.models import F, Max, Min, Q, Sum
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from rules_engine.services import penalties_count_hand, tournament_ruleset
from tables.domain.button import (
    Blinds,
    ButtonError,
    deal_next_hand,
    first_hand,
)
from tables.domain.seating import (
    BalancePlan,
    BustPending,
    HeadCounts,
    Move,
    NeedMoreCounts,
    Rules,
    SeatingError,
    TableClosed,
    TableCount,
    TableState,
    apply_moves,
    break_due,
    draw,
    emptiest_first,
    fewest_open_tables,
    fullest_first,
    hold_threshold,
    late_seat,
    newcomer,
    pairs_together,
    plan_balance_lazy,
    plan_break_lazy,
    plan_final_table,
    secure_random,
    tables_apart,
    tables_needed,
)
from tables.models import (
    KeepApart,
    ReportKind,
    SeatAssignment,
    Table,
    TableReport,
    TimeCall,
    blinds_of,
)
from tournament.errors import Conflict, FloorError
from tournament.events import Actor, event_record
from tournament.models import Entry, EntryStatus, Status, Tournament
from tournament.realtime import (
    broadcast_on_commit,
    console_group,
    dealer_group,
    entry_group,
    table_group,
    tournament_group,
)
from tournament.selectors import event_renumbered

T = TypeVar("T")

SEATED_STATUSES = (Status.REGISTERING, Status.RUNNING, Status.FINAL_TABLE)


def balance_rules(tournament: Tournament) -> Rules:
    """Balancing parameters of the tournament's ruleset: the tournament's tolerance (tda-de 10,
    default 1); the hold threshold of the ruleset for the tournament's table size (tda-de 10:
    three short at full tables; short-handed the ruleset's own); bdpv keeps the mover's position
    to the button and never moves a player who posts a blind next (bdpv 3.7, 6.12)."""
    rules = tournament_ruleset(tournament)
    tolerance = tournament.balance_tolerance or 1
    return Rules(
        tolerance=tolerance,
        hold_short_by=hold_threshold(
            tournament.seats_per_table,
            full_ring=rules.hold_short_by,
            short_handed=rules.hold_short_by_short_handed,
            tolerance=tolerance,
        ),
        keep_position=rules.keep_position_on_move,
        never_move_blind_posters=rules.never_move_blind_posters,
    )


def _lock(tournament: Tournament) -> Tournament:
    """Every seat-changing service starts here, so they queue per tournament in one order."""
    return Tournament.objects.select_for_update(no_key=True).get(pk=tournament.pk)


def table_state(
    table: Table,
    rows: Iterable[SeatAssignment] | None = None,
    leaving: Collection[int] | None = None,
) -> TableState:
    """The table during the hand being played. `leaving`: the entries out in that hand (see
    `_leaving_entries`); read for this table when not given."""
    if rows is None:
        rows = table.assignments.all()
    if leaving is None:
        leaving = _leaving_entries([table])
    return _state(
        table.number,
        table.seats,
        table.blinds(),
        table.opening_order,
        ((row.seat, row.entry_id, row.must_wait, row.entry_id in leaving) for row in rows),
    )


def _state(
    number: int,
    size: int,
    blinds: Blinds | None,
    opening_order: int,
    seats: Iterable[tuple[int, int, bool, bool]],
) -> TableState:
    """A table as the seating plans see it, from its (seat, entry id, sits out, is out in the
    hand being played) rows."""
    seated: dict[int, int] = {}
    waiting: set[int] = set()
    leaving: set[int] = set()
    for seat, entry, wait, out in seats:
        seated[seat] = entry
        if wait:
            waiting.add(seat)
        if out:
            leaving.add(seat)
    return TableState(
        number=number,
        size=size,
        seated=seated,
        blinds=blinds,
        waiting=frozenset(waiting),
        opening_order=opening_order,
        leaving=frozenset(leaving),
    )


def _leaving_entries(tables: Sequence[Table], up_to_hand: int | None = None) -> set[int]:
    """Entries a dealer reported out at their table, in the hand it is playing or an earlier
    one (several "hand done" taps before the floor came; or up to hand `up_to_hand`), not yet
    confirmed or dismissed (their seats are not free yet), at any of `tables`, in one query.
    The caller keeps those still seated at the table (not moved, not busted at the desk)."""
    return set(
        TableReport.objects.filter(
            table__in=[t.pk for t in tables],
            kind=ReportKind.BUST,
            resolved_at__isnull=True,
            hand_number__lte=F("table__hand_number") if up_to_hand is None else up_to_hand,
        ).values_list("entry_id", flat=True)
    )


def _leaving_seats(
    table: Table, rows: Iterable[SeatAssignment], up_to_hand: int | None = None
) -> set[int]:
    """The seats of `rows` (the table's seats) whose players are leaving (`_leaving_entries`)."""
    leaving = _leaving_entries([table], up_to_hand)
    return {r.seat for r in rows if r.entry_id in leaving}


def open_tables(tournament: Tournament) -> list[Table]:
    return list(tournament.tables.filter(is_open=True).order_by("opening_order", "number"))


def _notify_tables(tournament: Tournament, table_ids: Iterable[int], data: dict[str, Any]) -> None:
    """Tell the tables' views (by table id) and the console that seats changed."""
    for table_id in set(table_ids):
        broadcast_on_commit(table_group(table_id), "table", data)
    broadcast_on_commit(console_group(tournament.pk), "seating", data)


# --- Tables ---------------------------------------------------------------------------


@transaction.atomic
def tables_create(
    *, tournament: Tournament, count: int, actor: Actor, area: str = "", seats: int | None = None
) -> list[Table]:
    """Open `count` more tables, numbered after the highest existing one."""
    tournament = _lock(tournament)
    if not 1 <= count <= 1000:
        raise FloorError(_("Open between 1 and 1,000 tables at a time."))
    seats = seats or tournament.seats_per_table
    if not 2 <= seats <= 10:
        raise FloorError(_("A table has 2 to 10 seats."))
    last = tournament.tables.order_by("-number").first()
    start = (last.number if last else 0) + 1
    order = (last.opening_order if last else 0) + 1
    tables = Table.objects.bulk_create(
        Table(
            tournament=tournament,
            number=start + i,
            seats=seats,
            area=area,
            opening_order=order + i,
        )
        for i in range(count)
    )
    event_record(
        tournament=tournament,
        action="tables.open",
        actor=actor,
        payload={"numbers": [t.number for t in tables], "seats": seats, "area": area},
    )
    return tables


@transaction.atomic
def seats_draw(*, tournament: Tournament, actor: Actor, redraw: bool = False) -> int:
    """Random seat draw of every active entry (tda-de 6), filling the opening order evenly;
    players needing an accessible seat get one (tda-de 8); keep-apart pairs are split
    (bdpv seating rule 4). A redraw replaces the whole draw. Returns the number seated."""
    tournament = _lock(tournament)
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
    while have < needed:
        have += len(
            tables_create(tournament=tournament, count=min(1000, needed - have), actor=actor)
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
        raise FloorError(_("The draw is not possible: %(reason)s") % {"reason": exc}) from exc
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
    broadcast_on_commit(tournament_group(tournament.pk), "seating", {"draw": True})
    broadcast_on_commit(console_group(tournament.pk), "seating", {"draw": True})
    return len(result)


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
    _tablets_close(
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


@transaction.atomic
def entry_seat(*, tournament: Tournament, entry: Entry, actor: Actor) -> SeatAssignment:
    """Seat a late entry or a promoted alternate at a random open seat (tda-de 7), away from
    his keep-apart partners when a table with the fewest players allows it (bdpv seating
    rule 4; the event names the partners he could not be kept from)."""
    tournament = _lock(tournament)
    entry = Entry.objects.select_for_update().get(pk=entry.pk, tournament=tournament)
    if entry.status != EntryStatus.ACTIVE:
        raise FloorError(_("Only a player in the tournament can be seated."))
    if SeatAssignment.objects.filter(entry=entry).exists():
        raise FloorError(_("This player has a seat already."))
    numbers = _with_head_counts(tournament, fewest_open_tables)
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
    _notify_tables(
        tournament,
        [table.pk],
        {"seated": entry.pk, **({"together": payload["together"]} if together else {})},
    )
    broadcast_on_commit(entry_group(entry.pk), "seat", {"table": table.number, "seat": seat.seat})
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


def seating_is_drawn(tournament: Tournament) -> bool:
    return SeatAssignment.objects.filter(table__tournament=tournament).exists()


def _rows_by_table(tables: Sequence[Table]) -> dict[int, list[SeatAssignment]]:
    rows: dict[int, list[SeatAssignment]] = {}
    for row in SeatAssignment.objects.filter(table__in=tables):
        rows.setdefault(row.table_id, []).append(row)
    return rows


# --- Button and hands -------------------------------------------------------------------


@transaction.atomic
def button_set(*, table: Table, seat: int, actor: Actor) -> Table:
    """The floor sets (or corrects) the button; the blinds follow for the next hand."""
    table = Table.objects.select_for_update(no_key=True).get(pk=table.pk)
    players = set(table.assignments.filter(must_wait=False).values_list("seat", flat=True))
    try:
        blinds = first_hand(table.seats, players, seat)
    except ButtonError as exc:
        raise FloorError(_("The button cannot go there: %(reason)s") % {"reason": exc}) from exc
    table.set_blinds(blinds)
    table.save(update_fields=["button_seat", "small_blind_seat", "big_blind_seat"])
    event_record(
        tournament=table.tournament,
        action="table.button",
        actor=actor,
        payload={"table": table.number, **asdict(blinds)},
    )
    broadcast_on_commit(table_group(table.pk), "table", {"button": seat})
    broadcast_on_commit(console_group(table.tournament_id), "seating", {"table": table.number})
    return table


@transaction.atomic
def hand_done(*, table: Table, actor: Actor, hand_number: int | None = None) -> Table:
    """The dealer finished a hand: the next hand's positions by the dead-button rules (tda-de
    32-34, bdpv 3.2) and players who waited for the button dealt in. Idempotent per hand: a
    repeated tap with the same `hand_number` does nothing.

    Players reported out in the hand just finished are not dealt into the next one, whether
    the floor has confirmed their bust yet or not: the big blind moves on past them, so the
    next hand is the same whatever the order of "hand done" and the confirmation."""
    # The same lock order as every seat change: the tournament, then the table, then seats.
    _lock(Tournament(pk=table.tournament_id))
    table = (
        Table.objects.select_for_update(no_key=True).select_related("tournament").get(pk=table.pk)
    )
    if hand_number is not None and hand_number != table.hand_number:
        return table
    rows = list(table.assignments.select_for_update())
    leaving = _leaving_seats(table, rows)
    previous = table.blinds()
    table.previous_button_seat = table.button_seat
    table.previous_small_blind_seat = table.small_blind_seat
    table.previous_big_blind_seat = table.big_blind_seat
    _deal_next_hand(table, rows, previous, leaving)
    table.hand_number += 1
    penalties_count_hand(table)
    tournament = table.tournament
    table.hand_level = _level_index(tournament)
    if tournament.hand_for_hand:
        table.h4h_done_round = tournament.h4h_round
    table.save(
        update_fields=[
            "button_seat",
            "small_blind_seat",
            "big_blind_seat",
            "previous_button_seat",
            "previous_small_blind_seat",
            "previous_big_blind_seat",
            "hand_number",
            "hand_level",
            "h4h_done_round",
        ]
    )
    event_record(
        tournament=tournament,
        action="table.hand",
        actor=actor,
        payload={
            "table": table.number,
            "hand": table.hand_number,
            "button": table.button_seat,
            "big_blind": table.big_blind_seat,
            "not_dealt_in": sorted(leaving),
        },
    )
    if tournament.hand_for_hand:
        _h4h_maybe_next(tournament, actor)
    broadcast_on_commit(table_group(table.pk), "table", {"hand": table.hand_number})
    broadcast_on_commit(console_group(tournament.pk), "seating", {"table": table.number})
    return table


def _deal_next_hand(
    table: Table, rows: list[SeatAssignment], previous: Blinds | None, leaving: set[int]
) -> None:
    """Set the positions of the table's next hand from the hand before it (`previous`) by the
    one rule for "the next hand" (`tables.domain.button.deal_next_hand`): players reported out
    are not dealt in; players waiting for the button (tda-de 7, 9) are dealt in once it has
    passed them, or at once when fewer than two players would be dealt in without them."""
    playing = {r.seat for r in rows if not r.must_wait and r.seat not in leaving}
    waiting = {r.seat for r in rows if r.must_wait and r.seat not in leaving}
    if len(playing) < 2:
        playing |= waiting  # no hand without them: everyone at the table is dealt in
    if len(playing) < 2:
        return
    if previous is None:
        blinds, dealt = first_hand(table.seats, playing, min(playing)), frozenset(playing)
    else:
        blinds, dealt = deal_next_hand(table.seats, previous, playing, waiting)
    table.set_blinds(blinds)
    released = [r for r in rows if r.must_wait and r.seat in dealt]
    for r in released:
        r.must_wait = False
    if released:
        SeatAssignment.objects.bulk_update(released, ["must_wait"])


def _level_index(tournament: Tournament) -> int:
    from clocks.selectors import clock_state_for

    state = clock_state_for(tournament)
    return state.level_index if state.started else -1


def _h4h_maybe_next(tournament: Tournament, actor: Actor) -> None:
    tournament = _lock(tournament)
    pending = tournament.tables.filter(is_open=True, h4h_done_round__lt=tournament.h4h_round)
    if pending.exists():
        return
    tournament.h4h_round += 1
    tournament.save(update_fields=["h4h_round"])
    event_record(
        tournament=tournament,
        action="h4h.next",
        actor=actor,
        payload={"round": tournament.h4h_round},
    )
    broadcast_on_commit(tournament_group(tournament.pk), "h4h", {"round": tournament.h4h_round})
    for pk in tournament.tables.filter(is_open=True).values_list("pk", flat=True):
        broadcast_on_commit(table_group(pk), "table", {"h4h_round": tournament.h4h_round})


@transaction.atomic
def hand_for_hand_set(*, tournament: Tournament, on: bool, actor: Actor) -> Tournament:
    tournament = _lock(tournament)
    tournament.hand_for_hand = on
    if on:
        tournament.h4h_round += 1
    tournament.save(update_fields=["hand_for_hand", "h4h_round"])
    event_record(
        tournament=tournament,
        action="h4h.set",
        actor=actor,
        payload={"on": on, "round": tournament.h4h_round},
    )
    broadcast_on_commit(tournament_group(tournament.pk), "h4h", {"on": on})
    for pk in tournament.tables.filter(is_open=True).values_list("pk", flat=True):
        broadcast_on_commit(table_group(pk), "table", {"h4h": on})
    return tournament


# --- Balancing, breaking, final table ---------------------------------------------------


# Rows read from each end of the room for a plan; more are read only when the plan needs them.
HEAD_ROWS = 8


def _head_counts(tournament: Tournament, fullest: int, emptiest: int) -> HeadCounts:
    """The `fullest` fullest and the `emptiest` emptiest open tables, in one statement (the
    two partial indexes on the table's head count serve it)."""
    table = connection.ops.quote_name(Table._meta.db_table)
    part = (
        f"SELECT * FROM (SELECT %s AS end_, number, players, seats FROM {table} "  # noqa: S608
        "WHERE tournament_id = %s AND is_open ORDER BY players {order}, number LIMIT %s) AS {alias}"
    )
    sql = (
        part.format(order="DESC", alias="fullest")
        + " UNION ALL "
        + part.format(order="ASC", alias="emptiest")
    )
    full: list[TableCount] = []
    empty: list[TableCount] = []
    with connection.cursor() as cursor:
        cursor.execute(sql, [0, tournament.pk, fullest, 1, tournament.pk, emptiest])
        for end, number, players, seats in cursor.fetchall():
            (empty if end else full).append(TableCount(number, players, seats))
    full.sort(key=fullest_first)
    empty.sort(key=emptiest_first)
    return HeadCounts(tuple(full), tuple(empty), fullest, emptiest)


def _with_head_counts(tournament: Tournament, plan: Callable[[HeadCounts], T]) -> T:
    """Run `plan` on the head counts at both ends of the room, reading more rows from the end
    it asks for: eight times as many, or every table up to the head count it names."""
    limits = {"fullest": HEAD_ROWS, "emptiest": HEAD_ROWS}
    while True:
        try:
            return plan(_head_counts(tournament, limits["fullest"], limits["emptiest"]))
        except NeedMoreCounts as more:
            if more.players_at_most is None:
                limits[more.end] *= 8
            else:  # every table up to that head count, and one more to mark the edge
                at_most = tournament.tables.filter(
                    is_open=True, players__lte=more.players_at_most
                ).count()
                limits[more.end] = max(limits[more.end], at_most) + 1


def _loader(
    tournament: Tournament, pairs: set[tuple[int, int]] | None = None
) -> Callable[[Iterable[int]], dict[int, TableState]]:
    """Load open tables with their seats and who is out in the hand being played (an open bust
    report of the table's current hand), in one query per call; a table read once is not read
    again by the same loader (one plan, inside one transaction). The same query adds to `pairs`
    the keep-apart pairs (bdpv seating rule 4) of every player it loads: all a plan needs to
    know about them, as only the players of the tables it loads can move or be joined."""
    memo: dict[int, TableState] = {}
    table_table = connection.ops.quote_name(Table._meta.db_table)
    seat_table = connection.ops.quote_name(SeatAssignment._meta.db_table)
    report_table = connection.ops.quote_name(TableReport._meta.db_table)
    pair_table = connection.ops.quote_name(KeepApart._meta.db_table)

    def load(numbers: Iterable[int]) -> dict[int, TableState]:
        wanted = set(numbers)
        found = {n: memo[n] for n in wanted if n in memo}
        missing = sorted(wanted - set(found))
        if not missing:
            return found
        tables: dict[int, tuple[Any, ...]] = {}
        seats: dict[int, dict[int, tuple[int, int, bool, bool]]] = {}
        with connection.cursor() as cursor:
            # Written out: through the ORM this read cost 2 ms, most of it building the query.
            # A player with keep-apart pairs comes once per pair.
            cursor.execute(
                f"SELECT t.number, t.seats, t.button_seat, t.small_blind_seat, "  # noqa: S608
                "t.big_blind_seat, t.opening_order, s.seat, s.entry_id, s.must_wait, "
                f"EXISTS (SELECT 1 FROM {report_table} r WHERE r.table_id = t.id "
                "AND r.entry_id = s.entry_id AND r.kind = %s AND r.resolved_at IS NULL "
                "AND r.hand_number <= t.hand_number), k.first_id, k.second_id "
                f"FROM {table_table} t LEFT JOIN {seat_table} s ON s.table_id = t.id "
                f"LEFT JOIN {pair_table} k ON k.tournament_id = t.tournament_id "
                "AND (k.first_id = s.entry_id OR k.second_id = s.entry_id) "
                f"WHERE t.tournament_id = %s AND t.is_open "
                f"AND t.number IN ({', '.join(['%s'] * len(missing))})",
                [ReportKind.BUST.value, tournament.pk, *missing],
            )
            rows = cursor.fetchall()
        for number, size, button, sb, bb, order, seat, entry, wait, out, first, second in rows:
            tables[number] = (size, blinds_of(button, sb, bb), order)
            if seat is not None:
                seats.setdefault(number, {})[seat] = (seat, entry, wait, bool(out))
            if first is not None and pairs is not None:
                pairs.add((first, second))
        for n, (size, blinds, order) in tables.items():
            memo[n] = found[n] = _state(n, size, blinds, order, seats.get(n, {}).values())
        return found

    return load


def _counts(tournament: Tournament) -> tuple[dict[int, int], dict[int, int]]:
    """Head count and size of every open table (for pages that show the whole room)."""
    counts: dict[int, int] = {}
    sizes: dict[int, int] = {}
    for number, seats, players in tournament.tables.filter(is_open=True).values_list(
        "number", "seats", "players"
    ):
        counts[number] = players
        sizes[number] = seats
    return counts, sizes


def table_counts(tournament: Tournament) -> dict[int, int]:
    return _counts(tournament)[0]


def break_suggestion(tournament: Tournament) -> int | None:
    """The table to break now, if the players fit in one table fewer (tda-de 9). Usually one
    read of the tournament row: it keeps the open tables and the players still in, an upper
    bound of the players seated, so the tables are only read when a break may be due."""
    tournaments = connection.ops.quote_name(Tournament._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT tables_open, players_left FROM {tournaments} WHERE id = %s",  # noqa: S608
            [tournament.pk],
        )
        tables, left = cursor.fetchone()
    seats = tournament.seats_per_table
    if tables < 2 or left > (tables - 1) * seats:
        return None
    found = tournament.tables.filter(is_open=True).aggregate(
        seated=Sum("players"), lowest=Min("number"), highest=Max("number")
    )
    return break_due(
        players=found["seated"] or 0,
        tables=tables,
        lowest=found["lowest"],
        highest=found["highest"],
        seats_per_table=seats,
        order=tournament.break_order,
    )


def balance_plan(tournament: Tournament) -> BalancePlan:
    """The moves that balance the room now (recomputed every time: never stale). Keep-apart
    pairs a move could not keep apart are in the plan's `together` (bdpv seating rule 4)."""
    rules = balance_rules(tournament)

    def plan_once() -> BalancePlan:
        pairs: set[tuple[int, int]] = set()  # filled by the loader with the tables it reads
        load = _loader(tournament, pairs)
        return _with_head_counts(
            tournament, lambda head: plan_balance_lazy(head, load, rules, pairs)
        )

    for attempt in range(3):
        try:
            return plan_once()
        except TableClosed:
            # Read without the lock (a page, the API): a table broken between the head counts
            # and the seats; the next reads see the room after the break.
            if attempt == 2:
                raise
    raise AssertionError("unreachable")  # the loop returns or raises


@transaction.atomic
def balance_apply(*, tournament: Tournament, signature: str, actor: Actor) -> list[Move]:
    """Apply the balancing plan the floor saw. If the tables changed since (`signature` no
    longer matches), nothing is applied and the floor sees the new plan."""
    tournament = _lock(tournament)
    plan = balance_plan(tournament)
    if plan.signature != signature:
        raise Conflict(
            _("The tables changed since this plan was made. Here is the new plan."),
            code="stale_plan",
        )
    if not plan.moves:
        raise FloorError(_("The tables are balanced; there is nothing to move."))
    together = {"together": [list(p) for p in plan.together]} if plan.together else None
    _apply(tournament, plan.moves, actor, action="seats.balance", payload=together)
    return list(plan.moves)


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


def _tablets_close(table_ids: Iterable[int]) -> None:
    """Tell the dealer tablets of tables being closed (a break, the final table, a redraw) that
    their table is gone: their sockets close and the tablet says to ask the floor (on commit)."""
    for pk in table_ids:
        broadcast_on_commit(table_group(pk), "table_closed", {})


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
    for m in moves:
        broadcast_on_commit(
            entry_group(m.entry),
            "moved",
            {
                "table": m.to_table,
                "seat": m.to_seat,
                "from_table": m.from_table,
                "from_seat": m.from_seat,
                "reason": m.reason,
                "area": tables[m.to_table][1],
            },
        )
    _notify_tables(
        tournament,
        (table_id for table_id, _area in tables.values()),
        {"moves": len(moves), "event": event.pk},
    )
    return event.pk


@transaction.atomic
def table_break(*, tournament: Tournament, number: int, actor: Actor) -> list[Move]:
    """Break table `number` (tda-de 9): its players are redrawn at random into open seats."""
    # The same lock as every seat change; a break needs nothing else from the row.
    tournament = Tournament.objects.select_for_update(no_key=True).only("id").get(pk=tournament.pk)
    pairs: set[tuple[int, int]] = set()  # filled by the loader with the tables it reads
    load = _loader(tournament, pairs)
    try:
        moves = _with_head_counts(
            tournament, lambda head: plan_break_lazy(head, load, number, keep_apart=pairs)
        )
    except BustPending as exc:
        raise FloorError(
            _("A bust reported at table %(n)s is not settled yet: confirm or dismiss it first.")
            % {"n": number}
        ) from exc
    except SeatingError as exc:
        raise FloorError(_("This table cannot be broken: %(reason)s") % {"reason": exc}) from exc
    _tablets_close(
        Table.objects.filter(tournament=tournament, number=number, is_open=True).values_list(
            "pk", flat=True
        )
    )
    # One statement moves the players and closes the table; one event names both.
    if moves:
        payload: dict[str, Any] = {"table": number}
        if pairs:
            # The loader read these tables for the plan already: no further query.
            reached = load({number} | {m.to_table for m in moves}).values()
            together = pairs_together(
                apply_moves(list(reached), moves), pairs, {m.entry for m in moves}
            )
            if together:
                payload["together"] = [list(p) for p in together]
        _apply(tournament, moves, actor, action="seats.break", payload=payload, close=number)
    else:
        _close_table(tournament, number)
        event_record(
            tournament=tournament, action="table.close", actor=actor, payload={"table": number}
        )
    return list(moves)


@transaction.atomic
def final_table_draw(
    *, tournament: Tournament, actor: Actor, table_number: int | None = None
) -> list[Move]:
    """Random redraw of everyone left at the final table (tda-de 11); other tables close."""
    tournament = _lock(tournament)
    tables = open_tables(tournament)
    if not tables:
        raise FloorError(_("No tables are open."))
    rows = _rows_by_table(tables)
    leaving = _leaving_entries(tables)
    states = [table_state(t, rows.get(t.pk, []), leaving) for t in tables]
    left = sum(s.count for s in states)
    # tda-de 11: a full table of the event's size, never more than ten.
    size = min(tournament.final_table_size or tournament.seats_per_table, 10)
    if left > size:
        if left - len(leaving) <= size:
            raise FloorError(
                ngettext(
                    "A reported bust is not settled yet; confirm or dismiss it, then draw the "
                    "final table.",
                    "%(n)s reported busts are not settled yet; confirm or dismiss them, then "
                    "draw the final table.",
                    len(leaving),
                )
                % {"n": len(leaving)}
            )
        raise FloorError(
            _("%(left)s players are left; the final table seats %(size)s.")
            % {"left": left, "size": size}
        )
    number = table_number or min(t.number for t in tables)
    final = next((t for t in tables if t.number == number), None)
    if final is None:
        raise FloorError(_("Table %(n)s is not open.") % {"n": number})
    if final.seats < size:
        final.seats = size
        final.save(update_fields=["seats"])
    moves = plan_final_table(states, number, size)
    _apply(tournament, moves, actor, action="seats.final")
    _tablets_close(t.pk for t in tables if t.pk != final.pk)
    Table.objects.filter(tournament=tournament).exclude(pk=final.pk).update(
        is_open=False, closed_at=timezone.now()
    )
    final.set_blinds(None)
    final.save(update_fields=["button_seat", "small_blind_seat", "big_blind_seat"])
    if tournament.status == Status.RUNNING:
        tournament.status = Status.FINAL_TABLE
        tournament.save(update_fields=["status"])
        event_record(
            tournament=tournament,
            action="tournament.status",
            actor=actor,
            payload={"from": Status.RUNNING, "to": Status.FINAL_TABLE},
        )
    return list(moves)


@transaction.atomic
def moves_undo(*, tournament: Tournament, event_id: int, actor: Actor) -> int:
    """Undo applied moves (a balance or break): everyone goes back if their old seats are free
    and they still sit where the moves put them."""
    tournament = _lock(tournament)
    from tournament.models import Event

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


@transaction.atomic
def seat_move(
    *, tournament: Tournament, entry: Entry, table_number: int, seat: int, actor: Actor
) -> None:
    """A move the floor makes by hand (for example after a wrong seat, tda-de 6)."""
    tournament = _lock(tournament)
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


# --- Dealer reports and time calls ----------------------------------------------------------


@transaction.atomic
def report_bust(
    *, table: Table, seat: int, stack_at_hand_start: int | None, actor: Actor
) -> TableReport:
    """A dealer reports a bust in the hand being played; the floor confirms it (then it
    counts). The report keeps the hand: its number, its button and the hand-for-hand round, so
    that players out in the same hand are ranked together (bdpv 6.28) whenever the floor
    confirms them, and the next hand is dealt without the player."""
    _lock(Tournament(pk=table.tournament_id))
    table = (
        Table.objects.select_for_update(no_key=True).select_related("tournament").get(pk=table.pk)
    )
    row = table.assignments.filter(seat=seat).first()
    if row is None:
        raise FloorError(_("Nobody sits in seat %(s)s.") % {"s": seat})
    tournament = table.tournament
    if stack_at_hand_start is not None and stack_at_hand_start > tournament.chips_in:
        raise FloorError(
            _("A stack of %(stack)s is more than the chips in play (%(chips)s).")
            % {"stack": stack_at_hand_start, "chips": tournament.chips_in}
        )
    if TableReport.objects.filter(
        entry_id=row.entry_id, kind=ReportKind.BUST, resolved_at__isnull=True
    ).exists():
        raise FloorError(_("This bust has been reported already."))
    playing = table.assignments.exclude(entry_id__in=_leaving_entries([table])).count()
    if playing <= 1:
        raise FloorError(_("The last player at the table cannot be out in this hand."))
    report = TableReport.objects.create(
        table=table,
        kind=ReportKind.BUST,
        entry_id=row.entry_id,
        seat=seat,
        stack_at_hand_start=stack_at_hand_start,
        hand_number=table.hand_number,
        button_seat=table.button_seat,
        h4h_round=tournament.h4h_round if tournament.hand_for_hand else None,
    )
    event_record(
        tournament=tournament,
        action="table.report_bust",
        actor=actor,
        payload={
            "table": table.number,
            "seat": seat,
            "entry": row.entry_id,
            "hand": table.hand_number,
            "stack": stack_at_hand_start,
        },
    )
    broadcast_on_commit(console_group(table.tournament_id), "report", {"table": table.number})
    broadcast_on_commit(table_group(table.pk), "table", {"reported": seat})
    return report


@transaction.atomic
def call_floor(*, table: Table, note: str, actor: Actor) -> TableReport:
    note = note.strip()[:200]
    report = TableReport.objects.create(
        table=table, kind=ReportKind.FLOOR, note=note, hand_number=table.hand_number
    )
    event_record(
        tournament=table.tournament,
        action="table.call_floor",
        actor=actor,
        payload={"table": table.number, "note": note},
    )
    broadcast_on_commit(
        console_group(table.tournament_id), "report", {"table": table.number, "floor": True}
    )
    return report


@transaction.atomic
def report_resolve(
    *,
    report: TableReport,
    confirm: bool,
    actor: Actor,
    eliminated_by: tuple[int, ...] | Mapping[int, tuple[int, ...]] = (),
    stacks: Mapping[int, int | None] | None = None,
) -> TableReport:
    """The floor confirms a reported bust (the elimination is made; in a bounty tournament
    with who knocked the player out) or dismisses a report. `eliminated_by` and `stacks` may
    be given per report id (the floor confirming a hand's reports together types each one's
    eliminators and, where the dealer left it out, the stack at the start of the hand).

    Confirming one bust of a hand confirms every bust still waiting from the same hand (the
    same table and hand number, or the same hand-for-hand round), so they are ranked together
    as the ruleset says, whichever the floor clicked first; a bust confirmed later for a hand
    already recorded joins that hand's ranking (tournament/services/eliminations.py)."""
    report = (
        TableReport.objects.select_for_update(of=("self",))
        .select_related("table__tournament", "entry")
        .get(pk=report.pk)
    )
    if report.resolved_at is not None:
        raise FloorError(_("This report has been handled already."))
    tournament = report.table.tournament
    resolved = [report]
    if report.kind == ReportKind.BUST and confirm:
        from tournament.services.eliminations import BustReport, entries_bust

        resolved = _same_hand_reports(report)
        by = eliminated_by if isinstance(eliminated_by, Mapping) else {report.pk: eliminated_by}
        for r in resolved:
            typed = (stacks or {}).get(r.pk)
            if typed is not None:
                r.stack_at_hand_start = typed
        entries_bust(
            tournament=tournament,
            busts=[
                BustReport(
                    entry=r.entry,
                    stack_at_hand_start=r.stack_at_hand_start,
                    eliminated_by=by.get(r.pk, ()),
                    hand_number=r.hand_number,
                    button_seat=r.button_seat,
                    h4h_round=r.h4h_round,
                )
                for r in resolved
                if r.entry is not None
            ],
            actor=actor,
        )
        resolution = "confirmed"
    else:
        resolution = "done" if report.kind == ReportKind.FLOOR else "dismissed"
    now = timezone.now()
    for r in resolved:
        r.resolution = resolution
        r.resolved_at = now
    TableReport.objects.bulk_update(resolved, ["resolution", "resolved_at", "stack_at_hand_start"])
    if resolution == "dismissed" and report.hand_number < report.table.hand_number:
        _redeal_after_dismissal(report)
    event_record(
        tournament=tournament,
        action="table.report_resolve",
        actor=actor,
        payload={
            "report": report.pk,
            "reports": [r.pk for r in resolved],
            "resolution": resolution,
        },
    )
    broadcast_on_commit(console_group(tournament.pk), "report", {"resolved": report.pk})
    broadcast_on_commit(table_group(report.table_id), "table", {"resolved": report.pk})
    return report


def _same_hand_reports(report: TableReport) -> list[TableReport]:
    """The waiting bust reports of the report's hand, the report first (locked)."""
    same = TableReport.objects.select_for_update(of=("self",)).select_related("entry", "table")
    same = same.filter(kind=ReportKind.BUST, resolved_at__isnull=True).exclude(pk=report.pk)
    if report.h4h_round is not None:
        same = same.filter(
            table__tournament_id=report.table.tournament_id, h4h_round=report.h4h_round
        )
    else:
        same = same.filter(table_id=report.table_id, hand_number=report.hand_number, h4h_round=None)
    return [report, *same.order_by("id")]


def _redeal_after_dismissal(report: TableReport) -> None:
    """A bust reported in the hand before the current one turned out wrong: the player is still
    in, so the current hand's positions are worked out again from the hand before it with the
    player dealt in (only while that hand is still the table's latest)."""
    table = Table.objects.select_for_update(no_key=True).get(pk=report.table_id)
    if report.hand_number != table.hand_number - 1 or table.previous_big_blind_seat is None:
        return
    previous = blinds_of(
        table.previous_button_seat, table.previous_small_blind_seat, table.previous_big_blind_seat
    )
    rows = list(table.assignments.select_for_update())
    still_out = _leaving_seats(table, rows, up_to_hand=report.hand_number)
    _deal_next_hand(table, rows, previous, still_out)
    table.save(update_fields=["button_seat", "small_blind_seat", "big_blind_seat"])


def time_call_of(tournament: Tournament) -> tuple[int, int]:
    """Seconds to act after a time call, then the countdown, in the tournament's ruleset
    version (tda-de 29, bdpv 5.12)."""
    return tournament_ruleset(tournament).time_call


@transaction.atomic
def time_call_start(
    *, table: Table, seat: int | None, actor: Actor, now: datetime | None = None
) -> TimeCall:
    """A clock on a player: tda-de 29 (60 seconds, then a 10-second countdown), bdpv NL 12
    (one minute with a ten-second warning)."""
    table = Table.objects.select_for_update().select_related("tournament").get(pk=table.pk)
    now = now or timezone.now()
    seconds, countdown = time_call_of(table.tournament)
    TimeCall.objects.filter(table=table, cancelled_at__isnull=True).update(cancelled_at=now)
    call = TimeCall.objects.create(
        table=table, seat=seat, started_at=now, seconds=seconds, countdown=countdown
    )
    event_record(
        tournament=table.tournament,
        action="table.time_call",
        actor=actor,
        payload={"table": table.number, "seat": seat, "seconds": seconds, "countdown": countdown},
    )
    broadcast_on_commit(table_group(table.pk), "time_call", time_call_payload(call) or {})
    return call


@transaction.atomic
def time_call_cancel(*, table: Table, actor: Actor) -> None:
    n = TimeCall.objects.filter(table=table, cancelled_at__isnull=True).update(
        cancelled_at=timezone.now()
    )
    if n:
        event_record(
            tournament=table.tournament,
            action="table.time_call_cancel",
            actor=actor,
            payload={"table": table.number},
        )
        broadcast_on_commit(table_group(table.pk), "time_call", {"cancelled": True})


def time_call_payload(call: TimeCall | None) -> dict[str, Any] | None:
    if call is None or call.cancelled_at is not None:
        return None
    ends = call.started_at.timestamp() + call.seconds + call.countdown
    if ends < timezone.now().timestamp():
        return None
    return {
        "seat": call.seat,
        "started_ms": int(call.started_at.timestamp() * 1000),
        "seconds": call.seconds,
        "countdown": call.countdown,
        "ends_ms": int(ends * 1000),
    }


@transaction.atomic
def dealer_token_renew(*, table: Table, actor: Actor) -> Table:
    """Revoke the table's dealer link and issue a new one (open tablets lose access)."""
    from tables.models import new_dealer_token

    old = table.dealer_token
    table.dealer_token = new_dealer_token()
    table.save(update_fields=["dealer_token"])
    event_record(
        tournament=table.tournament,
        action="table.token_renew",
        actor=actor,
        payload={"table": table.number},
    )
    broadcast_on_commit(dealer_group(old), "revoked", {})
    return table
