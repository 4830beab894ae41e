"""A league in real Chromium: a director sets up a league with the DPSB preset, adds two finished
tournaments, and reads the standings on the console and on the public page (desktop and a
390 px phone). Screenshots in test-artifacts/leagues-*.png (docs/leagues.md)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.utils import timezone

from actions.bust import BustReport, entries_bust
from actions.registration import entry_register
from leagues.models import Season
from tests.browser.conftest import login, screenshot
from tests.browser.test_accessibility import audit
from tournament.services.registration import player_create, registration_close

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = [
    "Anna Albers", "Bernd Brandt", "Carla Conrad", "Dieter Dressler", "Elif Engel",
    "Frank Fuchs", "Greta Hollmann", "Hakan Yilmaz", "Ines Jung", "Jonas Krause",
    "Katrin Lorenz", "Lars Möller",
]  # fmt: skip


def _finished(make_tournament: Any, actor: Any, people: list[Any], name: str, days: int) -> Any:
    t = make_tournament(
        name=name, status="running", starts_at=timezone.now() - timedelta(days=days)
    )
    entries = [entry_register(tournament=t, player=p, actor=actor) for p in people]
    registration_close(tournament=t, actor=actor)
    for e in reversed(entries[1:]):
        entries_bust(tournament=t, busts=[BustReport(entry=e)], actor=actor)
    return t


def test_a_dpsb_league_on_the_console_and_the_public_page(
    asgi_server, browser, director, actor, make_tournament
):
    director.set_password("pw-director-123")
    director.save()
    people = [player_create(name=n, actor=actor) for n in NAMES]
    first = _finished(make_tournament, actor, people[:10], "Friday Deepstack 1", 8)
    second = _finished(make_tournament, actor, list(reversed(people)), "Friday Deepstack 2", 1)

    ctx = browser.new_context(viewport={"width": 1366, "height": 900}, locale="en-GB")
    page = ctx.new_page()
    page.set_default_timeout(15000)
    login(page, asgi_server, "dir", "pw-director-123")
    page.click("nav >> text=Leagues")
    page.fill("#id_name", "Club League")
    page.check("#id_public")
    page.click("text=Create league")
    page.fill("#id_name", "Season 2026")
    page.click("text=Create season")
    season = Season.objects.get(name="Season 2026")
    assert season.scoring == "dpsb"  # the preset is the default
    # A bad formula is refused with its reason, and nothing changes.
    page.check("input[name=scoring][value=formula]")
    page.fill("#id_formula", "100 / (n - p)")
    page.click("text=Save scoring")
    assert "divides by zero" in page.inner_text("#scoring")
    season.refresh_from_db()
    assert season.scoring == "dpsb"
    page.check("input[name=scoring][value=dpsb]")
    page.fill("#id_formula", "")
    page.fill("#id_best_n", "1")
    page.click("text=Save scoring")
    for t in (first, second):
        page.select_option("#add-tournament", str(t.pk))
        page.click("#add-tournament-button")
    table = page.inner_text("#standings")
    # 10 entries: 500 / 300 / 200; 12 entries (10-14 band): 600 / 360 / 240.
    assert "Lars M." in table and "600" in table and "500" in table
    rows = page.locator("#standings tbody tr")
    assert rows.count() == 12
    assert rows.nth(0).inner_text().startswith("1.")
    # Best 1: Anna's 0 in the second tournament is shown struck through.
    assert page.locator("#standings del").count() > 0
    screenshot(page, "leagues-season")
    axe = Axe()
    audit(axe, page, "league season")

    public = f"{asgi_server}/seasons/{season.pk}/"
    anonymous = browser.new_context(viewport={"width": 1366, "height": 900}, locale="de-DE")
    desk = anonymous.new_page()
    desk.goto(public)
    text = desk.inner_text("#standings")
    assert "Lars M." in text and "Lars Möller" not in text
    screenshot(desk, "leagues-public")
    audit(axe, desk, "league public standings")
    phone = browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True, locale="de-DE"
    ).new_page()
    phone.goto(public)
    assert phone.evaluate("() => document.documentElement.scrollWidth") <= 390
    screenshot(phone, "leagues-public-phone")
    audit(axe, phone, "league public standings phone")
    page.goto(f"{asgi_server}/console/leagues/")
    audit(axe, page, "leagues")
    page.goto(f"{asgi_server}/console/leagues/{season.league_id}/")
    audit(axe, page, "league")
    ctx.close()
    anonymous.close()
