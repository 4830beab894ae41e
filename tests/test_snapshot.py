"""tests/snapshot.py, which the accessibility tests use to make their demo night once: what it
puts back is the database as it was, row for row, with the sequences where they were and the
kept counts (kept by triggers on PostgreSQL) still agreeing with a recount, and the triggers
work again afterwards."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection

from actions.bust import BustReport, entries_bust
from tables import services as seating
from tests import snapshot
from tournament.models import Entry, EntryStatus

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.postgres,
    pytest.mark.usefixtures("counters_agree"),
]


def _rows() -> dict[str, list[tuple[Any, ...]]]:
    out = {}
    with connection.cursor() as cursor:
        for table in sorted(connection.introspection.django_table_names(only_existing=True)):
            table_name = connection.ops.quote_name(table)
            cursor.execute(f"SELECT * FROM {table_name} ORDER BY 1")  # noqa: S608
            out[table] = cursor.fetchall()
    return out


def test_a_restored_snapshot_is_the_database_it_was_taken_of(make_tournament, register, actor):
    if not snapshot.supported():
        pytest.skip("The snapshot is for PostgreSQL; elsewhere the data is made per test.")
    t = make_tournament(status="running", late_registration_until_level=6, seats_per_table=6)
    for _ in range(14):
        register(t)
    seating.seats_draw(tournament=t, actor=actor)
    before = _rows()
    taken = snapshot.Snapshot.take("snapshot_test")
    try:
        # Everything changes: busts (seats freed, counts kept by triggers), a new entry, then
        # the tables emptied as the flush after a test does.
        for entry in Entry.objects.filter(tournament=t, status=EntryStatus.ACTIVE)[:3]:
            entries_bust(tournament=t, busts=[BustReport(entry=entry)], actor=actor)
        register(t)
        assert _rows() != before
        taken.restore()
        assert _rows() == before
        # The sequences go on where they were: the next entry gets the next id, as it would
        # have without the detour.
        late = register(t)
        assert late.pk == max(pk for pk, *_ in before["tournament_entry"]) + 1
        # The triggers are back: the seat counts follow another bust (`counters_agree` recounts
        # every kept count after the test).
        seated = Entry.objects.filter(tournament=t, status=EntryStatus.ACTIVE).first()
        entries_bust(tournament=t, busts=[BustReport(entry=seated)], actor=actor)
    finally:
        taken.drop()
