"""The seat table declares its foreign keys (tables/migrations/0008): a seat row cannot refer to
an entry or a table that does not exist, on PostgreSQL and SQLite. The keys are checked at
commit (DEFERRABLE INITIALLY DEFERRED, Django's default), so the tests ask for the check
(`check_constraints`, what a commit does) or commit for real; a refused transaction changes
nothing. Deleting an entry or a table through Django deletes its seat first (the model's
`on_delete=CASCADE`) and the head counts follow; a raw delete that would leave a seat pointing
at nothing is refused."""

from __future__ import annotations

import threading

import pytest
from django.conf import settings
from django.db import IntegrityError, connection, transaction

from tables import services as svc
from tables.models import SeatAssignment, Table
from tournament.models import Entry

pytestmark = pytest.mark.usefixtures("counters_agree")

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
def test_the_seat_table_declares_both_foreign_keys():
    with connection.cursor() as cursor:
        constraints = connection.introspection.get_constraints(cursor, "tables_seatassignment")
    keys = {tuple(c["columns"]): c["foreign_key"] for c in constraints.values() if c["foreign_key"]}
    assert keys == {
        ("entry_id",): ("tournament_entry", "id"),
        ("table_id",): ("tables_table", "id"),
    }


@pytest.mark.django_db
def test_a_seat_for_an_entry_that_does_not_exist_is_refused(seated):
    table, seat = _free_seat(seated)
    before = SeatAssignment.objects.count()
    with pytest.raises(IntegrityError, match="tournament_entry"), transaction.atomic():
        _insert(MISSING, table.pk, seat)
        connection.check_constraints()
    assert SeatAssignment.objects.count() == before


@pytest.mark.django_db
def test_a_seat_at_a_table_that_does_not_exist_is_refused(seated, register):
    entry = _unseated(seated, register)
    with pytest.raises(IntegrityError, match="tables_table"), transaction.atomic():
        _insert(entry.pk, MISSING, 1)
        connection.check_constraints()
    assert not SeatAssignment.objects.filter(entry=entry).exists()


@pytest.mark.django_db
def test_moving_a_seat_to_a_table_that_does_not_exist_is_refused(seated):
    row = SeatAssignment.objects.filter(table__tournament=seated).first()
    with pytest.raises(IntegrityError, match="tables_table"), transaction.atomic():
        SeatAssignment.objects.filter(pk=row.pk).update(table_id=MISSING)
        connection.check_constraints()
    row.refresh_from_db()
    assert Table.objects.filter(pk=row.table_id).exists()


@pytest.mark.django_db
def test_a_raw_delete_of_a_seated_entry_or_a_table_with_seats_is_refused(seated):
    """Behind the ORM's back (raw SQL) nothing cascades: the delete is refused, not a seat left
    pointing at nothing."""
    row = SeatAssignment.objects.filter(table__tournament=seated).first()
    with pytest.raises(IntegrityError, match="tables_seatassignment"), transaction.atomic():
        _sql("DELETE FROM tournament_ledgerline WHERE entry_id = %s", [row.entry_id])
        _sql("DELETE FROM tournament_purchase WHERE entry_id = %s", [row.entry_id])
        _sql("DELETE FROM tournament_entry WHERE id = %s", [row.entry_id])
        connection.check_constraints()
    with pytest.raises(IntegrityError, match="tables_seatassignment"), transaction.atomic():
        _sql("DELETE FROM tables_table WHERE id = %s", [row.table_id])
        connection.check_constraints()
    assert SeatAssignment.objects.filter(pk=row.pk).exists()


@pytest.mark.django_db
def test_deleting_an_entry_or_a_table_through_django_deletes_its_seats(seated, actor):
    """The model's cascade deletes the seat before its entry or table; the head counts follow
    (and `counters_agree` checks every count after the test)."""
    row = SeatAssignment.objects.filter(table__tournament=seated).first()
    players = Table.objects.get(pk=row.table_id).players
    SeatAssignment.objects.filter(pk=row.pk).update(stack=5000)  # no key changes: no check
    Entry.objects.filter(pk=row.entry_id).delete()
    assert not SeatAssignment.objects.filter(pk=row.pk).exists()
    assert Table.objects.get(pk=row.table_id).players == players - 1
    Table.objects.filter(pk=row.table_id).delete()
    assert not SeatAssignment.objects.filter(table_id=row.table_id).exists()
    empty = svc.tables_create(tournament=seated, count=1, actor=actor)[0]
    Table.objects.filter(pk=empty.pk).delete()
    connection.check_constraints()


@pytest.mark.django_db(transaction=True)
def test_the_commit_refuses_a_dangling_seat_and_keeps_nothing(make_tournament, register, actor):
    """A real commit, on both databases: the whole transaction is refused."""
    t = make_tournament(status="running")
    entry = register(t)
    SeatAssignment.objects.filter(entry=entry).delete()
    table = svc.tables_create(tournament=t, count=1, actor=actor)[0]
    with pytest.raises(IntegrityError), transaction.atomic():
        _insert(entry.pk, table.pk, 1)
        _insert(MISSING, table.pk, 2)
    assert not SeatAssignment.objects.filter(table=table).exists()
    assert Table.objects.get(pk=table.pk).players == 0


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_seat_written_while_its_entry_is_deleted_is_refused_at_commit(
    make_tournament, register, actor
):
    """Deferred keys, first to commit wins: a delete of the entry that commits while a seat for
    it is being written goes through (it cannot see the uncommitted seat), and the writer's
    commit is refused; no seat is left pointing at nothing."""
    if not settings.TEST_ON_POSTGRES:
        pytest.skip("row locks are tested on PostgreSQL; this run uses SQLite")
    t = make_tournament(status="running")
    entry = register(t)
    SeatAssignment.objects.filter(entry=entry).delete()
    _sql("DELETE FROM tournament_ledgerline WHERE entry_id = %s", [entry.pk])
    _sql("DELETE FROM tournament_purchase WHERE entry_id = %s", [entry.pk])
    table = svc.tables_create(tournament=t, count=1, actor=actor)[0]
    inserted, deleted = threading.Event(), threading.Event()
    errors: list[BaseException] = []

    def writer() -> None:
        try:
            with transaction.atomic():
                _insert(entry.pk, table.pk, 1)
                inserted.set()
                deleted.wait(10)
        except IntegrityError as exc:
            errors.append(exc)
        finally:
            connection.close()

    thread = threading.Thread(target=writer)
    thread.start()
    try:
        assert inserted.wait(10)
        with transaction.atomic():
            _sql("SET LOCAL lock_timeout = '2s'", [])
            _sql("DELETE FROM tournament_entry WHERE id = %s", [entry.pk])
    finally:
        deleted.set()
        thread.join(10)
    assert len(errors) == 1
    assert "tournament_entry" in str(errors[0])
    assert not Entry.objects.filter(pk=entry.pk).exists()
    assert not SeatAssignment.objects.filter(entry_id=entry.pk).exists()
    assert Table.objects.get(pk=table.pk).players == 0
