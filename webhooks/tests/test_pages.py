"""The directors' webhook pages: who may open them, a new endpoint's secret shown once and
never again, wrong input in every field refused with a message and nothing changed, pause,
resume, a test message, delete, the deliveries with their answers, German."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from webhooks.models import Delivery, Endpoint

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def dns(monkeypatch):
    monkeypatch.setattr(
        "webhooks.sending.resolve",
        lambda host, port: ["93.184.215.14"] if host == "hooks.example.org" else [],
    )


@pytest.fixture
def boss(director):
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(director)
    return client


def _add(client, **fields):
    data = {"url": "https://hooks.example.org/floor", "kinds": ["player.out"], **fields}
    return client.post(reverse("webhooks"), data)


def test_only_directors(client, floor_user):
    assert client.get(reverse("webhooks")).status_code == 302
    client.force_login(floor_user)
    assert client.get(reverse("webhooks")).status_code == 403
    assert (
        client.post(reverse("webhooks"), {"url": "https://hooks.example.org/"}).status_code == 403
    )
    assert not Endpoint.objects.exists()


def test_the_secret_is_shown_once_and_never_again(boss, make_tournament):
    t = make_tournament()
    answer = _add(
        boss, tournament=str(t.pk), description="Club site", kinds=["player.out", "level.started"]
    )
    assert answer.status_code == 201
    assert "no-store" in answer["Cache-Control"]
    endpoint = Endpoint.objects.get()
    assert endpoint.secret in answer.content.decode()
    assert endpoint.tournament == t and endpoint.kinds == ["level.started", "player.out"]
    for page in (reverse("webhooks"), reverse("webhook", args=[endpoint.pk])):
        shown = boss.get(page)
        assert shown.status_code == 200
        text = shown.content.decode()
        assert endpoint.secret not in text and endpoint.secret[6:20] not in text
        assert "hooks.example.org/floor" in text


@pytest.mark.parametrize(
    ("fields", "words"),
    [
        ({"url": ""}, "Enter the receiver"),
        ({"url": "https://127.0.0.1/x"}, "this machine itself"),
        ({"url": "http://hooks.example.org/"}, "https://"),
        ({"url": "not a url"}, "https://"),
        ({"url": "https://" + "a" * 700}, "too long"),
        ({"kinds": []}, "at least one"),
        ({"kinds": ["player.out", "<script>"]}, "Unknown event"),
        ({"tournament": "abc"}, "Choose a tournament"),
        ({"tournament": "²"}, "Choose a tournament"),
        ({"tournament": "99999999"}, "Choose a tournament"),
        ({"tournament": "9" * 40}, "Choose a tournament"),
        ({"description": "x" * 150}, "too long"),
        ({"description": "a\x00b"}, "control characters"),
        ({"url": "https://hooks.example.org/\x00"}, "control characters"),
    ],
)
def test_wrong_input_is_refused_with_a_message_and_nothing_changed(boss, fields, words):
    answer = _add(boss, **fields)
    assert answer.status_code == 400
    assert words in answer.content.decode()
    assert not Endpoint.objects.exists()


def test_pause_resume_test_and_delete(boss):
    _add(boss)
    endpoint = Endpoint.objects.get()
    page = reverse("webhook", args=[endpoint.pk])
    assert (
        boss.post(reverse("webhook-active", args=[endpoint.pk]), {"active": "0"}).status_code == 302
    )
    endpoint.refresh_from_db()
    assert not endpoint.active
    assert "paused" in boss.get(page).content.decode()
    refused = boss.post(reverse("webhook-active", args=[endpoint.pk]), {"active": "maybe"})
    assert refused.status_code == 400 and "pause or resume" in refused.content.decode()
    boss.post(reverse("webhook-active", args=[endpoint.pk]), {"active": "1"})
    endpoint.refresh_from_db()
    assert endpoint.active

    assert boss.post(reverse("webhook-test", args=[endpoint.pk])).status_code == 302
    delivery = Delivery.objects.get()
    assert delivery.kind == "webhook.test"
    Delivery.objects.filter(pk=delivery.pk).update(
        attempts=2, last_status=500, last_answer="Internal error at the club"
    )
    text = boss.get(page).content.decode()
    assert "Internal error at the club" in text and "500" in text and delivery.message_id in text

    unconfirmed = boss.post(reverse("webhook-delete", args=[endpoint.pk]))
    assert unconfirmed.status_code == 400 and "confirm" in unconfirmed.content.decode()
    assert Endpoint.objects.exists()
    assert (
        boss.post(reverse("webhook-delete", args=[endpoint.pk]), {"confirm": "yes"}).status_code
        == 302
    )
    assert not Endpoint.objects.exists() and not Delivery.objects.exists()


def test_unknown_endpoint_and_wrong_method(boss):
    assert boss.get(reverse("webhook", args=[424242])).status_code == 404
    assert boss.post(reverse("webhook-test", args=[424242])).status_code == 404
    assert (
        boss.post(reverse("webhook-delete", args=[424242]), {"confirm": "yes"}).status_code == 404
    )
    assert boss.get(reverse("webhook-test", args=[1])).status_code == 405
    assert boss.put(reverse("webhooks")).status_code == 405


def test_the_pages_read_german(director):
    boss = Client(HTTP_ACCEPT_LANGUAGE="de")
    boss.force_login(director)
    text = boss.get(reverse("webhooks")).content.decode()
    assert "Endpunkt hinzufügen" in text and "Alle Turniere" in text
    answer = boss.post(reverse("webhooks"), {"url": "https://127.0.0.1/", "kinds": ["player.out"]})
    assert "diesen Rechner selbst" in answer.content.decode()
