"""One record per person in real Chromium (docs/players.md): a director finds a duplicate,
compares the two records, merges them, reads the person's history with league points, edits
the record, switches public profiles on, and anyone opens the profile from the public
standings. axe-core on every page; screenshots at 1280 and 390 px in test-artifacts/people-*.png
(and in $FLOOR_SHOTS when set)."""

from __future__ import annotations

import os
import shutil
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.utils import timezone

from actions.bust import BustReport, entries_bust
from actions.registration import entry_register
from leagues import services as league_svc
from tests.browser.conftest import ARTIFACTS, login, screenshot
from tests.browser.test_accessibility import audit
from tournament.models import Player
from tournament.services import people
from tournament.services.registration import player_create, registration_close

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = [
    "Anna Albers", "Bernd Brandt", "Carla Conrad", "Dieter Dressler", "Elif Engel",
    "Frank Fuchs", "Greta Hollmann", "Hakan Yilmaz", "Ines Jung", "Jonas Krause",
    "Katrin Lorenz", "Lars Möller",
]  # fmt: skip
WIDE = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}


def _shot(page: Any, name: str) -> None:
    screenshot(page, f"people-{name}")
    target = os.environ.get("FLOOR_SHOTS")
    if target:
        Path(target).mkdir(parents=True, exist_ok=True)
        shutil.copy(ARTIFACTS / f"people-{name}.png", Path(target) / f"{name}.png")


def _finished(make_tournament: Any, actor: Any, field: list[Any], name: str, days: int) -> Any:
    t = make_tournament(
        name=name, status="running", starts_at=timezone.now() - timedelta(days=days)
    )
    entries = [entry_register(tournament=t, player=p, actor=actor) for p in field]
    registration_close(tournament=t, actor=actor)
    for e in reversed(entries[1:]):
        entries_bust(tournament=t, busts=[BustReport(entry=e)], actor=actor)
    return t


def _both_widths(browser: Any, base: str, path: str, name: str, axe: Any, *, staff: bool) -> None:
    for label, viewport in (("1280", WIDE), ("390", PHONE)):
        ctx = browser.new_context(viewport=viewport, locale="en-GB" if label == "1280" else "de-DE")
        page = ctx.new_page()
        page.set_default_timeout(15000)
        if staff:
            login(page, base, "dir", "pw-director-123")
        page.goto(base + path)
        audit(axe, page, f"{name} ({label} px)")
        _shot(page, f"{name}-{label}")
        ctx.close()


def test_find_merge_and_read_a_person(asgi_server, browser, director, actor, make_tournament):
    director.set_password("pw-director-123")
    director.save()
    field = [player_create(name=n, actor=actor) for n in NAMES]
    lars = field[-1]
    people.player_update(
        player=lars, changes={"membership_number": "PC-0117", "birth_year": 1984}, actor=actor
    )
    twin = player_create(name="Lars Moeller", actor=actor, email="lars@example.org")
    first = _finished(make_tournament, actor, [lars, *field[:9]], "Friday Deepstack 1", 8)
    second = _finished(make_tournament, actor, [field[0], twin, *field[1:9]], "Friday 2", 1)
    league = league_svc.league_create(name="Club League", public=True)
    season = league_svc.season_create(league=league, name="Season 2026")
    for t in (first, second):
        league_svc.season_tournament_add(season=season, tournament=t)
    axe = Axe()
    for path, name in (
        ("/console/players/duplicates/", "duplicates"),
        (f"/console/players/{lars.pk}/merge/?other={twin.pk}", "merge"),
    ):
        _both_widths(browser, asgi_server, path, name, axe, staff=True)

    ctx = browser.new_context(viewport=WIDE, locale="en-GB")
    page = ctx.new_page()
    page.set_default_timeout(15000)
    page.on("dialog", lambda dialog: dialog.accept())
    login(page, asgi_server, "dir", "pw-director-123")
    page.click("nav >> text=Players")
    page.click("#duplicates-link")
    page.wait_for_selector(".duplicate-group")
    assert "same name, a year of birth missing" in page.inner_text(".duplicate-group h2")
    audit(axe, page, "duplicates")
    page.click(".duplicate-group >> text=Compare…")
    page.wait_for_selector("#merge-compare")
    audit(axe, page, "merge compare")
    # Keyboard only: the radio of the record to keep, then the merge button.
    page.focus(f"input[name=keep][value='{lars.pk}']")
    page.keyboard.press("Space")
    page.focus("#merge-submit")
    page.keyboard.press("Enter")
    page.wait_for_url(f"{asgi_server}/console/players/{lars.pk}/")
    assert not Player.objects.filter(pk=twin.pk).exists()
    assert "1 entry moved" in page.inner_text(".messages")
    audit(axe, page, "player after merge")
    _shot(page, "player-merged-1280")
    page.click("nav.tabs >> text=History")
    page.wait_for_selector("#history")
    text = page.inner_text("#history")
    assert "Friday Deepstack 1" in text and "Friday 2" in text
    assert "800" in page.inner_text("#history-seasons")  # 500 + 300 points, one row
    audit(axe, page, "history")
    _shot(page, "history-1280")
    page.click("nav.tabs >> text=Edit")
    page.fill("#id_membership_number", "PC-0118")
    page.click("#person-save")
    page.wait_for_url(f"{asgi_server}/console/players/{lars.pk}/")
    assert page.inner_text("#membership-number") == "PC-0118"
    page.click("nav >> text=Club")
    page.fill("#id_name", "Poker Club Kiel")
    page.check("#id_public_profiles")
    audit(axe, page, "club")
    page.click("#club-save")
    page.wait_for_selector(".messages")
    ctx.close()

    for path, name, staff in (
        (f"/console/players/{lars.pk}/edit/", "edit", True),
        (f"/console/players/{lars.pk}/history/", "history", True),
        (f"/console/players/{lars.pk}/", "player", True),
        ("/console/club/", "club", True),
        (f"/players/{lars.pk}/", "profile", False),
        (f"/seasons/{season.pk}/", "standings", False),
    ):
        _both_widths(browser, asgi_server, path, name, axe, staff=staff)

    phone = browser.new_context(viewport=PHONE, locale="de-DE").new_page()
    phone.goto(f"{asgi_server}/seasons/{season.pk}/")
    phone.click(f"a[href='/players/{lars.pk}/']")
    phone.wait_for_selector("#profile-results")
    body = phone.inner_text("main")
    assert lars.display_name in body and "Friday 2" in body
    for private in ("Lars Möller", "PC-0118", "1984", "lars@example.org"):
        assert private not in body
