"""The night's report (actions/report.py, docs/results.md): the figures of a finished night with
re-entries, add-ons, a progressive knockout and a deal, each amount the same as on the results
page and the cage page; the page, the PDF (one A4 page) and the German words."""

from __future__ import annotations

import io
import os
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone
from pypdf import PdfReader

from actions.bust import BustReport, entries_bust
from actions.registration import entry_register
from actions.report import night_report, report_cage
from actions.tournaments import tournament_status_set
from clocks.services import clock_command
from core import pdf
from core.pdf import pdf_available
from tournament.cage_views import _methods_table
from tournament.ledger_selectors import tournament_cage
from tournament.models import Entry, Status, Tournament
from tournament.results import tournament_results
from tournament.services.deals import (
    DealInput,
    deal_record,
    owed,
    players_left,
    prize_paid,
)
from tournament.services.registration import entry_purchase, player_create, registration_close

pytestmark = pytest.mark.django_db

PLAYERS = 24


def _bust(t, entry, actor, by=None):
    hunter = (by.number,) if by is not None else ()
    entries_bust(tournament=t, busts=[BustReport(entry=entry, eliminated_by=hunter)], actor=actor)


@pytest.fixture
def night(make_tournament, actor):
    """A club night played to the end: 24 players, two re-entries, three add-ons, a progressive
    knockout, a chip chop among the last three, every prize paid but one."""
    t = make_tournament(
        name="Dienstagsturnier",
        status="registering",
        starts_at=timezone.now() - timedelta(hours=4),
        bounty_kind="progressive",
        bounty=2000,
        max_entries_per_player=2,
        reentry_until_level=6,
        late_registration_until_level=6,
        addons_max=1,
        addon_price=5000,
        addon_chips=10000,
        addon_until_level=6,
    )
    people = [player_create(name=f"Spielerin{i} Nummer", actor=actor) for i in range(PLAYERS)]
    entries = [
        entry_register(tournament=t, player=p, actor=actor, method="card" if i % 3 else "cash")
        for i, p in enumerate(people)
    ]
    tournament_status_set(tournament=t, status=Status.RUNNING, actor=actor)
    clock_command(tournament=t, kind="start", actor=actor)
    t.refresh_from_db()
    for e in entries[:3]:
        entry_purchase(entry=e, kind="addon", actor=actor)
    # Two players bust early and come back.
    _bust(t, entries[0], actor, by=entries[5])
    _bust(t, entries[1], actor, by=entries[5])
    entries += [entry_register(tournament=t, player=people[i], actor=actor) for i in (0, 1)]
    registration_close(tournament=t, actor=actor)
    t.refresh_from_db()
    alive = [e for e in entries if Entry.objects.get(pk=e.pk).status == "active"]
    hunter = alive[-1]
    for e in alive[:-3]:
        _bust(t, e, actor, by=hunter if e is not hunter else alive[-2])
    t.refresh_from_db()
    left = players_left(t)
    deal_record(
        tournament=t,
        data=DealInput(stacks={e.pk: s for e, s in zip(left, [50, 30, 20], strict=True)}),
        method="chip_chop",
        consents=[e.pk for e in left],
        actor=actor,
    )
    _bust(t, left[2], actor, by=left[0])
    _bust(t, left[1], actor, by=left[0])
    t.refresh_from_db()
    assert t.status == Status.FINISHED
    paid = Entry.objects.filter(tournament=t, prize__gt=0).order_by("place")
    for e in list(paid)[:-1]:  # the last place paid still waits for its money
        prize_paid(tournament=t, entry_id=e.pk, actor=actor)
    t.refresh_from_db()
    return t


def test_the_figures_of_a_finished_night(night):
    report = night_report(night)
    f = report.figures
    assert report.final
    assert (f.entries, f.buyins, f.reentries, f.addons, f.players) == (26, 24, 2, 3, 24)
    assert f.started_at is not None and f.ended_at is not None and f.ended_at >= f.started_at
    assert f.levels_played >= 1 and f.last_level is not None
    # The places paid, a deal among the last three, every place with a prize listed.
    assert [x.place for x in report.finishes][:3] == [1, 2, 3]
    assert report.deal is not None and report.deal.players == 3
    assert report.deal.method == "Chip chop"
    assert sum(s.amount for s in report.deal.shares) + report.deal.play_for == report.deal.total
    assert report.more_finishes == 26 - len(report.finishes)
    # Bounties: each head carried 20.00; the eliminators won what they took.
    b = report.bounties
    assert b is not None and b.pool == 2000 * 26
    assert b.won == sum(e.bounties_won for e in Entry.objects.filter(tournament=night))
    assert b.hunters and b.hunters[0].hits >= b.hunters[-1].hits


def test_the_amounts_agree_with_the_results_page_to_the_cent(night):
    report = night_report(night)
    results = tournament_results(night)
    assert report.figures.prize_pool == results.prize_pool
    by_place = {(f.place, f.number): f for f in results.finishes}
    for x in report.finishes:
        f = by_place[(x.place, x.number)]
        assert (x.prize, x.deal_share, x.bounties) == (f.prize, f.deal_share, f.bounties)
    assert sum(x.prize for x in report.finishes) == sum(f.prize for f in results.finishes)
    assert sum(x.prize for x in report.finishes) == results.prize_pool  # nothing left over
    assert report.payouts_total == results.prize_pool


