"""Corrections and idempotent registration through the desk and the API; the desk tells people
apart; receipts and slips show table and seat."""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tournament.models import EntryStatus, Player, Status, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def floor_client(client, floor_user):
    client.force_login(floor_user)
    return client


@pytest.fixture
def api(floor_user):
    client = APIClient()
    token = Token.objects.create(user=floor_user)
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


def _seated(t, actor, register, n=6):
    from tables import services as seating

    entries = [register(t, f"Spieler Nummer{i}") for i in range(n)]
    seating.tables_create(tournament=t, count=1, actor=actor)
    seating.seats_draw(tournament=t, actor=actor)
    Tournament.objects.filter(pk=t.pk).update(status=Status.RUNNING)
    t.refresh_from_db()
    return entries


def test_the_same_desk_key_twice_registers_once(floor_client, make_tournament):
    t = make_tournament(status="registering")
    url = reverse("desk", args=[t.pk])
    form = {"name": "Jonas Richter", "reg_key": "desk-key-1", "method": "cash"}
    first = floor_client.post(url, form)
    second = floor_client.post(url, form)
    assert first.status_code == second.status_code == 302
    assert first["Location"] == second["Location"]
    assert t.entries.count() == 1 and Player.objects.filter(name="Jonas Richter").count() == 1
    floor_client.post(url, {"name": "Mia Krause", "reg_key": "desk-key-2", "method": "cash"})
    assert t.entries.count() == 2
    page = floor_client.get(url).content.decode()
    assert 'name="reg_key"' in page


def test_the_api_idempotency_key(api, make_tournament):
    t = make_tournament(status="registering")
    url = f"/api/tournaments/{t.pk}/entries/"
    first = api.post(
        url,
        {"name": "Greta Lange", "payment_method": "cash"},
        format="json",
        HTTP_IDEMPOTENCY_KEY="abc-1",
    )
    again = api.post(
        url,
        {"name": "Greta Lange", "payment_method": "cash"},
        format="json",
        HTTP_IDEMPOTENCY_KEY="abc-1",
    )
    assert first.status_code == again.status_code == 201
    assert first.json() == again.json()
    assert first["Idempotent-Replayed"] == "false" and again["Idempotent-Replayed"] == "true"
    assert t.entries.count() == 1
    other = api.post(
        url,
        {"name": "Greta Lange", "payment_method": "cash"},
        format="json",
        HTTP_IDEMPOTENCY_KEY="abc-2",
    )
    assert other.status_code == 201 and other.json()["id"] != first.json()["id"]
    assert t.entries.count() == 2
    reused = api.post(
        url,
        {"name": "Ida Roth", "payment_method": "cash"},
        format="json",
        HTTP_IDEMPOTENCY_KEY="abc-1",
    )
    assert reused.status_code == 400 and reused.json()["code"] == "key_reused"
    bad = api.post(
        url,
        {"name": "Ida Roth", "payment_method": "cash"},
        format="json",
        HTTP_IDEMPOTENCY_KEY="x" * 101,
    )
    assert bad.status_code == 400
    schema = APIClient().get("/api/schema/").content.decode()
    assert "Idempotency-Key" in schema


def test_void_from_the_correction_page_and_undo_from_the_desk(
    floor_client, make_tournament, register, actor
):
    t = make_tournament(status="registering")
    entries = _seated(t, actor, register)
    wrong = entries[2]
    page = floor_client.get(reverse("entry-correct", args=[t.pk, wrong.pk]))
    assert page.status_code == 200 and "Void registration #3" in page.content.decode()
    response = floor_client.post(
        reverse("entry-correct", args=[t.pk, wrong.pk]), {"action": "void", "money": "refund"}
    )
    assert response.status_code == 302
    wrong.refresh_from_db()
    assert wrong.status == EntryStatus.UNREGISTERED
    desk = floor_client.get(reverse("desk", args=[t.pk])).content.decode()
    assert "Correction: registration of Spieler Nummer2 (#3) voided, buy-in refunded" in desk
    event = t.events.get(action="correction.void")
    floor_client.post(reverse("correction-undo", args=[t.pk, event.pk]))
    wrong.refresh_from_db()
    assert wrong.status == EntryStatus.ACTIVE and hasattr(wrong, "seat")
    history = floor_client.get(reverse("history", args=[t.pk])).content.decode()
    assert "Correction undone" in history


def test_name_person_and_money_corrections_through_the_page(
    floor_client, make_tournament, register, actor
):
    t = make_tournament(status="registering", rebuys_max=1, rebuy_price=5000)
    entries = _seated(t, actor, register, n=3)
    url = reverse("entry-correct", args=[t.pk, entries[0].pk])
    floor_client.post(url, {"action": "name", "name": "Anna Schäfer", "display_name": ""})
    entries[0].player.refresh_from_db()
    assert entries[0].player.name == "Anna Schäfer"
    floor_client.post(url, {"action": "person", "name": "Bernd Schäfer", "player": ""})
    entries[0].refresh_from_db()
    assert entries[0].player.name == "Bernd Schäfer"
    buyin = entries[0].purchases.get()
    refused = floor_client.post(url, {"action": "money", "purchase": buyin.pk, "to": "99"})
    assert refused.status_code == 400 and "no entry #99" in refused.content.decode()
    floor_client.post(url, {"action": "money", "purchase": buyin.pk, "to": "#2"})
    assert entries[1].purchases.count() == 2


