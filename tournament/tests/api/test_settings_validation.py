"""A PATCH is checked on the merged state: the stored row plus the change."""

from __future__ import annotations

import pytest

from tournament.forms import TournamentForm
from tournament.models import Tournament

pytestmark = pytest.mark.django_db


def patch(client, t, body):
    return client.patch(f"/api/tournaments/{t.pk}/", body, content_type="application/json")


def test_partial_patch_cannot_put_the_bounty_above_the_buy_in(client, director, make_tournament):
    t = make_tournament(bounty_kind="progressive", bounty=5000)
    client.force_login(director)
    r = patch(client, t, {"bounty": 10001})
    assert r.status_code == 400, r.content
    assert "bounty" in r.json()
    r = patch(client, t, {"buy_in": 4000})  # the other side of the same rule
    assert r.status_code == 400
    t.refresh_from_db()
    assert (t.bounty, t.buy_in) == (5000, 10000)
    assert patch(client, t, {"bounty": 6000}).status_code == 200


def test_places_paid_zero_and_bad_currency_are_refused(client, director, make_tournament):
    t = make_tournament()
    client.force_login(director)
    assert patch(client, t, {"places_paid": 0}).status_code == 400
    assert patch(client, t, {"currency": "ÄÖÜ"}).status_code == 400
    assert patch(client, t, {"currency": "XYZ"}).status_code == 400
    assert patch(client, t, {"buy_in": 2**40}).status_code == 400
    assert patch(client, t, {"currency": "CHF", "places_paid": 3}).status_code == 200
    t.refresh_from_db()
    assert (t.currency, t.places_paid) == ("CHF", 3)


def test_create_checks_the_same_rules(client, director, template, chip_set):
    client.force_login(director)
    body = {
        "name": "New",
        "starts_at": "2030-01-01T19:00:00Z",
        "buy_in": 1000,
        "starting_stack": 10000,
        "structure": template.pk,
        "chip_set": chip_set.pk,
        "bounty_kind": "fixed",
        "bounty": 2000,
    }
    r = client.post("/api/tournaments/", body, content_type="application/json")
    assert r.status_code == 400 and "bounty" in r.json()


def test_a_row_stored_bad_can_still_be_corrected_field_by_field(client, director, make_tournament):
    t = make_tournament(bounty_kind="fixed", bounty=5000)
    Tournament.objects.filter(pk=t.pk).update(bounty=99999, currency="ÄÖÜ")
    client.force_login(director)
    assert patch(client, t, {"venue": "Casino"}).status_code == 200
    assert patch(client, t, {"bounty": 4000}).status_code == 200
    assert patch(client, t, {"currency": "EUR"}).status_code == 200


def test_the_console_form_checks_the_whole_row(make_tournament):
    t = make_tournament(bounty_kind="progressive", bounty=5000)
    data = {
        "name": t.name,
        "starts_at": "2030-01-01T19:00",
        "game": "nlhe",
        "currency": "eur",
        "buy_in": "40",
        "starting_stack": "20000",
        "seats_per_table": "9",
        "ruleset": "tda-de",
        "max_entries_per_player": "1",
        "rebuys_max": "0",
        "addons_max": "0",
        "rebuy_chips": "0",
        "addon_chips": "0",
        "bounty_kind": "progressive",
        "bounty": "50",
    }
    form = TournamentForm(data, instance=t)
    assert not form.is_valid()
    assert "bounty" in form.errors
    form = TournamentForm({**data, "bounty": "20", "places_paid": "0"}, instance=t)
    assert not form.is_valid() and "places_paid" in form.errors
    form = TournamentForm({**data, "bounty": "20", "currency": "ÄÖÜ"}, instance=t)
    assert not form.is_valid() and "currency" in form.errors
    form = TournamentForm({**data, "bounty": "20"}, instance=t)
    assert form.is_valid(), form.errors
    assert form.cleaned_data["currency"] == "EUR"


def test_the_api_form_and_service_share_one_list_of_settings(client, director, make_tournament):
    from tournament.api.serializers import TournamentSerializer
    from tournament.models import TOURNAMENT_SETTINGS
    from tournament.services.tournaments import TOURNAMENT_FIELDS

    assert set(TOURNAMENT_SETTINGS) <= set(TournamentSerializer.Meta.fields)
    assert set(TournamentForm.Meta.fields) == set(TOURNAMENT_SETTINGS) - {"ruleset_version"}
    assert set(TOURNAMENT_SETTINGS) == TOURNAMENT_FIELDS
    t = make_tournament()
    client.force_login(director)
    r = patch(client, t, {"balance_tolerance": 2, "break_order": "lowest"})
    assert r.status_code == 200, r.content
    assert (r.json()["balance_tolerance"], r.json()["break_order"]) == (2, "lowest")
    assert patch(client, t, {"balance_tolerance": 0}).status_code == 400
