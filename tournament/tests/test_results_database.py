"""The export for results databases (tournament/results.py, docs/results.md "For results
databases"): finished tournaments only, public names, money exact to the cent and equal to the
results page's and the payouts' figures, a CSV a spreadsheet opens."""

from __future__ import annotations

import csv
import io
from datetime import timedelta
from decimal import Decimal

import pytest
from django.urls import reverse
from django.utils import timezone

from actions.bust import BustReport, entries_bust
from tournament.results import DATABASE_COLUMNS, DATABASE_FORMAT, tournament_results
from tournament.selectors import payout_amounts
from tournament.services.registration import registration_close
from tournament.templatetags.floor import money

pytestmark = pytest.mark.django_db

NAMES = ("Jörg Weiß", "Bert Meier", "=HYPERLINK(x)", "Dora Lang", "Emil Öz")


@pytest.fixture
def finished(make_tournament, register, actor):
    # 33.33 + 3.00 a head: a pool of 166.65 that no schedule splits into whole euros.
    t = make_tournament(status="running", places_paid=3, buy_in=3333, fee=300)
    entries = [register(t, name) for name in NAMES]
    registration_close(tournament=t, actor=actor)
    for out in reversed(entries[1:]):
        entries_bust(tournament=t, busts=[BustReport(entry=out)], actor=actor)
    t.refresh_from_db()
    return t


def _csv(client, t):
    response = client.get(reverse("results-database-csv", args=[t.pk]))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    raw = response.content
    assert raw.startswith(b"\xef\xbb\xbf")  # UTF-8 with BOM: a spreadsheet keeps the umlauts
    rows = list(csv.reader(io.StringIO(raw.decode("utf-8-sig"))))
    assert tuple(rows[0]) == DATABASE_COLUMNS
    return [dict(zip(DATABASE_COLUMNS, r, strict=True)) for r in rows[1:]]


def test_csv_rows_in_the_databases_shape(client, finished):
    t = finished
    rows = _csv(client, t)
    assert [r["place"] for r in rows] == ["1", "2", "3", "4", "5"]
    first = rows[0]
    assert (
        first["event"] == "Test Cup"
        and first["date"] == timezone.localtime(t.starts_at).date().isoformat()
    )
    assert first["name"] == "Jörg W." and first["currency"] == t.currency
    assert first["entries"] == "5" and first["buy_in"] == "33.33" and first["fee"] == "3.00"
    assert first["country"] == ""
    # Public names only; a name a spreadsheet would run as a formula is text.
    assert all("Weiß" not in r["name"] for r in rows)
    assert any(r["name"].startswith("'=") for r in rows)


def test_prizes_equal_the_results_page_and_the_payouts(client, finished):
    t = finished
    rows = _csv(client, t)
    data = client.get(reverse("results-database-json", args=[t.pk])).json()
    results = tournament_results(t)
    # The export, the results page's finishes and the payout table: the same cents.
    csv_cents = [int(Decimal(r["prize"]) * 100) for r in rows]
    json_cents = [r["prize"] for r in data["results"]]
    page_cents = [f.prize for f in results.finishes]
    assert csv_cents == json_cents == page_cents
    paid = payout_amounts(t)
    assert [c for c in csv_cents if c] == paid
    assert sum(csv_cents) == data["event"]["prize_pool"] == results.prize_pool
    assert any(c % 100 for c in csv_cents)  # the odd cents are kept, not rounded
    html = client.get(reverse("results", args=[t.pk])).content.decode()
    for cents in paid:
        assert money(cents, t.currency) in html


def test_json_schema(client, finished):
    t = finished
    data = client.get(reverse("results-database-json", args=[t.pk])).json()
    assert data["format"] == DATABASE_FORMAT
    assert set(data["event"]) == {
        "id",
        "name",
        "date",
        "venue",
        "currency",
        "entries",
        "buy_in",
        "fee",
        "prize_pool",
    }
    assert data["event"]["buy_in"] == 3333 and data["event"]["fee"] == 300
    assert data["event"]["entries"] == 5
    for r in data["results"]:
        assert set(r) == {"place", "name", "country", "prize"}
        assert isinstance(r["prize"], int) and r["country"] is None
    assert data["results"][0]["name"] == "Jörg W."


def test_old_results_give_initials_as_the_page_does(client, finished, settings):
    t = finished
    t.starts_at = timezone.now() - timedelta(days=settings.FLOOR_PUBLIC_RESULTS_DAYS + 1)
    t.save(update_fields=["starts_at"])
    assert _csv(client, t)[0]["name"] == "J. W."
    data = client.get(reverse("results-database-json", args=[t.pk])).json()
    assert data["results"][0]["name"] == "J. W."


def test_before_the_end_it_is_refused_with_a_message(client, make_tournament, register):
    t = make_tournament(status="running")
    register(t)
    response = client.get(reverse("results-database-csv", args=[t.pk]))
    assert response.status_code == 409
    assert "once the tournament has finished" in response.content.decode()
    response = client.get(reverse("results-database-json", args=[t.pk]))
    assert response.status_code == 409 and "finished" in response.json()["detail"]
    html = client.get(reverse("results", args=[t.pk])).content.decode()
    assert "results-database-csv" not in html


def test_unknown_tournament_is_404(client):
    assert client.get("/t/999999/results/database.csv").status_code == 404
    assert client.get("/t/999999/results/database.json").status_code == 404


def test_the_pages_link_the_export(client, finished, floor_user):
    t = finished
    html = client.get(reverse("results", args=[t.pk])).content.decode()
    assert reverse("results-database-csv", args=[t.pk]) in html
    assert reverse("results-database-json", args=[t.pk]) in html
    client.force_login(floor_user)
    html = client.get(reverse("payouts", args=[t.pk])).content.decode()
    assert reverse("results-database-csv", args=[t.pk]) in html
    assert reverse("results", args=[t.pk]) in html
