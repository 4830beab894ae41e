"""A season's standings on a big screen in real Chromium: it fills 1280×720, 1920×1080,
3840×2160 and a portrait 1080×1920 screen with nothing outside it and no scrolling, shows the
rows that do not fit in pages that rotate ("Page 1 of 3"), names the top three in words, passes
axe in English and German, and shows a corrected result after its next fetch (docs/leagues.md).
Screenshots in /tmp/shots/standings/."""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.utils import timezone

from actions.bust import BustReport, entries_bust
from actions.registration import entry_register
from leagues import services as svc
from tests.browser.conftest import login
from tests.browser.test_accessibility import audit
from tests.browser.test_endscreens import SIZES, assert_fits
from tournament.models import Entry
from tournament.services.registration import player_create, registration_close

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path("/tmp/shots/standings")
FIRST = ["Anna", "Bernd", "Carla", "Dieter", "Elif", "Frank", "Greta", "Hakan", "Ines", "Jonas",
         "Katrin", "Lars", "Mehmet", "Nina", "Olaf", "Petra", "Quirin", "Rosa"]  # fmt: skip
LAST = ["Schäfer", "Müller", "Weiß", "Groß", "Yılmaz", "Köhler"]


def _finished(make_tournament: Any, actor: Any, people: list[Any], name: str, days: int) -> Any:
    t = make_tournament(
        name=name, status="running", starts_at=timezone.now() - timedelta(days=days)
    )
    entries = [entry_register(tournament=t, player=p, actor=actor) for p in people]
    registration_close(tournament=t, actor=actor)
    for e in reversed(entries[1:]):
        entries_bust(tournament=t, busts=[BustReport(entry=e)], actor=actor)
    return t


def _season(make_tournament: Any, actor: Any) -> tuple[Any, list[Any]]:
    names = [f"{FIRST[i % 18]} {LAST[(i + i // 18) % 6]}" for i in range(34)]  # all different
    names[5] = "Maximiliane-Alexandra Hohenzollern-Sigmaringen"
    people = [player_create(name=n, actor=actor) for n in names]
    league = svc.league_create(name="Clubliga Friedrichshain", public=True)
    season = svc.season_create(league=league, name="Saison 2026")
    made = [
        _finished(make_tournament, actor, people[:24], "Freitag 1", 15),
        _finished(make_tournament, actor, list(reversed(people))[:20], "Freitag 2", 8),
        _finished(make_tournament, actor, people[8:20], "Freitag 3", 1),
    ]
    for t in made:
        svc.season_tournament_add(season=season, tournament=t)
    svc.season_update(
        season=season, name="Saison 2026", scoring="dpsb", best_n=2, participation="10"
    )
    return season, made


