from collections import Counter

import pytest
from django.db import connection

from actions.bust import BustReport, entries_bust, report_resolve
from actions.tables import hand_done
from core.errors import FloorError
from tables import services as svc
from tables.domain.button import due_big_blind_next
from tables.models import KeepApart, SeatAssignment, Table, TableReport
from tournament.models import EntryStatus, Event


@pytest.fixture
def field(make_tournament, register):
    def make(n, **options):
        t = make_tournament(status="running", late_registration_until_level=6, **options)
        entries = [register(t) for _ in range(n)]
        return t, entries

    return make


def layout(t):
    rows = SeatAssignment.objects.filter(table__tournament=t, table__is_open=True)
    return Counter(r.table.number for r in rows.select_related("table"))


def test_draw_seats_everyone_evenly_and_logs(field, actor):
    t, _entries = field(40)
    assert svc.seats_draw(tournament=t, actor=actor) == 40
    counts = layout(t)
    assert len(counts) == 5 and max(counts.values()) - min(counts.values()) <= 1
    assert SeatAssignment.objects.filter(table__tournament=t).count() == 40
    assert Event.objects.filter(tournament=t, action="seats.draw").count() == 1
    with pytest.raises(FloorError):
        svc.seats_draw(tournament=t, actor=actor)
    assert svc.seats_draw(tournament=t, actor=actor, redraw=True) == 40


def test_keep_apart_and_accessible_seat(field, actor):
    t, entries = field(18)
    KeepApart.objects.create(tournament=t, first=entries[0], second=entries[1])
    entries[2].player.needs_accessible_seat = True
    entries[2].player.save()
    svc.tables_create(tournament=t, count=2, actor=actor)
    Table.objects.filter(tournament=t, number=1).update(accessible_seats=[9])
    svc.seats_draw(tournament=t, actor=actor)
    a = SeatAssignment.objects.get(entry=entries[0])
    b = SeatAssignment.objects.get(entry=entries[1])
    assert a.table_id != b.table_id
    c = SeatAssignment.objects.select_related("table").get(entry=entries[2])
    assert (c.table.number, c.seat) == (1, 9)


def test_late_entry_is_seated_at_a_short_table(field, register, actor):
    t, _ = field(17)
    svc.seats_draw(tournament=t, actor=actor)
    late = register(t)
    row = SeatAssignment.objects.select_related("table").get(entry=late)
    assert layout(t)[row.table.number] == 9


def test_bust_then_balance_moves_the_big_blind_due_player(field, actor):
    t, _entries = field(18)
    svc.seats_draw(tournament=t, actor=actor)
    tables = list(Table.objects.filter(tournament=t).order_by("number"))
    for table in tables:
        seats = sorted(table.assignments.values_list("seat", flat=True))
        svc.button_set(table=table, seat=seats[0], actor=actor)
    # Two busts at table 1 make it 7 against 9.
    victims = list(SeatAssignment.objects.filter(table=tables[0]).order_by("seat")[:2])
    for v in victims:
        entries_bust(tournament=t, busts=[BustReport(entry=v.entry)], actor=actor)
    plan = svc.balance_plan(t)
    assert len(plan.moves) == 1
    move = plan.moves[0]
    t2 = tables[1]
    t2.refresh_from_db()
    players = set(t2.assignments.values_list("seat", flat=True))
    assert move.from_seat == due_big_blind_next(t2.seats, players, t2.blinds())
    moved = svc.balance_apply(tournament=t, signature=plan.signature, actor=actor)
    assert len(moved) == 1
    assert sorted(layout(t).values()) == [8, 8]
    # A stale plan is refused and changes nothing.
    with pytest.raises(FloorError):
        svc.balance_apply(tournament=t, signature=plan.signature, actor=actor)
    event = Event.objects.filter(tournament=t, action="seats.balance").latest("id")
    svc.moves_undo(tournament=t, event_id=event.pk, actor=actor)
    assert sorted(layout(t).values()) == [7, 9]


def test_hand_done_moves_the_button_and_releases_waiting_players(field, register, actor):
    t, _ = field(6)
    svc.seats_draw(tournament=t, actor=actor)
    table = Table.objects.get(tournament=t)
    seats = sorted(table.assignments.values_list("seat", flat=True))
    svc.button_set(table=table, seat=seats[0], actor=actor)
    table.refresh_from_db()
    before = table.blinds()
    hand_done(table=table, actor=actor, hand_number=0)
    table.refresh_from_db()
    assert table.hand_number == 1
    assert table.blinds().big_blind != before.big_blind
    # A repeated tap for the same hand is ignored.
    hand_done(table=table, actor=actor, hand_number=0)
    table.refresh_from_db()
    assert table.hand_number == 1


