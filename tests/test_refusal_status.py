"""Refusals of the seating chart, a table's page, the dealer tablet's plain form and the
correction page answer with their status (docs/input.md): the page comes back with the
reason, and nothing is written. (The form fuzzer finds the same by crawling; these say it
where a reader looks for the seating and correction pages.)"""

from __future__ import annotations

import pytest
from django.urls import reverse

from tables.models import SeatAssignment, Table
from tournament.models import EntryStatus, Event
from tournament.tests.test_corrections_pages import _seated

pytestmark = pytest.mark.django_db


@pytest.fixture
def floor_client(client, floor_user):
    client.force_login(floor_user)
    return client


def _state(t):
    seats = sorted(SeatAssignment.objects.filter(entry__tournament=t).values_list("pk", "seat"))
    return seats, Event.objects.filter(tournament=t).count()


@pytest.mark.parametrize(
    ("action", "form"),
    [
        ("move", {"entry": "1", "table": "abc", "seat": "2"}),
        ("move", {"entry": "1", "table": "1", "seat": "²"}),
        ("open", {"count": "abc"}),
    ],
)
def test_a_refused_seating_action_is_a_400_on_the_chart(
    floor_client, make_tournament, register, actor, action, form
):
    t = make_tournament(status="registering")
    _seated(t, actor, register)
    before = _state(t)
    response = floor_client.post(reverse("seating-action", args=[t.pk, action]), form)
    assert response.status_code == 400
    body = response.content.decode()
    assert 'class="messages' in body and "seating" in body
    assert _state(t) == before


def test_a_refusal_from_a_tables_page_comes_back_on_that_page(
    floor_client, make_tournament, register, actor
):
    t = make_tournament(status="registering")
    _seated(t, actor, register)
    detail = reverse("table-detail", args=[t.pk, 1])
    before = _state(t)
    response = floor_client.post(
        reverse("seating-action", args=[t.pk, "button"]),
        {"table": "1", "seat": "x", "next": detail},
    )
    assert response.status_code == 400
    assert Table.objects.get(tournament=t, number=1).dealer_token in response.content.decode()
    assert _state(t) == before


def test_the_tablets_plain_bust_form_refused_is_a_400(client, make_tournament, register, actor):
    t = make_tournament(status="registering")
    _seated(t, actor, register)
    table = Table.objects.get(tournament=t, number=1)
    before = _state(t)
    url = reverse("dealer-action", args=[table.dealer_token, "bust"])
    response = client.post(url, {"seat": "1", "stack": "abc"})
    assert response.status_code == 400 and 'class="messages' in response.content.decode()
    assert _state(t) == before
    # The tablet's own request (htmx) still gets its partial to swap, with the reason in it.
    response = client.post(url, {"seat": "1", "stack": "abc"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert _state(t) == before


def test_a_mistyped_entry_number_on_the_void_form_is_refused(
    floor_client, make_tournament, register, actor
):
    t = make_tournament(status="registering")
    entries = _seated(t, actor, register)
    url = reverse("entry-correct", args=[t.pk, entries[2].pk])
    for form in (
        {"action": "void", "money": "move", "to": "abc"},
        {"action": "void", "money": "refund", "to": "abc"},
    ):
        response = floor_client.post(url, form)
        assert response.status_code == 400
        assert response.context["error"]["message"], form
        entries[2].refresh_from_db()
        assert entries[2].status == EntryStatus.ACTIVE
