"""The REST API: same services, 4xx on bad input, roles enforced, nothing changed on refusal."""

from __future__ import annotations

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tournament.models import EntryStatus, Status, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def api(floor_user):
    client = APIClient()
    token = Token.objects.create(user=floor_user)
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


@pytest.fixture
def director_api(director):
    client = APIClient()
    client.force_authenticate(director)
    return client


def test_schema_is_served(client):
    response = client.get("/api/schema/")
    assert response.status_code == 200
    assert b"/api/tournaments/{id}/busts/" in response.content


def test_public_can_read_tournament_but_not_entries(make_tournament, register):
    t = make_tournament(status="registering")
    register(t, "Secret Person")
    anon = APIClient()
    assert anon.get(f"/api/tournaments/{t.pk}/").status_code == 200
    assert anon.get(f"/api/tournaments/{t.pk}/numbers/").json()["entries"] == 1
    assert anon.get(f"/api/tournaments/{t.pk}/entries/").status_code in (401, 403)
    assert anon.get("/api/players/").status_code in (401, 403)
    assert b"Secret" not in anon.get(f"/api/tournaments/{t.pk}/").content


def test_register_and_bust_through_the_api(api, director_api, make_tournament, register):
    t = make_tournament(status="registering")
    response = api.post(
        f"/api/tournaments/{t.pk}/entries/",
        {"name": "Greta Lange", "payment_method": "cash"},
        format="json",
    )
    assert response.status_code == 201, response.content
    entry_id = response.json()["id"]
    register(t)
    Tournament.objects.filter(pk=t.pk).update(status=Status.RUNNING)
    response = api.post(
        f"/api/tournaments/{t.pk}/busts/", {"busts": [{"entry": entry_id}]}, format="json"
    )
    # Second place is in the money: refused while registration is open.
    assert response.status_code == 400
    assert response.json()["code"] == "registration_open"
    closed = api.post(f"/api/tournaments/{t.pk}/registration/close/")
    assert closed.status_code == 200, closed.content
    assert closed.json()["registration_closed_at"]
    response = api.post(
        f"/api/tournaments/{t.pk}/busts/", {"busts": [{"entry": entry_id}]}, format="json"
    )
    assert response.status_code == 200, response.content
    assert response.json()[0]["place"] == 2
    again = api.post(
        f"/api/tournaments/{t.pk}/busts/", {"busts": [{"entry": entry_id}]}, format="json"
    )
    assert again.status_code == 400
    assert "detail" in again.json()
    # That bust ended the tournament: the undo waits for the director's explicit reopen.
    undo = api.post(f"/api/tournaments/{t.pk}/busts/undo/")
    assert undo.status_code == 400 and undo.json()["code"] == "finished"
    assert api.post(f"/api/tournaments/{t.pk}/reopen/").status_code == 403  # the director's
    assert director_api.post(f"/api/tournaments/{t.pk}/reopen/").status_code == 200
    undo = api.post(f"/api/tournaments/{t.pk}/busts/undo/")
    assert undo.status_code == 200
    assert t.entries.get(pk=entry_id).status == EntryStatus.ACTIVE


def test_bad_input_is_a_4xx_and_changes_nothing(api, make_tournament):
    t = make_tournament()
    r = api.post(
        f"/api/tournaments/{t.pk}/entries/",
        {"name": "Ida Wolf", "payment_method": "cash"},
        format="json",
    )
    assert r.status_code == 400  # registration not open
    assert t.entries.count() == 0
    r = api.post(f"/api/tournaments/{t.pk}/entries/", {}, format="json")
    assert r.status_code == 400
    r = api.post(f"/api/tournaments/{t.pk}/busts/", {"busts": []}, format="json")
    assert r.status_code == 400


def test_status_change_needs_the_director(api, director_api, make_tournament):
    t = make_tournament()
    assert (
        api.post(f"/api/tournaments/{t.pk}/status/", {"status": "registering"}).status_code == 403
    )
    r = director_api.post(f"/api/tournaments/{t.pk}/status/", {"status": "finished"})
    assert r.status_code == 400
    r = director_api.post(f"/api/tournaments/{t.pk}/status/", {"status": "registering"})
    assert r.status_code == 200
    assert r.json()["status"] == "registering"


def test_levels_put_validates(director_api, make_tournament):
    t = make_tournament()
    bad = [{"small_blind": 200, "big_blind": 100, "minutes": 20}]
    assert (
        director_api.put(f"/api/tournaments/{t.pk}/levels/", bad, format="json").status_code == 400
    )
    good = [
        {"small_blind": 100, "big_blind": 200, "minutes": 20},
        {"small_blind": 200, "big_blind": 400, "minutes": 20},
    ]
    r = director_api.put(f"/api/tournaments/{t.pk}/levels/", good, format="json")
    assert r.status_code == 200
    assert len(r.json()) == 2


def test_create_tournament_via_api(director_api, template, chip_set):
    r = director_api.post(
        "/api/tournaments/",
        {
            "name": "API Cup",
            "starts_at": "2026-12-01T19:00:00Z",
            "buy_in": 5000,
            "starting_stack": 10000,
            "structure": template.pk,
            "chip_set": chip_set.pk,
        },
        format="json",
    )
    assert r.status_code == 201, r.content
    assert r.json()["seats_per_table"] == 9
