"""`manage.py floor_recount`: every kept counter compared with a full recount of its rows
(`--check`, which writes nothing and exits 1 on a difference), and the rebuild that repairs."""

from __future__ import annotations

from decimal import Decimal
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from actions.bust import BustReport, bust_undo_last, entries_bust
from actions.tables import hand_done
from tables import services as svc
from tables.models import SeatAssignment, Table
from tournament import counters
from tournament.models import Tournament

pytestmark = pytest.mark.django_db


def run(*args: str) -> tuple[int, str]:
    out = StringIO()
    try:
        call_command("floor_recount", *args, stdout=out)
    except SystemExit as exc:
        return int(exc.code or 0), out.getvalue()
    return 0, out.getvalue()


@pytest.fixture
def seated(make_tournament, register, actor):
    def make(n: int) -> Tournament:
        t = make_tournament(status="running", late_registration_until_level=6)
        for _ in range(n):
            register(t)
        svc.seats_draw(tournament=t, actor=actor)
        t.refresh_from_db()
        return t

    return make


def test_one_list_of_names_for_the_check_the_rebuild_and_the_models():
    assert set(counters.names_of("tournament_tournament")) == set(Tournament.counters)
    assert counters.names_of("tables_table") == Table.counters
    names = [(k.owner, k.name) for k in counters.COUNTERS]
    assert len(names) == len(set(names))
    assert set(counters.OWNERS) == {k.owner for k in counters.COUNTERS}


def test_compare_names_each_difference():
    rows = [(4, 2, 8, 9), (4, 3, 7, 7)]
    [d] = counters.compare("tables_table", rows)
    assert (d.tournament_id, d.table, d.counter, d.kept, d.recounted) == (4, 2, "players", 8, 9)
    assert str(d) == "tournament 4, table 2: players is kept as 8, the rows count 9 (-1)"
    names = counters.names_of("tournament_tournament")
    kept = [Decimal(5)] * len(names)  # PostgreSQL sums come back as decimals
    row = [x for v in kept for x in (v, v)]
    row[2 * names.index("paid_in") + 1] = Decimal(3)
    [d] = counters.compare("tournament_tournament", [(7, None, *row)])
    assert (d.tournament_id, d.table, d.counter, d.kept, d.recounted) == (7, None, "paid_in", 5, 3)
    assert str(d) == "tournament 7: paid_in is kept as 5, the rows count 3 (+2)"


def test_a_night_played_through_the_services_checks_clean(seated, register, actor):
    t = seated(30)
    other = seated(5)
    for table in Table.objects.filter(tournament=t, is_open=True):
        hand_done(table=table, actor=actor)
    register(t)  # a late entry, seated at once
    for _ in range(8):
        row = SeatAssignment.objects.filter(table__tournament=t).order_by("table__number").first()
        entries_bust(tournament=t, busts=[BustReport(entry=row.entry)], actor=actor)
        plan = svc.balance_plan(t)
        if plan.moves:
            svc.balance_apply(tournament=t, signature=plan.signature, actor=actor)
    bust_undo_last(tournament=t, actor=actor)
    number = max(Table.objects.filter(tournament=t, is_open=True).values_list("number", flat=True))
    svc.table_break(tournament=t, number=number, actor=actor)
    t.refresh_from_db()
    while t.players_left > t.final_table_size:
        row = SeatAssignment.objects.filter(table__tournament=t).first()
        entries_bust(tournament=t, busts=[BustReport(entry=row.entry)], actor=actor)
        t.refresh_from_db()
    svc.final_table_draw(tournament=t, actor=actor)

    report = counters.check()
    assert report.ok, report.differences
    tables = Table.objects.filter(tournament__in=[t, other]).count()
    assert report.tournaments == 2
    assert report.counters == 2 * len(Tournament.counters) + tables
    assert counters.check(other.pk).tournaments == 1
    code, out = run("--check")
    assert code == 0
    assert "Checked 2 tournament(s)" in out and "every counter agrees" in out


def test_a_corrupted_counter_is_named_and_the_rebuild_repairs_it(seated):
    t = seated(20)
    other = seated(4)
    table = Table.objects.filter(tournament=t).order_by("number").first()
    with connection.cursor() as cursor:  # behind the triggers' back
        cursor.execute(
            "UPDATE tournament_tournament SET chips_in = chips_in + 500, players_left = 3 "
            "WHERE id = %s",
            [t.pk],
        )
        cursor.execute("UPDATE tables_table SET players = players + 1 WHERE id = %s", [table.pk])

    code, out = run("--check")
    assert code == 1
    assert f"tournament {t.pk}: chips_in is kept as" in out
    assert f"tournament {t.pk}: players_left is kept as 3, the rows count 20 (-17)" in out
    assert f"tournament {t.pk}, table {table.number}: players is kept as" in out
    assert "3 differ" in out
    assert run("--check", "--tournament", str(other.pk))[0] == 0  # the other one is right
    t.refresh_from_db()
    assert t.players_left == 3  # the check wrote nothing

    code, out = run("--tournament", str(t.pk))
    assert code == 0 and f"tournament {t.pk}" in out
    code, out = run("--check")
    assert code == 0, out
    t.refresh_from_db()
    assert t.players_left == 20


def test_the_rebuild_of_everything_repairs_every_tournament(seated):
    a, b = seated(9), seated(12)
    Tournament.objects.filter(pk__in=[a.pk, b.pk]).update(players_left=0, tables_open=0)
    Table.objects.filter(tournament=b).update(players=0)
    assert len(counters.check().differences) == 4 + Table.objects.filter(tournament=b).count()
    assert run()[0] == 0
    assert counters.check().ok


def test_an_unknown_tournament_is_refused():
    with pytest.raises(CommandError, match="no tournament 999999"):
        run("--check", "--tournament", "999999")
