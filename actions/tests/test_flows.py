"""The flows from one app into another (actions/receivers.py), end to end through the pages."""

from __future__ import annotations

import pytest
from django.urls import reverse

from actions.penalties import penalty_give
from actions.tables import hand_done
from rules_engine.models import Penalty
from tables import services as seating
from tables.models import SeatAssignment, TableReport
from tournament.models import EntryStatus

pytestmark = pytest.mark.django_db


@pytest.fixture
def floor_client(client, floor_user):
    client.force_login(floor_user)
    return client


@pytest.fixture
def seated(make_tournament, register, actor):
    t = make_tournament(status="running", late_registration_until_level=6)
    entries = [register(t) for _ in range(12)]
    seating.seats_draw(tournament=t, actor=actor)
    return t, entries


def test_confirming_a_dealer_report_at_the_console_busts_the_player(floor_client, seated, actor):
    t, entries = seated
    row = SeatAssignment.objects.select_related("table").get(entry=entries[2])
    seating.report_bust(table=row.table, seat=row.seat, stack_at_hand_start=None, actor=actor)
    report = TableReport.objects.get(table=row.table)
    response = floor_client.post(
        reverse("seating-action", args=[t.pk, "report"]),
        {"report": report.pk, "confirm": "1"},
        follow=True,
    )
    entries[2].refresh_from_db()
    assert entries[2].status == EntryStatus.BUSTED and entries[2].place == 12
    assert not SeatAssignment.objects.filter(entry=entries[2]).exists()
    assert "12" in response.content.decode()


def test_a_late_entry_is_seated_once_seats_are_drawn(seated, register):
    t, _entries = seated
    late = register(t)
    assert SeatAssignment.objects.filter(entry=late).exists()


def test_hand_done_counts_a_penalty_hand(seated, actor):
    t, entries = seated
    row = SeatAssignment.objects.select_related("table").get(entry=entries[0])
    penalty = penalty_give(
        tournament=t,
        number=entries[0].number,
        kind="hands",
        count=2,
        reason="Soft play",
        actor=actor,
    )
    hand_done(table=row.table, actor=actor)
    penalty.refresh_from_db()
    assert penalty.hands_left == 1


def test_a_disqualification_busts_the_player(seated, actor):
    t, entries = seated
    penalty_give(
        tournament=t,
        number=entries[1].number,
        kind="disqualification",
        count=0,
        reason="Abuse",
        actor=actor,
    )
    entries[1].refresh_from_db()
    assert entries[1].status == EntryStatus.BUSTED
    assert Penalty.objects.filter(entry=entries[1]).exists()
