"""The webhooks' API: directors only, the secret in the creation's answer only, wrong input a
4xx with a message and nothing written."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from webhooks.models import Delivery, Endpoint

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def dns(monkeypatch):
    monkeypatch.setattr(
        "webhooks.sending.resolve",
        lambda host, port: ["93.184.215.14"] if host == "hooks.example.org" else [],
    )


@pytest.fixture
def api(director):
    client = APIClient()
    client.force_authenticate(director)
    return client


def test_floor_staff_and_strangers_are_refused(floor_user):
    client = APIClient()
    assert client.get("/api/webhooks/").status_code in (401, 403)
    client.force_authenticate(floor_user)
    assert client.get("/api/webhooks/").status_code == 403
    assert client.post("/api/webhooks/", {}, format="json").status_code == 403


def test_create_list_pause_test_deliveries_delete(api, make_tournament):
    t = make_tournament()
    made = api.post(
        "/api/webhooks/",
        {"url": "https://hooks.example.org/x", "kinds": ["player.out"], "tournament": t.pk},
        format="json",
    )
    assert made.status_code == 201
    secret = made.json()["secret"]
    assert secret.startswith("whsec_") and "no-store" in made["Cache-Control"]
    pk = made.json()["id"]
    listed = api.get("/api/webhooks/")
    assert secret not in listed.content.decode()
    assert listed.json()[0]["secret_hint"].endswith(secret[-4:])
    assert secret not in api.get(f"/api/webhooks/{pk}/").content.decode()
    assert (
        api.patch(f"/api/webhooks/{pk}/", {"active": False}, format="json").json()["active"]
        is False
    )
    assert api.post(f"/api/webhooks/{pk}/test/").status_code == 202
    (row,) = api.get(f"/api/webhooks/{pk}/deliveries/").json()
    assert row["kind"] == "webhook.test" and row["state"] == "pending"
    assert api.delete(f"/api/webhooks/{pk}/").status_code == 204
    assert not Endpoint.objects.exists() and not Delivery.objects.exists()


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"url": "https://127.0.0.1/", "kinds": ["player.out"]},
        {"url": "https://169.254.169.254/", "kinds": ["player.out"]},
        {"url": "http://hooks.example.org/", "kinds": ["player.out"]},
        {"url": "https://hooks.example.org/", "kinds": []},
        {"url": "https://hooks.example.org/", "kinds": ["nope"]},
        {"url": "https://hooks.example.org/", "kinds": "player.out"},
        {"url": "https://hooks.example.org/", "kinds": ["player.out"], "tournament": 987654},
        {"url": "https://hooks.example.org/", "kinds": ["player.out"], "tournament": "x"},
        {"url": "https://hooks.example.org/", "kinds": ["player.out"], "tournament": 2**70},
        {"url": "https://hooks.example.org/", "kinds": ["player.out"], "description": "x" * 500},
        {"url": ["a"], "kinds": ["player.out"]},
        {"url": "x" * 5000, "kinds": ["player.out"]},
    ],
)
def test_wrong_input_is_a_4xx_and_nothing_written(api, body):
    answer = api.post("/api/webhooks/", body, format="json")
    assert 400 <= answer.status_code < 500
    assert answer.json()
    assert not Endpoint.objects.exists()


def test_unknown_and_wrong_patch(api):
    assert api.get("/api/webhooks/99999/").status_code == 404
    assert api.post("/api/webhooks/99999/test/").status_code == 404
    made = api.post(
        "/api/webhooks/",
        {"url": "https://hooks.example.org/x", "kinds": ["player.out"]},
        format="json",
    ).json()
    assert (
        api.patch(
            f"/api/webhooks/{made['id']}/", {"active": "sometimes"}, format="json"
        ).status_code
        == 400
    )
    assert Endpoint.objects.get().active
