"""Reads of the seating: the table states the plans work on, the head counts at both ends
of the room, the balancing plan and the break suggestion, time calls as the screens show them.
Nothing here writes; the services in `tables/services/` lock and write."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from django.db import connection
from django.db.models import F, Max, Min, Sum
from django.utils import timezone

from tables.domain.button import Blinds
from tables.domain.seating import (
    BalancePlan,
    HeadCounts,
    NeedMoreCounts,
    Rules,
    TableClosed,
    TableCount,
    TableState,
    break_due,
    emptiest_first,
    fullest_first,
    hold_threshold,
    plan_balance_lazy,
)
from tables.domain.shotclock import WARN_SECONDS, ShotClock, TimeBankRules
from tables.domain.shotclock import phase as shot_clock_phase
from tables.domain.shotclock import seconds_shown as shot_clock_seconds_shown
from tables.messages import PublicTableView
from tables.models import (
    KeepApart,
    ReportKind,
    SeatAssignment,
    Table,
    TableReport,
    TimeBank,
    TimeCall,
    blinds_of,
)
from tables.models import ShotClock as ShotClockRow
from tournament.live import board_version
from tournament.models import Status, Tournament
from tournament.public_selectors import initials, names_withheld
from tournament.selectors import tournament_ruleset

T = TypeVar("T")

# The tournament states in which seats can be drawn and are kept.
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


def table_state(
    table: Table,
    rows: Iterable[SeatAssignment] | None = None,
    leaving: Collection[int] | None = None,
) -> TableState:
    """The table during the hand being played. `leaving`: the entries out in that hand (see
    `leaving_entries`); read for this table when not given."""
    if rows is None:
        rows = table.assignments.all()
    if leaving is None:
        leaving = leaving_entries([table])
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


def leaving_entries(tables: Sequence[Table], up_to_hand: int | None = None) -> set[int]:
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


def leaving_seats(
    table: Table, rows: Iterable[SeatAssignment], up_to_hand: int | None = None
) -> set[int]:
    """The seats of `rows` (the table's seats) whose players are leaving (`leaving_entries`)."""
    leaving = leaving_entries([table], up_to_hand)
    return {r.seat for r in rows if r.entry_id in leaving}


def where_entries_sit(
    entry_ids: Sequence[int],
) -> dict[int, tuple[int, int, int, int, int | None, int]]:
    """Where each of `entry_ids` sits, in one statement: entry id -> (table id, table number,
    seats at the table, seat, the table's button, the hand being played). Entries without a
    seat are left out. Written out: through the ORM this read cost a millisecond of query
    building on a bust's path (actions/bust.py)."""
    if not entry_ids:
        return {}
    quote = connection.ops.quote_name
    seat_table = quote(SeatAssignment._meta.db_table)
    table_table = quote(Table._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT s.entry_id, s.table_id, t.number, t.seats, s.seat, t.button_seat, "  # noqa: S608
            f"t.hand_number FROM {seat_table} s JOIN {table_table} t ON t.id = s.table_id "
            f"WHERE s.entry_id IN ({', '.join(['%s'] * len(entry_ids))})",
            list(entry_ids),
        )
        return {row[0]: row[1:] for row in cursor.fetchall()}


def open_tables(tournament: Tournament) -> list[Table]:
    return list(tournament.tables.filter(is_open=True).order_by("opening_order", "number"))


def seating_is_drawn(tournament: Tournament) -> bool:
    return SeatAssignment.objects.filter(table__tournament=tournament).exists()


def rows_by_table(tables: Sequence[Table]) -> dict[int, list[SeatAssignment]]:
    rows: dict[int, list[SeatAssignment]] = {}
    for row in SeatAssignment.objects.filter(table__in=tables):
        rows.setdefault(row.table_id, []).append(row)
    return rows


# Rows read from each end of the room for a plan; more are read only when the plan needs them.
HEAD_ROWS = 8


def _head_counts(
    tournament: Tournament, fullest: int, emptiest: int, emptiest_upto: int | None = None
) -> HeadCounts:
    """The `fullest` fullest and the `emptiest` emptiest open tables, in one statement (the
    two partial indexes on the table's head count serve it). With `emptiest_upto` the emptiest
    end is every open table with at most that many players and the one after them (the edge),
    however many they are: a break or a late seat draws among all tables at the fewest, and
    right after the draw that is most of the room."""
    table = connection.ops.quote_name(Table._meta.db_table)
    part = (
        f"SELECT * FROM (SELECT %s AS end_, number, players, seats FROM {table} "  # noqa: S608
        "WHERE tournament_id = %s AND is_open{where} ORDER BY players {order}, number{limit}) "
        "AS {alias}"
    )
    sql = part.format(where="", order="DESC", limit=" LIMIT %s", alias="fullest") + " UNION ALL "
    params: list[Any] = [0, tournament.pk, fullest]
    if emptiest_upto is None:
        sql += part.format(where="", order="ASC", limit=" LIMIT %s", alias="emptiest")
        params += [1, tournament.pk, emptiest]
    else:
        sql += (
            part.format(where=" AND players <= %s", order="ASC", limit="", alias="emptiest")
            + " UNION ALL "
            + part.format(where=" AND players > %s", order="ASC", limit=" LIMIT 1", alias="edge")
        )
        params += [1, tournament.pk, emptiest_upto, 2, tournament.pk, emptiest_upto]
    full: list[TableCount] = []
    empty: list[TableCount] = []
    edge = False
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        for end, number, players, seats in cursor.fetchall():
            (empty if end else full).append(TableCount(number, players, seats))
            edge = edge or end == 2
    full.sort(key=fullest_first)
    empty.sort(key=emptiest_first)
    if emptiest_upto is not None:
        # Cut after the edge row when there is one (tables beyond it were not read), else whole.
        emptiest = len(empty) if edge else len(empty) + 1
    return HeadCounts(tuple(full), tuple(empty), fullest, emptiest)


def with_head_counts(tournament: Tournament, plan: Callable[[HeadCounts], T]) -> T:
    """Run `plan` on the head counts at both ends of the room, reading more rows from the end
    it asks for: eight times as many, or every table up to the head count it names (in the same
    one statement)."""
    limits = {"fullest": HEAD_ROWS, "emptiest": HEAD_ROWS}
    upto: int | None = None  # the emptiest end read by head count instead of by rows
    while True:
        head = _head_counts(tournament, limits["fullest"], limits["emptiest"], upto)
        try:
            return plan(head)
        except NeedMoreCounts as more:
            if more.end == "emptiest" and more.players_at_most is not None:
                upto = max(upto or 0, more.players_at_most)
            elif more.end == "emptiest" and upto is not None:
                limits["emptiest"] = max(limits["emptiest"], len(head.emptiest)) * 8
                upto = None
            else:
                limits[more.end] *= 8


def table_loader(
    tournament: Tournament,
    pairs: set[tuple[int, int]] | None = None,
    ids: dict[int, int] | None = None,
) -> Callable[[Iterable[int]], dict[int, TableState]]:
    """Load open tables with their seats and who is out in the hand being played (an open bust
    report of the table's current hand), in one query per call; a table read once is not read
    again by the same loader (one plan, inside one transaction). The same query adds to `pairs`
    the keep-apart pairs (bdpv seating rule 4) of every player it loads: all a plan needs to
    know about them, as only the players of the tables it loads can move or be joined; and to
    `ids` each table's number -> primary key (a break tells the broken table's tablets)."""
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
                f"SELECT t.id, t.number, t.seats, t.button_seat, t.small_blind_seat, "  # noqa: S608
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
        for pk, number, size, button, sb, bb, order, seat, entry, wait, out, first, second in rows:
            tables[number] = (size, blinds_of(button, sb, bb), order)
            if ids is not None:
                ids[number] = pk
            if seat is not None:
                seats.setdefault(number, {})[seat] = (seat, entry, wait, bool(out))
            if first is not None and pairs is not None:
                pairs.add((first, second))
        for n, (size, blinds, order) in tables.items():
            memo[n] = found[n] = _state(n, size, blinds, order, seats.get(n, {}).values())
        return found

    return load


def table_counts(tournament: Tournament) -> dict[int, int]:
    """Head count of every open table (for pages that show the whole room)."""
    return dict(tournament.tables.filter(is_open=True).values_list("number", "players"))


@dataclass(frozen=True)
class Room:
    """The room's figures from the kept counts, in one read of one snapshot: open tables, the
    players seated at them, the smallest and largest head count and the lowest and highest
    open table number, and the players still in who have no seat."""

    open_tables: int
    seated: int
    fewest: int
    most: int
    lowest: int | None
    highest: int | None
    unseated: int

    @property
    def spread(self) -> int:
        return self.most - self.fewest

    def break_due(self, tournament: Tournament) -> int | None:
        """The table to break now, if the players fit in one table fewer (tda-de 9)."""
        return break_due(
            players=self.seated,
            tables=self.open_tables,
            lowest=self.lowest or 0,
            highest=self.highest or 0,
            seats_per_table=tournament.seats_per_table,
            order=tournament.break_order,
        )


def room_totals(tournament: Tournament) -> Room:
    """`Room` of `tournament`: one aggregate over its tables' head counts and its players-left
    count (both kept by the database, tournament/counters.py), so a page showing the room's
    figures beside a few tables does not read every table (3,334 at 30,000 entries) nor count
    the entries without a seat (an anti-join over the field: 20 ms there)."""
    tables = connection.ops.quote_name(Table._meta.db_table)
    tournaments = connection.ops.quote_name(Tournament._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(
            # One statement, so the counts come from the same snapshot.
            f"SELECT (SELECT players_left FROM {tournaments} WHERE id = %s), "  # noqa: S608
            "COUNT(*) FILTER (WHERE is_open), "
            "COALESCE(SUM(players) FILTER (WHERE is_open), 0), "
            "COALESCE(MIN(players) FILTER (WHERE is_open), 0), "
            "COALESCE(MAX(players) FILTER (WHERE is_open), 0), "
            "MIN(number) FILTER (WHERE is_open), MAX(number) FILTER (WHERE is_open), "
            f"COALESCE(SUM(players), 0) FROM {tables} WHERE tournament_id = %s",
            [tournament.pk, tournament.pk],
        )
        left, count, seated, fewest, most, lowest, highest, anywhere = cursor.fetchone()
    return Room(
        open_tables=count,
        seated=seated,
        fewest=fewest,
        most=most,
        lowest=lowest,
        highest=highest,
        unseated=max(0, (left or 0) - anywhere),
    )


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
        load = table_loader(tournament, pairs)
        return with_head_counts(
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


def time_call_of(tournament: Tournament) -> tuple[int, int]:
    """Seconds to act after a time call, then the countdown, in the tournament's ruleset
    version (tda-de 29, bdpv 5.12)."""
    return tournament_ruleset(tournament).time_call


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


# --- Shot clock and time banks (tables/domain/shotclock.py) -------------------------------


def shot_clock_rules(tournament: Tournament) -> TimeBankRules:
    """The tournament's shot clock: seconds per decision, cards per player, seconds a card."""
    return TimeBankRules(
        seconds=tournament.shot_clock_seconds,
        cards=tournament.time_bank_cards,
        card_seconds=tournament.time_bank_seconds,
    )


def shot_clock_of(row: ShotClockRow | None) -> ShotClock:
    """A stored shot clock as the domain sees it (no row: idle)."""
    if row is None or row.started_at is None:
        return ShotClock()
    return ShotClock(
        started_ms=int(row.started_at.timestamp() * 1000),
        seconds=row.seconds,
        seat=row.seat,
        cards_used=row.cards_used,
    )


def cards_used_by_entry(entry_ids: Iterable[int]) -> dict[int, int]:
    """Time-bank cards used since they last came back, by entry (entries without a row: 0)."""
    ids = list(entry_ids)
    if not ids:
        return {}
    return dict(TimeBank.objects.filter(entry_id__in=ids).values_list("entry_id", "used"))


def shot_clock_payload(table: Table, row: ShotClockRow | None) -> dict[str, Any] | None:
    """What a tablet and the seating chart show of a table's shot clock; None when the
    tournament plays without one. Times in milliseconds of the server's clock."""
    tournament = table.tournament
    if not tournament.shot_clock:
        return None
    clock = shot_clock_of(row)
    now_ms = int(timezone.now().timestamp() * 1000)
    return {
        "running": clock.running,
        "started_ms": clock.started_ms,
        "ends_ms": clock.ends_ms,
        "seconds": clock.seconds or tournament.shot_clock_seconds,
        "decision_seconds": tournament.shot_clock_seconds,
        "shown": shot_clock_seconds_shown(clock, now_ms),
        "phase": str(shot_clock_phase(clock, now_ms)),
        "seat": clock.seat,
        "version": row.version if row is not None else 0,
        "warn": WARN_SECONDS,
        "cards": tournament.time_bank_cards,
        "card_seconds": tournament.time_bank_seconds,
    }


def public_table_view(table: Table) -> PublicTableView:
    """Who sits at `table` as its public page shows it (the QR on the table card)."""
    return public_table_views([table])[table.pk]


def public_table_views(tables: Sequence[Table]) -> dict[int, PublicTableView]:
    """Who sits at each of `tables` (of one tournament, loaded with it) as its public page shows
    it: display names, initials once the tournament's results are old (docs/players.md). The
    version is read before the seats, as a board's is (tournament/live.py); the seats of all the
    tables in one statement."""
    if not tables:
        return {}
    t = tables[0].tournament
    version = board_version(t.pk)
    withheld = names_withheld(status=t.status, starts_at=t.starts_at)
    names: dict[tuple[int, int], str] = {
        (table_id, seat): initials(name) if withheld else name
        for table_id, seat, name in SeatAssignment.objects.filter(
            table_id__in=[x.pk for x in tables]
        ).values_list("table_id", "seat", "entry__player__display_name")
    }
    return {
        x.pk: {
            "version": version,
            "table": x.number,
            "open": x.is_open,
            "seats": [{"n": n, "name": names.get((x.pk, n))} for n in range(1, x.seats + 1)],
        }
        for x in tables
    }
