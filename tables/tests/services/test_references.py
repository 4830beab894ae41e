"""A seat row always refers to an existing entry and table (tables/references.py): the triggers
that replace the seat table's foreign keys refuse a dangling reference and take a deleted entry's
or table's seats along, on SQLite and PostgreSQL; a refused statement changes nothing."""

from __future__ import annotations

import threading

import pytest
from django.conf import settings
from django.db import IntegrityError, OperationalError, connection, transaction

from tables import services as svc
from tables.models import SeatAssignment, Table
from tournament.models import Entry

MISSING = 10**12


@pytest.fixture
def seated(make_tournament, register, actor):
    t = make_tournament(status="running")
    for _ in range(12):
        register(t)
    svc.seats_draw(tournament=t, actor=actor)
    return t


def _sql(statement: str, params: list[int]) -> None:
    with connection.cursor() as cursor:
        cursor.execute(statement, params)


def _insert(entry_id: int, table_id: int, seat: int) -> None:
    _sql(
        "INSERT INTO tables_seatassignment (entry_id, table_id, seat, must_wait, seated_at) "
        "VALUES (%s, %s, %s, false, CURRENT_TIMESTAMP)",
        [entry_id, table_id, seat],
    )


def _unseated(t, register) -> Entry:
    entry = register(t)  # a late entry is seated at once: free the seat again
    SeatAssignment.objects.filter(entry=entry).delete()
    return entry


def _free_seat(t) -> tuple[Table, int]:
    for table in Table.objects.filter(tournament=t, is_open=True):
        taken = set(table.assignments.values_list("seat", flat=True))
        free = [s for s in range(1, table.seats + 1) if s not in taken]
        if free:
            return table, free[0]
    raise AssertionError("no free seat")


@pytest.mark.django_db
def test_a_seat_for_an_entry_that_does_not_exist_is_refused(seated):
    table, seat = _free_seat(seated)
    before = SeatAssignment.objects.count()
    with pytest.raises(IntegrityError, match="entry"), transaction.atomic():
        _insert(MISSING, table.pk, seat)
    assert SeatAssignment.objects.count() == before


@pytest.mark.django_db
def test_a_seat_at_a_table_that_does_not_exist_is_refused(seated, register):
    entry = _unseated(seated, register)
    with pytest.raises(IntegrityError, match="table"), transaction.atomic():
        _insert(entry.pk, MISSING, 1)
    assert not SeatAssignment.objects.filter(entry=entry).exists()


@pytest.mark.django_db
def test_one_dangling_row_in_a_bulk_insert_refuses_the_whole_statement(seated, register):
    entry = _unseated(seated, register)
    table, seat = _free_seat(seated)
    before = SeatAssignment.objects.count()
    with pytest.raises(IntegrityError), transaction.atomic():
        SeatAssignment.objects.bulk_create(
            [
                SeatAssignment(entry=entry, table=table, seat=seat),
                SeatAssignment(entry_id=MISSING, table=table, seat=seat % table.seats + 1),
            ]
        )
    assert SeatAssignment.objects.count() == before


@pytest.mark.django_db
def test_moving_a_seat_to_a_table_that_does_not_exist_is_refused(seated):
    row = SeatAssignment.objects.filter(table__tournament=seated).first()
    with pytest.raises(IntegrityError), transaction.atomic():
        SeatAssignment.objects.filter(pk=row.pk).update(table_id=MISSING)
    row.refresh_from_db()
    assert Table.objects.filter(pk=row.table_id).exists()


@pytest.mark.django_db
def test_deleting_an_entry_or_a_table_deletes_its_seats_and_the_counts_follow(seated):
    """Even behind the ORM's back (raw SQL): no seat is left pointing at nothing."""
    row = SeatAssignment.objects.filter(table__tournament=seated).first()
    players = Table.objects.get(pk=row.table_id).players
    _sql("DELETE FROM tournament_purchase WHERE entry_id = %s", [row.entry_id])
    _sql("DELETE FROM tournament_entry WHERE id = %s", [row.entry_id])
    assert not SeatAssignment.objects.filter(entry_id=row.entry_id).exists()
    assert Table.objects.get(pk=row.table_id).players == players - 1
    _sql("DELETE FROM tables_table WHERE id = %s", [row.table_id])
    assert not SeatAssignment.objects.filter(table_id=row.table_id).exists()
    orphans = SeatAssignment.objects.exclude(entry__in=Entry.objects.all()) | (
        SeatAssignment.objects.exclude(table__in=Table.objects.all())
    )
    assert not orphans.exists()


@pytest.mark.django_db
def test_what_the_references_allow_still_works(seated, register, actor):
    """Changing a stack or a seat number checks nothing; an empty table can go; Django's
    cascade deletes the seat before its entry."""
    row = SeatAssignment.objects.filter(table__tournament=seated).first()
    SeatAssignment.objects.filter(pk=row.pk).update(stack=5000)
    empty = svc.tables_create(tournament=seated, count=1, actor=actor)[0]
    Table.objects.filter(pk=empty.pk).delete()
    Entry.objects.filter(pk=row.entry_id).delete()
    assert not SeatAssignment.objects.filter(pk=row.pk).exists()


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_delete_waits_for_the_seat_written_concurrently_and_takes_it_along(
    make_tournament, register, actor
):
    """As with a foreign key: the entry of a seat being written is locked, so a concurrent
    delete of that entry waits for the writer; then it deletes the committed seat too."""
    if not settings.TEST_ON_POSTGRES:
        pytest.skip("row locks are tested on PostgreSQL; this run uses SQLite")
    t = make_tournament(status="running")
    entry = register(t)
    _sql("DELETE FROM tournament_purchase WHERE entry_id = %s", [entry.pk])
    table = svc.tables_create(tournament=t, count=1, actor=actor)[0]
    inserted, release = threading.Event(), threading.Event()

    def writer() -> None:
        try:
            with transaction.atomic():
                _insert(entry.pk, table.pk, 1)
                inserted.set()
                release.wait(10)
        finally:
            connection.close()

    thread = threading.Thread(target=writer)
    thread.start()
    assert inserted.wait(10)
    try:
        with pytest.raises(OperationalError, match="lock timeout"), transaction.atomic():
            _sql("SET LOCAL lock_timeout = '300ms'", [])
            _sql("DELETE FROM tournament_entry WHERE id = %s", [entry.pk])
    finally:
        release.set()
        thread.join(10)
    assert SeatAssignment.objects.filter(entry_id=entry.pk).exists()
    _sql("DELETE FROM tournament_entry WHERE id = %s", [entry.pk])
    assert not SeatAssignment.objects.filter(entry_id=entry.pk).exists()
    assert Table.objects.get(pk=table.pk).players == 0
