"""The public final results: nothing before the end; then places, display names and prizes,
with a deal's amounts; initials once the names are withheld."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.utils import timezone

from actions.bust import BustReport, entries_bust
from tournament.models import Status, Tournament
from tournament.results import final_results
from tournament.services.deals import DealInput, deal_record, players_left

pytestmark = pytest.mark.django_db


@pytest.fixture
def running(make_tournament, register):
    def make(n: int):
        t = make_tournament(status="registering")
        entries = [register(t, f"Spieler Nummer{i}") for i in range(n)]
        Tournament.objects.filter(pk=t.pk).update(
            status=Status.RUNNING, registration_closed_at=timezone.now()
        )
        t.refresh_from_db()
        return t, entries

    return make


def bust(t, e, actor):
    entries_bust(tournament=t, busts=[BustReport(entry=e)], actor=actor)


def test_nothing_before_the_end(running, actor):
    t, entries = running(5)
    bust(t, entries[0], actor)
    assert final_results(t) is None


def test_places_names_and_prizes(running, actor):
    t, entries = running(20)  # 3 places paid
    for e in entries[:19]:
        bust(t, e, actor)
    t.refresh_from_db()
    results = json.loads(json.dumps(final_results(t)))
    places = results["places"]
    assert [p["place"] for p in places] == [1, 2, 3]
    assert all(p["prize"] > 0 for p in places)
    assert results["winners"] == [places[0]]
    assert places[0]["number"] == entries[19].number
    assert places[0]["name"] == "Spieler N."  # the display name, never the full name
    assert results["deal"] is None


def test_at_least_three_places_without_prizes(running, actor):
    t, entries = running(4)  # one place paid
    for e in entries[:3]:
        bust(t, e, actor)
    t.refresh_from_db()
    assert [p["place"] for p in final_results(t)["places"]] == [1, 2, 3]


def test_a_deal_shows_the_amounts_agreed(running, actor):
    t, entries = running(20)
    for e in entries[:17]:
        bust(t, e, actor)
    left = players_left(t)
    deal = deal_record(
        tournament=t,
        data=DealInput(stacks={e.pk: s for e, s in zip(left, [5, 3, 2], strict=True)}),
        method="chip_chop",
        consents=[e.pk for e in left],
        actor=actor,
    )
    shares = dict(deal.shares.values_list("entry_id", "amount"))
    for e in entries[17:19]:
        bust(t, e, actor)
    t.refresh_from_db()
    results = final_results(t)
    assert results["deal"] == {"method": "Chip chop", "players": 3, "play_for": deal.play_for}
    by_number = {p["number"]: p for p in results["places"]}
    for e in left:
        row = by_number[e.number]
        assert row["deal"] is True
        expected = shares[e.pk] + (deal.play_for if row["place"] == 1 else 0)
        assert row["prize"] == expected


def test_initials_once_names_are_withheld(running, actor, settings):
    t, entries = running(3)
    for e in entries[:2]:
        bust(t, e, actor)
    settings.FLOOR_PUBLIC_RESULTS_DAYS = 30
    Tournament.objects.filter(pk=t.pk).update(starts_at=timezone.now() - timedelta(days=40))
    t.refresh_from_db()
    assert final_results(t)["winners"][0]["name"] == "S. N."
