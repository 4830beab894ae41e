"""The festival's day report (festivals/report.py, docs/results.md): each flight's and the Day
2's play and money, for one date or the whole event; the money as the cage counts it, to the
cent; the page, the PDF and the German words."""

from __future__ import annotations

import io
import os

import pytest
from django.urls import reverse
from django.utils import timezone
from pypdf import PdfReader

from core.pdf import pdf_available
from festivals import services as fest
from festivals.models import Bagging
from festivals.report import day_report
from festivals.tests.test_cage import _flights_played, event, parts, second  # noqa: F401
from festivals.tests.test_festival import bag_all
from tournament.ledger_selectors import event_cage, tournament_cage
from tournament.models import Tournament

pytestmark = pytest.mark.django_db


def test_every_day_with_the_events_money(event, actor, second):  # noqa: F811
    (a, b), day2 = _flights_played(event, actor, second)
    report = day_report(event)
    assert [r.label for r in report.rows] == ["1A", "1B", "2"]
    assert report.entries == 12 and report.reentries == 0
    one_a, one_b, two = report.rows
    assert (one_a.entries, one_b.entries) == (7, 5)
    # Bagged at the end of each flight: the players left, every chip of the flight.
    for row, t in ((one_a, a), (one_b, b)):
        [bagged] = row.bagged
        assert bagged.closed and bagged.day == row.label
        assert bagged.players == 4 if row is one_a else 3
        assert bagged.chips == t.chips_in and bagged.leader
    assert report.bagged_players == 7
    assert two.bagged == []
    # The money: the cage's own reports, and the event's total to the cent.
    whole = event_cage(day2)
    assert report.money == whole.reckoning
    for row in report.rows:
        assert row.cage.reckoning == tournament_cage(row.tournament).reckoning
    assert report.money.report.held_total == 132_000
    assert report.money.still_owed == 300_000
    assert report.balanced


def test_a_bag_and_tag_under_way_shows_in_its_row_only(event, actor, second):  # noqa: F811
    (a, b), _day2 = _flights_played(event, actor)
    closing = bag_all(Tournament.objects.get(pk=a.pk), actor, second)
    fest.bagging_close(bagging=Bagging.objects.get(pk=closing.pk), actor=actor)
    bag_all(Tournament.objects.get(pk=b.pk), actor, second)
    report = day_report(event)
    [one_a], [one_b] = report.rows[0].bagged, report.rows[1].bagged
    assert one_a.closed and not one_b.closed
    assert (one_a.players, one_b.players) == (4, 3)
    assert one_b.chips == Tournament.objects.get(pk=b.pk).chips_in
    assert report.bagged_players == 4  # the closed day's, as the festival view counts them


def test_one_day(event, actor, second):  # noqa: F811
    (a, _b), _day2 = _flights_played(event, actor, second)
    day = timezone.localtime(a.starts_at).date()
    report = day_report(event, day)
    assert [r.label for r in report.rows] == ["1A"]
    assert len(report.days) == 3
    assert report.money == tournament_cage(a).reckoning
    assert report.money.report.held_total == 7 * 11_000 and report.money.still_owed == 0


def _login(client, floor_user, language="en"):
    client.force_login(floor_user)
    client.cookies["django_language"] = language


def test_the_page_and_its_days(client, floor_user, event, actor, second):  # noqa: F811
    (a, _b), _day2 = _flights_played(event, actor, second)
    _login(client, floor_user)
    url = reverse("festival-report", args=[event.pk])
    body = client.get(url).content.decode()
    assert 'id="rp-day-1A"' in body and 'id="rp-day-2"' in body
    day = timezone.localtime(a.starts_at).date().isoformat()
    one = client.get(f"{url}?day={day}")
    assert one.status_code == 200
    text = one.content.decode()
    assert 'id="rp-day-1A"' in text and 'id="rp-day-1B"' not in text
    assert f"report.pdf?day={day}" in text
    assert client.get(f"{url}?day=1999-01-01").status_code == 404
    assert client.get(f"{url}?day=yesterday").status_code == 200  # not a date: every day
    festival = client.get(reverse("festival", args=[event.pk])).content.decode()
    assert url in festival


def test_the_page_in_german(client, floor_user, event, actor, second):  # noqa: F811
    _flights_played(event, actor, second)
    _login(client, floor_user, "de")
    body = client.get(reverse("festival-report", args=[event.pk])).content.decode()
    for words in ("Tagesbericht", "Eingepackt", "Das Geld des Tages"):
        assert words in body, words


def test_the_pdf(client, floor_user, event, actor, second):  # noqa: F811
    if not pdf_available():
        if os.environ.get("CI"):
            pytest.fail("WeasyPrint cannot be loaded under CI (is Pango installed?)")
        pytest.skip("WeasyPrint or the system's Pango cannot be loaded on this machine")
    _flights_played(event, actor, second)
    _login(client, floor_user, "de")
    response = client.get(reverse("festival-report-pdf", args=[event.pk]))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    reader = PdfReader(io.BytesIO(response.content))
    assert len(reader.pages) == 1
    assert "tagesbericht" in reader.pages[0].extract_text().lower()
