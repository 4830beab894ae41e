"""Each tournament records the version of its ruleset; rulings and penalties cite the version in
force, and a tournament keeps its version when a newer one is added."""

from __future__ import annotations

from dataclasses import replace

import pytest
from django.urls import reverse

from core.errors import FloorError
from rules_engine.domain import rulesets
from rules_engine.models import Penalty, Ruling
from tournament.forms import TournamentForm
from tournament.models import Event, Tournament
from tournament.services.tournaments import tournament_update

pytestmark = pytest.mark.django_db

MISSED_RAISE = {
    "situation": "bet_interpretation",
    "facts": {
        "current_bet": 400,
        "in_front": 0,
        "last_raise": 300,
        "stack": 5000,
        "big_blind": 100,
        "verbal": "none",
        "chips": [100],
        "missed_raise": True,
    },
}

SETTINGS = {
    "name": "Test Cup",
    "starts_at": "2026-12-04T19:30",
    "game": "nlhe",
    "currency": "EUR",
    "buy_in": "100",
    "fee": "10",
    "starting_stack": "20000",
    "seats_per_table": "9",
    "max_entries_per_player": "1",
    "rebuys_max": "0",
    "addons_max": "0",
    "rebuy_chips": "0",
    "addon_chips": "0",
}


@pytest.fixture
def api(client, floor_user):
    client.force_login(floor_user)
    return client


def post(client, url, data):
    return client.post(url, data, content_type="application/json")


def add_tda_1_2(monkeypatch):
    """A later tda-de edition, for these tests only: chips put in after a missed raise may come
    back (as under bdpv 2.4.10), and a shorter time call."""
    registry = rulesets.Registry(rulesets.REGISTRY.all())
    registry.register(
        replace(
            rulesets.ruleset("tda-de"), version="1.2", time_call=(30, 5), missed_raise_take_back=50
        )
    )
    monkeypatch.setattr(rulesets, "REGISTRY", registry)


def test_a_new_tournament_records_the_newest_version(make_tournament):
    assert make_tournament().ruleset_version == "1.0"
    assert make_tournament(ruleset="bdpv").ruleset_version == "1.1"


def test_a_tournament_keeps_its_version_and_rulings_cite_it(
    api, make_tournament, monkeypatch, actor
):
    t = make_tournament()
    add_tda_1_2(monkeypatch)
    assert make_tournament(name="Next week").ruleset_version == "1.2"

    suggested = post(api, reverse("api-ruling-suggest", args=[t.pk]), MISSED_RAISE).json()
    assert suggested["ruleset_version"] == "1.0"
    assert suggested["result"]["outcome"] == "complete_or_fold"  # 1.0 has no taking back
    assert suggested["rules"][0]["citation"] == "tda-de 1.0 · 42"

    r = post(api, reverse("api-rulings", args=[t.pk]), MISSED_RAISE)
    assert r.status_code == 201, r.content
    recorded = r.json()
    assert (recorded["ruleset"], recorded["ruleset_version"]) == ("tda-de", "1.0")
    assert recorded["citations"] == ["tda-de 1.0 · 42"] and recorded["rules"] == ["tda-de 42"]
    event = Event.objects.get(tournament=t, action="ruling.record")
    assert event.payload["ruleset_version"] == "1.0"

    page = api.get(reverse("rulings", args=[t.pk])).content.decode()
    assert "tda-de 1.0 · 42" in page  # the ruling log
    csv = api.get(reverse("rulings-csv", args=[t.pk])).content.decode()
    assert csv.splitlines()[0].split(",")[5] == "ruleset_version" and ",1.0," in csv

    # The tournament moves to 1.2 when the director picks it: the newer rule applies.
    tournament_update(tournament=t, actor=actor, ruleset_version="1.2")
    moved = post(api, reverse("api-ruling-suggest", args=[t.pk]), MISSED_RAISE).json()
    assert moved["result"]["outcome"] == "take_back" and moved["ruleset_version"] == "1.2"
    # The ruling made under 1.0 still cites 1.0.
    assert Ruling.objects.get().citations == ["tda-de 1.0 · 42"]


