"""The room's figures above the seating chart (players seated, open tables, largest difference,
waiting for a seat, the break suggestion) come from the kept counts in one read. Through a night
of draws, late entries, busts, a balance and a break they must equal what counting the rows
gives, and the chart a console fetches for a few tables shows the whole room's figures."""

import pytest
from django.db.models import Count
from django.urls import reverse

from actions.bust import BustReport, entries_bust
from tables import services as svc
from tables.domain.seating import suggest_break
from tables.models import SeatAssignment, Table
from tables.selectors import room_totals
from tournament.models import Entry, EntryStatus

pytestmark = pytest.mark.django_db


def _counted(t):
    """The room as counting the rows gives it."""
    rows = (
        Table.objects.filter(tournament=t, is_open=True)
        .annotate(n=Count("assignments"))
        .values_list("number", "n")
    )
    room = dict(rows)
    counts = list(room.values())
    unseated = Entry.objects.filter(
        tournament=t, status=EntryStatus.ACTIVE, seat__isnull=True
    ).count()
    return {
        "open_tables": len(room),
        "seated": sum(counts),
        "spread": (max(counts) - min(counts)) if counts else 0,
        "unseated": unseated,
        "break": suggest_break(room, t.seats_per_table, order=t.break_order),
    }


def _kept(t):
    t.refresh_from_db()
    room = room_totals(t)
    return {
        "open_tables": room.open_tables,
        "seated": room.seated,
        "spread": room.spread,
        "unseated": room.unseated,
        "break": room.break_due(t),
    }


def test_the_room_from_kept_counts_equals_the_rows_through_a_night(
    make_tournament, register, actor
):
    t = make_tournament(status="running", late_registration_until_level=6, seats_per_table=6)
    assert _kept(t)["unseated"] == 0 and _kept(t)["open_tables"] == 0
    for _ in range(20):
        register(t)
    assert _kept(t) == _counted(t)  # registered, no seats yet: 20 waiting for a seat
    assert _counted(t)["unseated"] == 20

    svc.seats_draw(tournament=t, actor=actor)
    assert _kept(t) == _counted(t)
    late = register(t)  # seated by auto-seat or waiting: either way the counts agree
    assert _kept(t) == _counted(t)

    seated = list(
        SeatAssignment.objects.filter(table__tournament=t)
        .exclude(entry=late)
        .select_related("entry")
        .order_by("table__number", "seat")
    )
    busts = [s.entry for s in seated[:4]]  # four out of the first table(s)
    for entry in busts:
        entries_bust(tournament=t, busts=[BustReport(entry=entry)], actor=actor)
        assert _kept(t) == _counted(t)
    assert _counted(t)["spread"] >= 1

    t.refresh_from_db()
    breaking = svc.break_suggestion(t)
    while breaking is None:
        left = list(SeatAssignment.objects.filter(table__tournament=t).select_related("entry")[:1])
        entries_bust(tournament=t, busts=[BustReport(entry=left[0].entry)], actor=actor)
        t.refresh_from_db()
        breaking = svc.break_suggestion(t)
        assert _kept(t) == _counted(t)
    assert _kept(t)["break"] == breaking == _counted(t)["break"]
    svc.table_break(tournament=t, number=breaking, actor=actor)
    assert _kept(t) == _counted(t)


def test_a_console_fetch_of_a_few_tables_shows_the_whole_room(
    client, floor_user, make_tournament, register, actor
):
    t = make_tournament(status="running", late_registration_until_level=6, seats_per_table=6)
    for _ in range(20):
        register(t)
    svc.seats_draw(tournament=t, actor=actor)
    register(t)  # one more: the chart says how many wait for a seat, wherever it sits
    counted = _counted(t)
    client.force_login(floor_user)
    page = client.get(
        reverse("seating", args=[t.pk]), {"tables": "1"}, HTTP_HX_REQUEST="true"
    ).content.decode()

    def stat(label):
        return page.split(f'<div class="label">{label}</div><div class="value', 1)[1].split(
            "</div>", 1
        )[0]

    assert stat("Players seated").endswith(f">{counted['seated']}")
    assert stat("Open tables").endswith(f">{counted['open_tables']}")
    assert stat("Largest difference").endswith(f">{counted['spread']}")
    assert stat("Waiting for a seat").endswith(f">{counted['unseated']}")
