"""The tablets' views of several changed tables are read together (tables/live.py,
tables/dealer_view.py `dealer_contexts`): a break or a balancing move changes up to ten tables,
and their views are built one after the other on the builder thread of the floor's process. The
statements do not grow with the number of tables, and each view is the one its tablet's page
shows."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from live import realtime
from rules_engine.models import Penalty
from tables import services as svc
from tables.dealer_view import dealer_context
from tables.live import notify_tables, table_view
from tables.models import ReportKind, ShotClock, Table, TableReport, TimeBank, TimeCall

pytestmark = pytest.mark.django_db


@pytest.fixture
def room(make_tournament, register, actor):
    """Six tables of four, with something on each that a tablet shows: a penalty, a bust
    reported and not confirmed, a running time call, an old time call, a shot clock and used
    time-bank cards."""
    t = make_tournament(
        status="running", late_registration_until_level=6, seats_per_table=4, shot_clock=True
    )
    for _ in range(22):
        register(t)
    svc.seats_draw(tournament=t, actor=actor)
    tables = list(Table.objects.filter(tournament=t, is_open=True).order_by("number"))
    first = tables[0].assignments.order_by("seat")[0]
    Penalty.objects.create(
        tournament=t, entry_id=first.entry_id, kind="hands", hands=3, hands_left=2, reason="x"
    )
    TableReport.objects.create(table=tables[1], kind=ReportKind.BUST, seat=2)
    now = timezone.now()
    TimeCall.objects.create(table=tables[2], seat=1, started_at=now, seconds=30, countdown=10)
    TimeCall.objects.create(
        table=tables[3], seat=1, started_at=now - timedelta(days=2), seconds=30, countdown=10
    )
    ShotClock.objects.create(table=tables[4], started_at=now, seconds=30, seat=1)
    TimeBank.objects.create(entry_id=tables[4].assignments.first().entry_id, used=1)
    return t, tables


def _views(sent, capture, tournament_id, table_ids):
    sent.clear()
    with CaptureQueriesContext(connection) as queries, capture(execute=True):
        notify_tables(tournament_id, table_ids, console=False)
    return {g: d for g, e, d in sent if e == "table"}, len(queries.captured_queries)


def test_the_views_of_many_tables_cost_the_statements_of_one(
    room, sent, django_capture_on_commit_callbacks
):
    t, tables = room
    one, one_statements = _views(sent, django_capture_on_commit_callbacks, t.pk, [tables[0].pk])
    assert len(one) == 2  # the table in English and in German
    every, statements = _views(
        sent, django_capture_on_commit_callbacks, t.pk, [x.pk for x in tables]
    )
    assert len(every) == 2 * len(tables)
    assert statements == one_statements


def test_each_view_is_what_its_tablet_page_shows(
    room, sent, django_capture_on_commit_callbacks, monkeypatch
):
    t, tables = room
    # One instant for both renderings: the running shot clock shows whole seconds left, and on a
    # busy machine a second could pass between the view sent and the page rendered.
    frozen = timezone.now()
    monkeypatch.setattr(timezone, "now", lambda: frozen)
    views, _n = _views(sent, django_capture_on_commit_callbacks, t.pk, [x.pk for x in tables])
    for table in tables:
        table = Table.objects.select_related("tournament").get(pk=table.pk)
        page = table_view(table, dealer_context(table))
        for language in ("en", "de"):
            view = views[realtime.table_group(table.pk, language)]
            assert view["html"] == {language: page["html"][language]}
    # What the room put on the tables is there.
    html = {x.number: views[realtime.table_group(x.pk, "en")]["html"]["en"] for x in tables}
    assert "sits out: 2 hands" in html[tables[0].number]
    assert "out – floor informed" in html[tables[1].number]
    assert 'id="timecall"' in html[tables[2].number]
    assert 'id="timecall"' not in html[tables[3].number]  # called two days ago


def test_only_the_languages_listened_to_are_built_and_a_closed_table_is_not(
    room, sent, monkeypatch, django_capture_on_commit_callbacks, actor
):
    t, tables = room
    watched = {realtime.table_group(tables[0].pk, "de"), realtime.table_group(tables[1].pk, "en")}
    asked: list[list[str]] = []

    def listened_of(groups):
        asked.append(list(groups))
        return set(groups) & watched

    monkeypatch.setattr(realtime, "listened_of", listened_of)
    Table.objects.filter(pk=tables[1].pk).update(is_open=False)
    views, _n = _views(sent, django_capture_on_commit_callbacks, t.pk, [x.pk for x in tables])
    assert set(views) == {realtime.table_group(tables[0].pk, "de")}
    assert len(asked) == 1  # one question for every table and language of the change


def test_a_read_that_fails_once_is_made_again_and_no_view_is_lost(
    room, sent, monkeypatch, django_capture_on_commit_callbacks
):
    """On SQLite (the embedded default) a read can meet a writer's lock; the builder tries
    again (live/realtime.py `_build`). The retry reads the tables again: no tablet of the
    change is left without its view."""
    from django.db import OperationalError

    import tables.live as live

    t, tables = room
    real = live.dealer_contexts
    failures = [OperationalError("database is locked")]

    def busy_once(*args, **kwargs):
        if failures:
            raise failures.pop()
        return real(*args, **kwargs)

    monkeypatch.setattr(live, "dealer_contexts", busy_once)
    monkeypatch.setattr(realtime.db.connection, "vendor", "sqlite")
    views, _n = _views(sent, django_capture_on_commit_callbacks, t.pk, [x.pk for x in tables])
    assert not failures
    assert len(views) == 2 * len(tables)