def test_suggestions_tell_people_apart_and_a_known_name_warns(
    floor_client, make_tournament, register, actor
):
    t = make_tournament(status="registering")
    anna = register(t, "Anna Schäfer")
    matches = floor_client.get(reverse("player-search", args=[t.pk]), {"name": "schaefer"})
    assert "already registered #1" in matches.content.decode()
    url = reverse("desk", args=[t.pk])
    warned = floor_client.post(url, {"name": "anna schafer", "reg_key": "k-warn", "method": "cash"})
    body = warned.content.decode()
    assert warned.status_code == 200 and "exists already" in body and 'id="name-warning"' in body
    assert t.entries.count() == 1
    anyway = floor_client.post(
        url, {"name": "Anna Schäfer", "reg_key": "k2", "confirm_new": "1", "method": "cash"}
    )
    assert anyway.status_code == 302 and t.entries.count() == 2
    assert Player.objects.filter(name="Anna Schäfer").count() == 2
    assert anna.pk


def test_receipt_shows_table_and_seat_and_re_entry(floor_client, make_tournament, register, actor):
    t = make_tournament(status="registering")
    entries = _seated(t, actor, register)
    seat = entries[0].seat
    receipt = floor_client.get(reverse("entry-receipt", args=[t.pk, entries[0].pk]))
    body = receipt.content.decode()
    assert 'id="receipt-seat"' in body and f"Seat {seat.seat}" in body


def test_final_table_draw_offers_slips(floor_client, make_tournament, register, actor):
    from tables import services as seating

    t = make_tournament(status="registering", final_table_size=6, seats_per_table=4)
    [register(t, f"Spieler Nummer{i}") for i in range(6)]
    seating.tables_create(tournament=t, count=2, actor=actor)
    seating.seats_draw(tournament=t, actor=actor)
    Tournament.objects.filter(pk=t.pk).update(status=Status.RUNNING)
    seating.final_table_draw(tournament=t, actor=actor)
    event = t.events.get(action="seats.final")
    chart = floor_client.get(reverse("seating", args=[t.pk])).content.decode()
    assert reverse("move-slips", args=[t.pk, event.pk]) in chart
    slips = floor_client.get(reverse("move-slips", args=[t.pk, event.pk]))
    assert slips.status_code == 200 and "slip-to" in slips.content.decode()


def test_void_and_undo_through_the_api(api, make_tournament, register, actor):
    t = make_tournament(status="registering")
    entries = _seated(t, actor, register, n=4)
    url = f"/api/tournaments/{t.pk}/entries/{entries[1].pk}/void/"
    voided = api.post(url, {"move_to": entries[2].number}, format="json")
    assert voided.status_code == 201, voided.content
    assert voided.json()["sentence"].endswith("money moved to #3")
    assert t.entries.get(pk=entries[1].pk).status == EntryStatus.UNREGISTERED
    again = api.post(url, {}, format="json")
    assert again.status_code == 400 and "not registered" in again.json()["detail"]
    undo = api.post(f"/api/tournaments/{t.pk}/corrections/{voided.json()['id']}/undo/")
    assert undo.status_code == 201 and undo.json()["action"] == "correction.undo"
    assert t.entries.get(pk=entries[1].pk).status == EntryStatus.ACTIVE
    twice = api.post(f"/api/tournaments/{t.pk}/corrections/{voided.json()['id']}/undo/")
    assert twice.status_code == 400
    assert APIClient().post(url, {}, format="json").status_code in (401, 403)


def test_the_same_undo_form_twice_undoes_one_bust(floor_client, make_tournament, register, actor):
    """ "Undo last bust" names the bust it undoes: the form sent again (the answer lost when the
    connection dropped, a second desk) undoes nothing more."""
    import re

    from actions.bust import BustReport, entries_bust

    t = make_tournament(status="running")
    players = [register(t, f"Spieler Nummer{i}") for i in range(5)]
    entries_bust(tournament=t, busts=[BustReport(entry=players[0])], actor=actor)
    entries_bust(tournament=t, busts=[BustReport(entry=players[1])], actor=actor)
    page = floor_client.get(reverse("desk", args=[t.pk])).content.decode()
    sequence = re.search(r'name="sequence" value="(\d+)"', page).group(1)
    url = reverse("bust-undo", args=[t.pk])
    floor_client.post(url, {"sequence": sequence})
    again = floor_client.post(url, {"sequence": sequence}, follow=True)
    assert "The last bust has changed since this page was drawn" in again.content.decode()
    statuses = {e.pk: e.status for e in t.entries.all()}
    assert statuses[players[1].pk] == EntryStatus.ACTIVE
    assert statuses[players[0].pk] == EntryStatus.BUSTED