def test_a_tournament_without_a_version_plays_under_the_newest(
    api, make_tournament, monkeypatch, director
):
    t = make_tournament()
    Tournament.objects.filter(pk=t.pk).update(ruleset_version="")  # made before versions
    add_tda_1_2(monkeypatch)
    suggested = post(api, reverse("api-ruling-suggest", args=[t.pk]), MISSED_RAISE).json()
    assert suggested["ruleset_version"] == "1.2"
    assert suggested["result"]["outcome"] == "take_back"
    # The settings show the newest; saving them unchanged records nothing new.
    t.refresh_from_db()
    form = TournamentForm({**SETTINGS, "ruleset": "tda-de", "ruleset_version": "1.2"}, instance=t)
    assert form.initial["ruleset_version"] == "1.2" and form.is_valid(), form.errors
    assert "ruleset_version" not in form.values()


def test_settings_list_the_versions_and_a_new_ruleset_starts_at_its_newest(
    make_tournament, monkeypatch, actor
):
    t = make_tournament()
    add_tda_1_2(monkeypatch)
    form = TournamentForm(instance=t)
    assert [v for v, _label in form.fields["ruleset_version"].choices] == ["1.2", "1.0"]
    assert form.initial["ruleset_version"] == "1.0"

    # Changing the ruleset: the version shown (tda-de's 1.0) is not a pick.
    form = TournamentForm({**SETTINGS, "ruleset": "bdpv", "ruleset_version": "1.0"}, instance=t)
    assert form.is_valid(), form.errors
    t = tournament_update(tournament=t, actor=actor, **form.values())
    assert (t.ruleset, t.ruleset_version) == ("bdpv", "1.1")
    t = tournament_update(tournament=t, actor=actor, ruleset="tda-de")
    assert (t.ruleset, t.ruleset_version) == ("tda-de", "1.2")
    # A version picked with the new ruleset is kept; one the ruleset does not have is refused.
    t = tournament_update(tournament=t, actor=actor, ruleset="bdpv")
    t = tournament_update(tournament=t, actor=actor, ruleset="tda-de", ruleset_version="1.0")
    assert t.ruleset_version == "1.0"
    with pytest.raises(FloorError, match=r"has no version 1\.1") as exc:
        tournament_update(tournament=t, actor=actor, ruleset_version="1.1")
    assert exc.value.field == "ruleset_version"
    changed = Event.objects.filter(tournament=t, action="tournament.update").last()
    assert changed is not None and "ruleset_version" in changed.payload["changed"]


def test_the_settings_page_picks_a_version(client, director, make_tournament, monkeypatch):
    t = make_tournament()
    add_tda_1_2(monkeypatch)
    client.force_login(director)
    url = reverse("tournament-settings", args=[t.pk])
    page = client.get(url).content.decode()
    assert 'name="ruleset_version"' in page and "1.2 (newest)" in page
    r = client.post(url, {**SETTINGS, "ruleset": "tda-de", "ruleset_version": "1.2"})
    assert r.status_code == 302, r.content.decode()[:2000]
    t.refresh_from_db()
    assert t.ruleset_version == "1.2"


def test_penalties_cite_the_version_in_force(api, make_tournament, register, monkeypatch):
    t = make_tournament(ruleset="bdpv", status="running", late_registration_until_level=6)
    entry = register(t)
    add_tda_1_2(monkeypatch)
    r = post(
        api,
        reverse("api-penalties", args=[t.pk]),
        {"entry_number": entry.number, "kind": "warning", "reason": "phone at the table"},
    )
    assert r.status_code == 201, r.content
    assert (r.json()["rule"], r.json()["citation"]) == ("bdpv 6", "bdpv 1.1 · 6")
    assert Penalty.objects.get().ruleset_version == "1.1"
    page = api.get(reverse("penalties", args=[t.pk])).content.decode()
    assert "bdpv 1.1 · 6" in page
