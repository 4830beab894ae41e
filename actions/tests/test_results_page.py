"""The results page and its exports (tournament/results.py, docs/results.md)."""

from __future__ import annotations

import csv
import io
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from actions.bust import BustReport, entries_bust
from tournament.results import EXPORT_COLUMNS, EXPORT_FORMAT
from tournament.services.registration import registration_close

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished(make_tournament, register, actor):
    t = make_tournament(status="running", places_paid=2)
    anna, bert, cleo, dora = (
        register(t, name) for name in ("Anna Schulz", "Bert Meier", "=HYPERLINK(x)", "Dora Lang")
    )
    registration_close(tournament=t, actor=actor)
    for out in (dora, cleo, bert):
        entries_bust(tournament=t, busts=[BustReport(entry=out)], actor=actor)
    t.refresh_from_db()
    return t, (anna, bert, cleo, dora)


def test_the_page_lists_every_place_with_its_prize(client, finished):
    t, (anna, *_rest) = finished
    anna.refresh_from_db()
    html = client.get(reverse("results", args=[t.pk])).content.decode()
    assert "Final results" in html and "results-provisional" not in html
    for name in ("Anna S.", "Bert M.", "Dora L."):
        assert name in html
    assert html.index("Anna S.") < html.index("Bert M.") < html.index("Dora L.")
    assert "Anna Schulz" not in html  # public names only
    assert f"{anna.prize // 100}" in html


def test_csv_and_json_exports(client, finished):
    t, (anna, bert, _cleo, _dora) = finished
    anna.refresh_from_db()
    bert.refresh_from_db()
    body = client.get(reverse("results-csv", args=[t.pk])).content.decode()
    rows = list(csv.reader(io.StringIO(body)))
    assert tuple(rows[0]) == EXPORT_COLUMNS
    first = dict(zip(EXPORT_COLUMNS, rows[1], strict=True))
    assert first["place"] == "1" and first["name"] == "Anna S."
    assert first["prize"] == f"{anna.prize // 100}.{anna.prize % 100:02d}"
    assert first["entries"] == "4" and first["currency"] == t.currency
    # A name that would be a spreadsheet formula is written as text.
    assert any(r[6].startswith("'=") for r in rows[1:])
    data = client.get(reverse("results-json", args=[t.pk])).json()
    assert data["format"] == EXPORT_FORMAT and data["tournament"]["final"] is True
    assert [f["place"] for f in data["finishes"]] == [1, 2, 3, 4]
    assert data["finishes"][1]["prize"] == bert.prize  # cents
    assert sum(f["prize"] for f in data["finishes"]) == data["tournament"]["prize_pool"]


def test_before_the_end_the_places_are_provisional(client, make_tournament, register, actor):
    t = make_tournament(status="running", late_registration_until_level=6)
    players = [register(t) for _ in range(5)]
    entries_bust(tournament=t, busts=[BustReport(entry=players[0])], actor=actor)
    html = client.get(reverse("results", args=[t.pk])).content.decode()
    assert "results-provisional" in html and "Places so far" in html
    data = client.get(reverse("results-json", args=[t.pk])).json()
    assert data["tournament"]["final"] is False
    assert [f["place"] for f in data["finishes"]] == [5]


def test_old_results_show_initials(client, finished, settings):
    t, _entries = finished
    t.starts_at = timezone.now() - timedelta(days=settings.FLOOR_PUBLIC_RESULTS_DAYS + 1)
    t.save(update_fields=["starts_at"])
    data = client.get(reverse("results-json", args=[t.pk])).json()
    assert data["finishes"][0]["name"] == "A. S."


def test_the_public_page_links_the_results_at_the_end(client, finished, make_tournament):
    t, _entries = finished
    html = client.get(reverse("tournament-public", args=[t.pk])).content.decode()
    link = html[html.index('id="results-link"') - 60 : html.index('id="results-link"') + 120]
    assert "hidden" not in link
    running = make_tournament(status="running")
    html = client.get(reverse("tournament-public", args=[running.pk])).content.decode()
    start = html.index('id="results-link"')
    assert "hidden" in html[start : start + 120]


def test_unknown_tournament_is_404(client):
    assert client.get("/t/999999/results/").status_code == 404
    assert client.get("/t/999999/results.csv").status_code == 404


def test_a_tournament_in_a_league_shows_its_points(client, finished):
    """Results and league points together (actions/views.py): the table preset with 100, 60,
    30 points for the first three places."""
    from leagues.services import (
        league_create,
        season_create,
        season_tournament_add,
        season_update,
    )

    t, _entries = finished
    season = season_create(league=league_create(name="Club League"), name="2026")
    season = season_update(season=season, name="2026", scoring="table", table_text="100 60 30")
    season_tournament_add(season=season, tournament=t)
    data = client.get(reverse("results-json", args=[t.pk])).json()
    assert [f["points"] for f in data["finishes"]][:3] == [100.0, 60.0, 30.0]
    html = client.get(reverse("results", args=[t.pk])).content.decode()
    assert "Points" in html and ">100</td>" in html
