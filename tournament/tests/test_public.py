"""Public pages: find my seat, my seat link, privacy and friendly refusals."""

from __future__ import annotations

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


@pytest.fixture
def seated(make_tournament, actor):
    from tables.models import SeatAssignment, Table
    from tournament.services.registration import entry_register, player_create

    t = make_tournament(status="registering")
    table = Table.objects.create(tournament=t, number=12, seats=9, area="Saal 2")
    p = player_create(
        name="Rosa Zimmermann", display_name="Rosa Z.", email="rosa@example.org", actor=actor
    )
    entry = entry_register(tournament=t, player=p, actor=actor)
    SeatAssignment.objects.create(entry=entry, table=table, seat=7)
    return t, entry


def test_find_by_number_and_name(client, seated):
    t, entry = seated
    body = client.get(reverse("find-seat", args=[t.pk]), {"q": str(entry.number)}).content.decode()
    assert "Rosa Z." in body and "Saal 2" in body and "Seat" in body
    body = client.get(reverse("find-seat", args=[t.pk]), {"q": "rosa"}).content.decode()
    assert "Rosa Z." in body
    assert "Zimmermann" not in body and "rosa@example.org" not in body


@pytest.mark.parametrize("q", ["", "r", "9999", "nobody here"])
def test_friendly_messages_for_bad_queries(client, seated, q):
    t, _ = seated
    response = client.get(reverse("find-seat", args=[t.pk]), {"q": q})
    assert response.status_code == 200
    assert "Rosa" not in response.content.decode()


def test_my_seat_link(client, seated):
    _t, entry = seated
    response = client.get(reverse("my-seat", args=[entry.public_token]))
    body = response.content.decode()
    assert response.status_code == 200
    assert "<svg" in body and "Rosa Z." in body and "Zimmermann" not in body
    data = client.get(reverse("my-seat-json", args=[entry.public_token])).json()
    assert data["table"] == 12 and data["seat"] == 7 and data["area"] == "Saal 2"
    assert "email" not in data and "name" not in data


@pytest.mark.parametrize("token", ["nope", "x" * 60, "AAAAAAAAAAAAAAAAAAAAAAAA"])
def test_unknown_links_give_no_hint(client, seated, token):
    response = client.get(reverse("my-seat", args=[token]))
    assert response.status_code == 404
    assert "Rosa" not in response.content.decode()


def test_tokens_are_long_and_distinct(seated, register):
    t, entry = seated
    other = register(t)
    assert len(entry.public_token) >= 24
    assert entry.public_token != other.public_token


def test_lookups_are_rate_limited(client, seated, settings):
    t, _ = seated
    from tournament import public_views

    for _ in range(public_views.LOOKUPS_PER_MINUTE):
        client.get(reverse("find-seat", args=[t.pk]), {"q": "rosa"})
    body = client.get(reverse("find-seat", args=[t.pk]), {"q": "rosa"}).content.decode()
    assert "Too many" in body


def test_rate_limit_cannot_be_dodged_with_a_forged_header(client, settings):
    from django.test import RequestFactory

    from tournament.ratelimit import client_address

    settings.FLOOR_TRUSTED_PROXIES = 0
    request = RequestFactory().get("/", HTTP_X_FORWARDED_FOR="1.2.3.4", REMOTE_ADDR="10.0.0.9")
    assert client_address(request) == "10.0.0.9"
    settings.FLOOR_TRUSTED_PROXIES = 1
    request = RequestFactory().get(
        "/", HTTP_X_FORWARDED_FOR="6.6.6.6, 1.2.3.4", REMOTE_ADDR="10.0.0.9"
    )
    assert client_address(request) == "1.2.3.4"


def test_find_by_number_never_shows_a_stale_seat(client, seated, actor):
    from tables import services as seating
    from tables.models import Table

    t, entry = seated
    Table.objects.create(tournament=t, number=3, seats=9, area="Saal 1")
    url = reverse("find-seat", args=[t.pk])
    for _ in range(2):  # the second answer comes from the index
        assert "Saal 2" in client.get(url, {"q": str(entry.number)}).content.decode()
    seating.seat_move(tournament=t, entry=entry, table_number=3, seat=4, actor=actor)
    for _ in range(3):  # straight after the move and again from a rebuilt index
        body = client.get(url, {"q": str(entry.number)}).content.decode()
        assert "Saal 1" in body and "Saal 2" not in body