def test_the_amounts_agree_with_the_cage_to_the_cent(night):
    report = night_report(night)
    cage = tournament_cage(night)
    assert report.cage.reckoning == cage.reckoning
    assert report.cage.balanced
    rows = _methods_table(cage)
    assert [(m.taken, m.paid, m.held) for m in report.methods] == [
        (r["taken"] + r["corrected"], r["paid"], r["held"] if r["real"] else None) for r in rows
    ]
    assert sum(m.held or 0 for m in report.methods) == cage.report.held_total
    # Every prize but the last paid: that one is still owed, with the bounty still on the
    # winner's head, to the cent.
    still_open = [(e.number, e.open) for e in owed(night) if e.open]
    assert cage.still_owed == report.cage.still_owed == sum(o for _n, o in still_open)
    assert len(still_open) >= 1 and report.bounties is not None
    assert report.bounties.on_heads == report.bounties.pool - report.bounties.won
    assert report.cage.report.paid_out == sum(x.paid for x in night_report(night).finishes)


def test_a_running_night_is_provisional_and_a_flight_counts_as_the_cage_does(
    make_tournament, register
):
    t = make_tournament(status="registering")
    for _ in range(3):
        register(t)
    report = night_report(t)
    assert not report.final and report.finishes == [] and report.deal is None
    assert report.bounties is None and report.figures.ended_at is None
    assert report_cage(t).reckoning == tournament_cage(t).reckoning


def _login(client, floor_user, language="en"):
    client.force_login(floor_user)
    client.cookies["django_language"] = language


def test_the_page(client, floor_user, night):
    _login(client, floor_user)
    response = client.get(reverse("report", args=[night.pk]))
    assert response.status_code == 200
    body = response.content.decode()
    assert "Report of the night" in body and "Dienstagsturnier" in body
    assert 'id="rp-deal"' in body and 'id="rp-bounties"' in body and 'id="rp-cage"' in body
    assert reverse("report-pdf", args=[night.pk]) in body
    # The night's three charts, drawn into the page (the CSP allows images from data:).
    for kind in ("field", "entries", "prizes"):
        assert f'id="rp-chart-{kind}"><img src="data:image/svg+xml;base64,' in body, kind


def test_the_page_in_german(client, floor_user, night):
    _login(client, floor_user, "de")
    body = client.get(reverse("report", args=[night.pk])).content.decode()
    for words in (
        "Bericht des Abends",
        "Ergebnisse",
        "Kasse",
        "Gespielte Level",
        "Auszahlungstabelle",
    ):
        assert words in body, words


def test_anyone_not_logged_in_is_sent_to_the_login(client, night):
    for name in ("report", "report-pdf"):
        response = client.get(reverse(name, args=[night.pk]))
        assert response.status_code == 302 and response["Location"].startswith("/login/")


def _needs_pdf():
    if not pdf_available():
        if os.environ.get("CI"):
            pytest.fail("WeasyPrint cannot be loaded under CI (is Pango installed?)")
        pytest.skip("WeasyPrint or the system's Pango cannot be loaded on this machine")


def _pages(data: bytes) -> int:
    return len(PdfReader(io.BytesIO(data)).pages)


def test_the_pdf_is_one_a4_page(client, floor_user, night):
    _needs_pdf()
    _login(client, floor_user)
    response = client.get(reverse("report-pdf", args=[night.pk]))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    data = response.content
    assert data.startswith(b"%PDF")
    assert _pages(data) == 1


def test_the_pdf_in_german(client, floor_user, night):
    _needs_pdf()
    _login(client, floor_user, "de")
    data = client.get(reverse("report-pdf", args=[night.pk])).content
    text = PdfReader(io.BytesIO(data)).pages[0].extract_text().lower()
    assert "bericht des abends" in text and "auszahlungstabelle" in text


def test_without_weasyprint_a_page_that_says_so(client, floor_user, night, monkeypatch):
    def missing():
        raise pdf.PdfUnavailable("no Pango")

    monkeypatch.setattr(pdf, "_weasyprint", missing)
    _login(client, floor_user)
    response = client.get(reverse("report-pdf", args=[night.pk]))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/html")
    body = response.content.decode()
    assert 'id="pdf-unavailable"' in body and reverse("report", args=[night.pk]) in body


def test_a_night_with_nobody_yet(client, floor_user, make_tournament):
    """Nothing to draw, nobody out, no money: the page and the PDF say so, no error."""
    t = make_tournament()
    _login(client, floor_user)
    body = client.get(reverse("report", args=[t.pk])).content.decode()
    assert "No player is out yet." in body and 'id="rp-chart-field"' in body
    if pdf_available():
        response = client.get(reverse("report-pdf", args=[t.pk]))
        assert response.status_code == 200 and _pages(response.content) == 1


def test_a_tournament_broken_or_missing(client, floor_user):
    _login(client, floor_user)
    assert client.get(reverse("report", args=[999999])).status_code == 404
    assert Tournament.objects.count() == 0


def test_while_the_night_runs_the_best_places_so_far_are_shown(make_tournament, register, actor):
    t = make_tournament(status="running", places_paid=2)
    entries = [register(t, f"Spieler{i} N.") for i in range(8)]
    registration_close(tournament=t, actor=actor)
    for out in entries[:3]:  # places 8, 7, 6: none paid, none in the first three
        entries_bust(tournament=t, busts=[BustReport(entry=out)], actor=actor)
    t.refresh_from_db()
    report = night_report(t)
    assert not report.final
    assert [f.place for f in report.finishes] == [6, 7, 8]
    assert report.more_finishes == 0
