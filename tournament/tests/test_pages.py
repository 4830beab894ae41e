"""Console and public pages: roles, forms, and that each page renders."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tournament.models import Status, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def floor_client(client, floor_user):
    client.force_login(floor_user)
    return client


@pytest.fixture
def director_client(client, director):
    client.force_login(director)
    return client


CONSOLE_PAGES = [
    "tournament-overview",
    "desk",
    "players",
    "payouts",
    "deal",
    "payout-desk",
    "structure-editor",
    "history",
]


def test_console_needs_login(client, make_tournament):
    t = make_tournament()
    for name in CONSOLE_PAGES:
        response = client.get(reverse(name, args=[t.pk]))
        assert response.status_code == 302
        assert response["Location"].startswith("/login/")


def test_console_pages_render_for_floor(floor_client, make_tournament, register):
    t = make_tournament(status="registering")
    register(t, "Hannes Becker")
    for name in CONSOLE_PAGES:
        response = floor_client.get(reverse(name, args=[t.pk]))
        assert response.status_code == 200, name
    assert floor_client.get(reverse("console-home")).status_code == 200
    assert floor_client.get(reverse("tournament-settings", args=[t.pk])).status_code == 403


def test_public_page_shows_no_private_data(client, make_tournament, actor):
    from actions.registration import entry_register
    from tournament.services.registration import player_create

    t = make_tournament(status="registering")
    p = player_create(name="Private Person", email="private@example.org", phone="0170", actor=actor)
    entry_register(tournament=t, player=p, actor=actor)
    body = client.get(reverse("tournament-public", args=[t.pk])).content.decode()
    assert t.name in body
    assert "private@example.org" not in body and "0170" not in body
    assert client.get(reverse("home")).status_code == 200


def test_desk_registers_and_shows_the_receipt(floor_client, make_tournament):
    t = make_tournament(status="registering")
    response = floor_client.post(
        reverse("desk", args=[t.pk]),
        {"name": "Jonas Richter", "display_name": "", "method": "cash"},
    )
    assert response.status_code == 302
    entry = t.entries.get()
    receipt = floor_client.get(reverse("entry-receipt", args=[t.pk, entry.pk]))
    assert "Jonas Richter" in receipt.content.decode()


def test_desk_shows_refusal_in_german(floor_client, make_tournament):
    t = make_tournament()  # planned: registration not open
    response = floor_client.post(
        reverse("desk", args=[t.pk]), {"name": "Katrin Wolf"}, HTTP_ACCEPT_LANGUAGE="de"
    )
    assert response.status_code == 200
    assert "Anmeldung" in response.content.decode()
    assert t.entries.count() == 0


def test_new_tournament_form(director_client, template, chip_set):
    response = director_client.post(
        reverse("tournament-new"),
        {
            "name": "Friday Turbo",
            "starts_at": "2026-12-04T19:30",
            "game": "nlhe",
            "currency": "EUR",
            "buy_in": "30",
            "fee": "3,50",
            "starting_stack": "15000",
            "seats_per_table": "9",
            "final_table_size": "9",
            "ruleset": "bdpv",
            "max_entries_per_player": "1",
            "rebuys_max": "0",
            "addons_max": "0",
            "rebuy_chips": "0",
            "addon_chips": "0",
            "structure": template.pk,
            "chip_set": chip_set.pk,
        },
    )
    assert response.status_code == 302, response.content.decode()[:3000]
    t = Tournament.objects.get(name="Friday Turbo")
    assert (t.buy_in, t.fee, t.ruleset) == (3000, 350, "bdpv")


def test_status_buttons(director_client, make_tournament):
    t = make_tournament()
    director_client.post(reverse("tournament-status", args=[t.pk]), {"status": "registering"})
    t.refresh_from_db()
    assert t.status == Status.REGISTERING


def test_history_csv(floor_client, make_tournament):
    t = make_tournament()
    response = floor_client.get(reverse("history-csv", args=[t.pk]))
    assert response.status_code == 200
    assert "tournament.create" in response.content.decode()
