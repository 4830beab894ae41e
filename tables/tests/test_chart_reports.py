"""The seating chart lists the dealers' open reports, but not a reported bust whose player is
out already (busted at the desk while the report waited)."""

import pytest
from django.urls import reverse

from actions.bust import BustReport, entries_bust
from tables import services as svc
from tables.models import Table

pytestmark = pytest.mark.django_db


def test_a_report_of_a_player_out_already_leaves_the_chart(
    client, floor_user, make_tournament, register, actor
):
    t = make_tournament(status="running", late_registration_until_level=6)
    for _ in range(12):
        register(t)
    svc.seats_draw(tournament=t, actor=actor)
    table = Table.objects.filter(tournament=t).first()
    first, second = table.assignments.select_related("entry__player")[:2]
    svc.report_bust(table=table, seat=first.seat, stack_at_hand_start=None, actor=actor)
    svc.report_bust(table=table, seat=second.seat, stack_at_hand_start=None, actor=actor)
    svc.call_floor(table=table, note="new deck please", actor=actor)
    client.force_login(floor_user)
    page = client.get(reverse("seating", args=[t.pk])).content.decode()
    assert f"#{first.entry.number} " in page and f"#{second.entry.number} " in page

    entries_bust(tournament=t, busts=[BustReport(entry=first.entry)], actor=actor)
    page = client.get(reverse("seating", args=[t.pk])).content.decode()
    reports = page.split("Dealer reports", 1)[1].split('<div class="grid grid-3">', 1)[0]
    assert f"#{first.entry.number} " not in reports
    assert f"#{second.entry.number} " in reports
    assert "new deck please" in reports
