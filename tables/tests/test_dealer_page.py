"""The dealer page of a broken table says so instead of a bare "not found"."""

from __future__ import annotations

import pytest
from django.urls import reverse

from actions.tables import table_break
from tables import services as svc
from tables.models import Table

pytestmark = pytest.mark.django_db


def test_broken_table_dealer_page_says_ask_the_floor(client, make_tournament, register, actor):
    t = make_tournament(status="running", late_registration_until_level=6, seats_per_table=6)
    for _ in range(4):
        register(t)
    svc.seats_draw(tournament=t, actor=actor)
    svc.tables_create(tournament=t, count=1, actor=actor)
    table = Table.objects.get(tournament=t, number=2)
    assert client.get(reverse("dealer", args=[table.dealer_token])).status_code == 200
    table_break(tournament=t, number=2, actor=actor)
    response = client.get(reverse("dealer", args=[table.dealer_token]))
    assert response.status_code == 410
    assert "This table was broken. Ask the floor where to go next." in response.content.decode()
    assert client.get(reverse("dealer", args=["not-a-token"])).status_code == 404
    # The actions of a broken table's link stay refused.
    assert (
        client.post(reverse("dealer-action", args=[table.dealer_token, "hand"])).status_code == 404
    )
