"""API errors answer in the request's language (Accept-Language), as the pages do."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tournament.models import Status, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def api(director):
    client = APIClient()
    client.force_authenticate(director)
    return client


def _refusals(api, t, template, chip_set):
    """Each refusal as (status, body) in the language of `api`'s requests."""
    entries = f"/api/tournaments/{t.pk}/entries/"
    return [
        ("payment method missing", entries, {"name": "Greta Lange"}),
        ("payment method unknown", entries, {"name": "Greta Lange", "payment_method": "gold"}),
        ("neither player nor name", entries, {"payment_method": "cash"}),
        ("unknown player", entries, {"player": 99999, "payment_method": "cash"}),
        (
            "unknown structure",
            "/api/tournaments/",
            {
                "name": "Cup",
                "starts_at": "2030-01-01T19:00:00+01:00",
                "buy_in": 1000,
                "starting_stack": 10000,
                "structure": 999999,
                "chip_set": chip_set.pk,
            },
        ),
        ("unknown entry", f"/api/tournaments/{t.pk}/busts/", {"busts": [{"entry": 99999}]}),
    ]


GERMAN = {
    "payment method missing": "Geben Sie an, wie das Buy-in bezahlt wurde: cash, card",
    "payment method unknown": "Unbekannte Zahlungsart; eine von: cash, card",
    "neither player nor name": "Geben Sie die ID eines vorhandenen Spielers oder einen Namen an.",
    "unknown player": "Unbekannter Spieler.",
    "unknown structure": "Unbekannte Strukturvorlage oder unbekannter Chipsatz.",
    "unknown entry": "Die Anmeldung 99999 gehört nicht zu diesem Turnier.",
}
ENGLISH = {
    "payment method missing": "Say how the buy-in was paid: cash, card",
    "payment method unknown": "Unknown payment method; one of: cash, card",
    "neither player nor name": "Give an existing player id or a name.",
    "unknown player": "Unknown player.",
    "unknown structure": "Unknown structure template or chip set.",
    "unknown entry": "Entry 99999 is not in this tournament.",
}


@pytest.mark.parametrize(("language", "expected"), [("de", GERMAN), ("en", ENGLISH)])
def test_api_errors_follow_accept_language(
    api, make_tournament, template, chip_set, language, expected
):
    t = make_tournament(status="registering")
    for name, url, body in _refusals(api, t, template, chip_set):
        if name not in expected:
            continue
        response = api.post(url, body, format="json", HTTP_ACCEPT_LANGUAGE=language)
        assert 400 <= response.status_code < 500, (name, response.content)
        assert expected[name] in response.content.decode(), (name, response.content.decode())
    assert Tournament.objects.count() == 1
    assert not t.entries.exists()


def test_api_errors_in_german_then_english_on_one_process(api, make_tournament, template, chip_set):
    """A message worded once, at import, would answer every request in that language."""
    t = make_tournament(status="registering")
    url = f"/api/tournaments/{t.pk}/entries/"
    for language, words in (("de", "Geben Sie an"), ("en", "Say how"), ("de", "Geben Sie an")):
        body = api.post(url, {"name": "X"}, format="json", HTTP_ACCEPT_LANGUAGE=language).json()
        assert words in body["payment_method"][0]


@pytest.mark.parametrize(("language", "words"), [("de", "Nicht gefunden."), ("en", "Not found.")])
def test_a_missing_row_is_not_found_in_the_readers_language(api, language, words):
    for url in (
        "/api/tournaments/999999/",
        "/api/players/999999/",
        "/api/tournaments/999999/tables/",
    ):
        response = api.get(url, HTTP_ACCEPT_LANGUAGE=language)
        assert response.status_code == 404
        assert response.json()["detail"] == words, url


def test_services_refusals_and_drf_messages_follow_accept_language(api, make_tournament):
    t = make_tournament(status="registering")
    Tournament.objects.filter(pk=t.pk).update(status=Status.RUNNING)
    de = api.post(
        f"/api/tournaments/{t.pk}/seating/draw/", {}, format="json", HTTP_ACCEPT_LANGUAGE="de"
    )
    en = api.post(
        f"/api/tournaments/{t.pk}/seating/draw/", {}, format="json", HTTP_ACCEPT_LANGUAGE="en"
    )
    assert de.status_code == en.status_code == 400
    assert de.json()["detail"] != en.json()["detail"]
    bad = {"busts": "x"}
    de = api.post(f"/api/tournaments/{t.pk}/busts/", bad, format="json", HTTP_ACCEPT_LANGUAGE="de")
    assert "Erwarte eine Liste" in de.content.decode()