def test_the_standings_fill_every_screen_and_rotate(asgi_server, browser, actor, make_tournament):
    season, _made = _season(make_tournament, actor)
    url = f"{asgi_server}/seasons/{season.pk}/screen/"
    axe = Axe()
    SHOTS.mkdir(parents=True, exist_ok=True)
    for width, height in SIZES:
        for locale in ("en-GB", "de-DE"):
            ctx = browser.new_context(viewport={"width": width, "height": height}, locale=locale)
            page = ctx.new_page()
            page.set_default_timeout(15000)
            page.goto(url)
            page.wait_for_selector("#ls-rows tr")
            where = f"{width}×{height} {locale}"
            assert_fits(page, where)
            pages = int(page.get_attribute("#ls-board", "data-pages"))
            rows = page.locator("#ls-rows tr").count()
            # 34 players: more than one page, never a nearly empty last page
            assert pages > 1 and rows >= 8 and pages == -(-34 // rows), where
            assert 34 - (pages - 1) * rows >= rows / 3, where
            # "Page 1 of 4", "Seite 1 von 4" (the German words once locale/ has them).
            page_text = page.inner_text("#ls-page")
            assert re.fullmatch(rf"\S+ 1 \S+ {pages}", page_text), page_text
            if locale == "en-GB":
                assert page_text == f"Page 1 of {pages}"
            # The top three are named in words, not marked by colour alone.
            medals = page.locator("#ls-rows .ls-medal").all_inner_texts()
            assert len(medals) == 3, medals
            if locale == "en-GB":
                assert [m.casefold() for m in medals] == ["gold", "silver", "bronze"]
            audit(axe, page, f"league screen {where}")
            name = f"{width}x{height}-{locale[:2]}"
            if locale == "de-DE":
                page.screenshot(path=str(SHOTS / f"screen-{name}.png"))
            ctx.close()


def test_pages_rotate_and_a_correction_shows(asgi_server, browser, actor, make_tournament):
    season, made = _season(make_tournament, actor)
    ctx = browser.new_context(viewport={"width": 1280, "height": 720}, locale="en-GB")
    page = ctx.new_page()
    page.set_default_timeout(15000)
    page.goto(f"{asgi_server}/seasons/{season.pk}/screen/?seconds=5")
    page.wait_for_selector("#ls-rows tr")
    assert page.locator("#ls-rows tr").first.locator(".ls-rank").inner_text() == "1."
    page.wait_for_function(
        "() => document.getElementById('ls-board').dataset.page === '2'", timeout=9000
    )
    assert page.inner_text("#ls-page").startswith("Page 2 of ")
    assert page.locator("#ls-rows tr").first.locator(".ls-rank").inner_text() != "1."
    assert page.locator("#ls-rows .ls-medal").count() == 0
    assert_fits(page, "page 2 at 1280×720")
    page.screenshot(path=str(SHOTS / "screen-1280x720-page2-en.png"))
    top = ctx.new_page()
    top.goto(f"{asgi_server}/seasons/{season.pk}/screen/?top=5")
    top.wait_for_selector("#ls-rows tr")
    assert top.locator("#ls-rows tr").count() == 5 and top.inner_text("#ls-page") == ""
    assert top.get_attribute("#ls-board", "data-pages") == "1"

    # A corrected result (the first tournament's winner and its last swapped): the next fetch
    # (here: the screen becomes visible again) shows the new standings.
    version = page.get_attribute("#ls-board", "data-version")
    t = made[0]
    winner = Entry.objects.get(tournament=t, place=1)
    last = Entry.objects.get(tournament=t, place=24)
    Entry.objects.filter(pk=winner.pk).update(place=24)
    Entry.objects.filter(pk=last.pk).update(place=1)
    page.evaluate("() => document.dispatchEvent(new Event('visibilitychange'))")
    page.wait_for_function(
        f"() => document.getElementById('ls-board').dataset.version !== '{version}'"
    )
    shown = page.evaluate(
        "() => fetch(location.pathname.replace('screen/', 'standings.json')).then(r => r.json())"
    )
    new_winner = next(
        r for r in shown["rows"] if r["name"].startswith(last.player.display_name[:6])
    )
    # 24 entries (15-24 band): 1st takes 42 % of 2,400 points, plus 10 for playing.
    assert float(new_winner["points"]) >= 1018
    ctx.close()


def test_the_console_links_the_screen(asgi_server, browser, actor, director, make_tournament):
    season, _made = _season(make_tournament, actor)
    ctx = browser.new_context(viewport={"width": 1366, "height": 900}, locale="en-GB")
    page = ctx.new_page()
    page.set_default_timeout(15000)
    login(page, asgi_server, "dir", "pw-director-123")
    page.goto(f"{asgi_server}/console/seasons/{season.pk}/")
    with page.expect_popup() as popup:
        page.click("text=Open on a big screen")
    screen = popup.value
    screen.wait_for_selector("#ls-rows tr")
    assert "Clubliga Friedrichshain" in screen.inner_text("#ls-title")
    ctx.close()