def test_break_table_and_final_table(field, actor):
    t, _entries = field(20, final_table_size=9)
    svc.seats_draw(tournament=t, actor=actor)
    assert len(layout(t)) == 3
    with pytest.raises(FloorError):  # 20 players do not fit two tables of 9
        svc.table_break(tournament=t, number=3, actor=actor)
    for row in SeatAssignment.objects.filter(table__tournament=t, table__number=1)[:2]:
        entries_bust(tournament=t, busts=[BustReport(entry=row.entry)], actor=actor)
    svc.table_break(tournament=t, number=3, actor=actor)
    counts = layout(t)
    assert len(counts) == 2 and sum(counts.values()) == 18
    with pytest.raises(FloorError):
        svc.table_break(tournament=t, number=99, actor=actor)
    with pytest.raises(FloorError):
        svc.final_table_draw(tournament=t, actor=actor)
    alive = list(SeatAssignment.objects.filter(table__tournament=t))
    for row in alive[:9]:
        entries_bust(tournament=t, busts=[BustReport(entry=row.entry)], actor=actor)
    svc.final_table_draw(tournament=t, actor=actor)
    t.refresh_from_db()
    assert t.status == "final_table"
    assert list(layout(t).values()) == [9]


def test_dealer_reports_a_bust_and_the_floor_confirms(field, actor):
    t, _entries = field(10)
    svc.seats_draw(tournament=t, actor=actor)
    table = Table.objects.filter(tournament=t).first()
    row = table.assignments.first()
    report = svc.report_bust(table=table, seat=row.seat, stack_at_hand_start=None, actor=actor)
    with pytest.raises(FloorError):
        svc.report_bust(table=table, seat=row.seat, stack_at_hand_start=None, actor=actor)
    with pytest.raises(FloorError):
        svc.report_bust(table=table, seat=11, stack_at_hand_start=None, actor=actor)
    report_resolve(report=report, confirm=True, actor=actor)
    row.entry.refresh_from_db()
    assert row.entry.status == EntryStatus.BUSTED
    assert TableReport.objects.get(pk=report.pk).resolution == "confirmed"


def test_move_into_an_occupied_seat_is_refused(field, actor):
    t, _entries = field(10)
    svc.seats_draw(tournament=t, actor=actor)
    a, b = SeatAssignment.objects.select_related("table").filter(table__tournament=t)[:2]
    with pytest.raises(FloorError):
        svc.seat_move(
            tournament=t, entry=a.entry, table_number=b.table.number, seat=b.seat, actor=actor
        )
    a.refresh_from_db()
    assert SeatAssignment.objects.filter(pk=a.pk, seat=a.seat).exists()


def test_time_call(field, actor):
    t, _ = field(4)
    svc.seats_draw(tournament=t, actor=actor)
    table = Table.objects.get(tournament=t)
    call = svc.time_call_start(table=table, seat=1, actor=actor)
    assert (call.seconds, call.countdown) == (60, 10)
    assert svc.time_call_payload(call)["ends_ms"] > 0
    svc.time_call_cancel(table=table, actor=actor)
    call.refresh_from_db()
    assert svc.time_call_payload(call) is None
    assert connection.vendor in ("postgresql", "sqlite")


def test_a_break_reads_every_table_at_the_fewest_in_one_more_statement(field, actor):
    # 100 players at 12 tables of 9 (4 x 9, 8 x 8); one bust leaves 99, which fit 11 tables.
    # Nine tables have 8 players: more than the eight rows a plan reads first from each end, so
    # the break asks for every table at 8 and gets them, with the next table as the edge, in a
    # second statement (tda-de 9: the draw is among all tables with the fewest players).
    from django.test.utils import CaptureQueriesContext

    t, _entries = field(100, seats_per_table=9)
    svc.seats_draw(tournament=t, actor=actor)
    full = [n for n, c in layout(t).items() if c == 9]
    row = SeatAssignment.objects.filter(table__tournament=t, table__number=full[0]).first()
    entries_bust(tournament=t, busts=[BustReport(entry=row.entry)], actor=actor)
    before = layout(t)
    at_eight = sorted(n for n, c in before.items() if c == 8)
    assert len(at_eight) == 9
    breaking = at_eight[-1]  # the highest number: its tied tables come first in the order
    with CaptureQueriesContext(connection) as queries:
        moves = svc.table_break(tournament=t, number=breaking, actor=actor)
    head_reads = [q for q in queries.captured_queries if "end_" in q["sql"]]
    assert len(head_reads) == 2
    assert not any("COUNT(" in q["sql"].upper() for q in queries.captured_queries)
    # Each of the other eight tables at 8 took one player; nobody went to a table of 9.
    assert sorted(m.to_table for m in moves) == at_eight[:-1]
    after = layout(t)
    assert breaking not in after and set(after.values()) == {9} and sum(after.values()) == 99
