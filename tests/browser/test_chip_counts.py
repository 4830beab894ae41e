"""Chip counts in real Chromium: the console's counts page entered with the keyboard, the public
counts on a phone, and the big screen filling 1280×720, 1920×1080, 3840×2160 and a portrait
1080×1920 screen with nothing outside it, its pages rotating. Screenshots in /tmp/shots/counts/."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe

from actions.registration import entry_register
from counts.models import ChipCount
from counts.services import table_counts_record
from tables import services as seating
from tests.browser.conftest import login
from tests.browser.test_accessibility import audit
from tests.browser.test_endscreens import SIZES, assert_fits
from tournament.models import Entry, Status, Tournament
from tournament.services.registration import player_create

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path("/tmp/shots/counts")
FIRST = ["Anna", "Bernd", "Carla", "Dieter", "Elif", "Frank", "Greta", "Hakan", "Ines", "Jonas",
         "Katrin", "Lars", "Mehmet", "Nina", "Olaf", "Petra", "Quirin", "Rosa"]  # fmt: skip
LAST = ["Schäfer", "Müller", "Weiß", "Groß", "Yılmaz", "Köhler", "Brandt"]


def _night(make_tournament: Any, actor: Any, players: int = 60) -> Any:
    t = make_tournament(name="Festival Main Event Day 1A", status="registering")
    for i in range(players):
        name = f"{FIRST[i % 18]} {LAST[(i + i // 18) % 7]}"
        if i == 7:
            name = "Maximiliane-Alexandra Hohenzollern-Sigmaringen"
        entry_register(tournament=t, player=player_create(name=name, actor=actor), actor=actor)
    seating.tables_create(tournament=t, count=-(-players // 9), actor=actor)
    seating.seats_draw(tournament=t, actor=actor)
    Tournament.objects.filter(pk=t.pk).update(status=Status.RUNNING)
    t.refresh_from_db()
    return t


def _count_tables(t: Any, actor: Any, tables: list[int]) -> None:
    for n in tables:
        seated = Entry.objects.filter(tournament=t, seat__table__number=n).order_by("pk")
        table_counts_record(
            tournament=t,
            table_number=n,
            counts={e.pk: 8_000 + (e.pk * 7_919) % 40_000 for e in seated},
            actor=actor,
        )


def test_the_floor_enters_a_table_with_the_keyboard(
    asgi_server, browser, actor, director, make_tournament
):
    t = _night(make_tournament, actor)
    _count_tables(t, actor, [2, 3])
    SHOTS.mkdir(parents=True, exist_ok=True)
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-GB")
    page = ctx.new_page()
    page.set_default_timeout(15000)
    login(page, asgi_server, "dir", "pw-director-123")
    page.goto(f"{asgi_server}/console/t/{t.pk}/counts/?table=1")
    fields = page.locator(".counts-table input")
    fields.first.focus()
    for i in range(fields.count()):
        page.keyboard.type(str(20_000 + 500 * i))
        page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"\?table=1$"))
    assert "Table 1: 9 counts recorded." in page.inner_text(".messages")
    assert ChipCount.objects.filter(tournament=t, table_number=1).count() == 9
    page.screenshot(path=str(SHOTS / "console-1280.png"), full_page=True)
    audit(Axe(), page, "counts console 1280")
    phone = browser.new_context(viewport={"width": 390, "height": 844}, locale="de-DE")
    p = phone.new_page()
    login(p, asgi_server, "dir", "pw-director-123")
    p.goto(f"{asgi_server}/console/t/{t.pk}/counts/?table=2")
    p.screenshot(path=str(SHOTS / "console-390-de.png"), full_page=True)
    assert p.evaluate("() => document.scrollingElement.scrollWidth") <= 390
    ctx.close()
    phone.close()


def test_public_counts_on_a_phone(asgi_server, browser, actor, make_tournament):
    t = _night(make_tournament, actor)
    _count_tables(t, actor, [1, 2, 3, 4])
    SHOTS.mkdir(parents=True, exist_ok=True)
    for locale in ("en-GB", "de-DE"):
        ctx = browser.new_context(
            viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True, locale=locale
        )
        page = ctx.new_page()
        page.goto(f"{asgi_server}/t/{t.pk}/counts/")
        assert page.evaluate("() => document.scrollingElement.scrollWidth") <= 390
        assert "Hohenzollern-Sigmaringen" not in page.content()  # display names only
        page.screenshot(path=str(SHOTS / f"public-390-{locale[:2]}.png"), full_page=True)
        ctx.close()


def test_the_screen_fills_every_size_and_rotates(asgi_server, browser, actor, make_tournament):
    t = _night(make_tournament, actor)
    _count_tables(t, actor, [1, 2, 3, 4, 5, 6])
    SHOTS.mkdir(parents=True, exist_ok=True)
    counted = ChipCount.objects.filter(tournament=t).count()
    for width, height in SIZES:
        ctx = browser.new_context(viewport={"width": width, "height": height}, locale="de-DE")
        page = ctx.new_page()
        page.set_default_timeout(15000)
        page.goto(f"{asgi_server}/t/{t.pk}/counts/screen/?seconds=5")
        page.wait_for_selector("#cs-rows tr")
        where = f"{width}×{height}"
        assert_fits(page, where)
        rows = page.locator("#cs-rows tr").count()
        pages = int(page.get_attribute("#cs-board", "data-pages"))
        assert rows >= 8 and pages == -(-counted // rows), (where, rows, pages)
        # Figures are never cut off (names may end in "…", numbers may not).
        cut = page.evaluate(
            "() => [...document.querySelectorAll('#cs-rows td:not(.ls-player)')]"
            ".filter((td) => td.scrollWidth > td.clientWidth).map((td) => td.textContent)"
        )
        assert not cut, (where, cut)
        page.screenshot(path=str(SHOTS / f"screen-{width}x{height}.png"))
        if (width, height) == (1280, 720):
            page.wait_for_function(
                "() => document.getElementById('cs-board').dataset.page === '2'", timeout=9000
            )
            assert_fits(page, "page 2")
            page.screenshot(path=str(SHOTS / "screen-1280x720-page2.png"))
        ctx.close()
