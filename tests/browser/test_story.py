"""The night's story in real Chromium: the public tournament page (390 px, English and German)
and the console's overview (1366 px) pass axe with their charts and tables open, the charts
load as pictures, and the public page redraws them when a bust arrives on its live feed."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from tests.browser.conftest import login, screenshot
from tests.browser.test_accessibility import DESKTOP, PHONE, audit

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LOADED = """() => {
  const imgs = [...document.querySelectorAll('#story img')];
  return imgs.length === 3 && imgs.every((i) => i.complete && i.naturalWidth > 0);
}"""


@pytest.fixture
def axe():
    from axe_playwright_python.sync_playwright import Axe

    return Axe()


@pytest.fixture
def night(actor, make_tournament, register):
    from actions.bust import BustReport, entries_bust
    from clocks.services import clock_command
    from tournament.models import Tournament

    t = make_tournament(status="registering")
    entries = [register(t, f"Spieler Nummer{i}") for i in range(8)]
    Tournament.objects.filter(pk=t.pk).update(status="running")
    t.refresh_from_db()
    clock_command(
        tournament=t, kind="start", actor=actor, now=timezone.now() - timedelta(minutes=45)
    )
    entries_bust(tournament=t, busts=[BustReport(entry=entries[0])], actor=actor)
    return t, entries


def _open_tables(page) -> None:
    page.wait_for_function(LOADED)
    page.eval_on_selector_all("#story details", "ds => ds.forEach((d) => { d.open = true; })")


@pytest.mark.parametrize("locale", ["en-GB", "de-DE"])
def test_the_public_story_passes_axe(asgi_server, new_page, axe, night, locale):
    t, _entries = night
    page = new_page(PHONE, locale)
    page.goto(f"{asgi_server}/t/{t.pk}/")
    _open_tables(page)
    audit(axe, page, f"public story ({locale[:2]}, 390 px)")
    screenshot(page, f"story-public-{locale[:2]}-390")


def test_the_console_story_passes_axe(asgi_server, new_page, axe, night, floor_user):
    t, _entries = night
    page = new_page(DESKTOP)
    login(page, asgi_server, "flo", "pw-floor-123")
    page.goto(f"{asgi_server}/console/t/{t.pk}/")
    _open_tables(page)
    audit(axe, page, "console story (en, 1366 px)")
    screenshot(page, "story-console-en-1366")


def test_a_bust_redraws_the_public_story(asgi_server, new_page, night, actor):
    from actions.bust import BustReport, entries_bust

    t, entries = night
    page = new_page(PHONE)
    page.goto(f"{asgi_server}/t/{t.pk}/")
    page.wait_for_function(LOADED)
    page.wait_for_function("() => document.getElementById('bs-status').textContent.trim() !== ''")
    before = page.get_attribute("#story-field img", "src")
    entries_bust(tournament=t, busts=[BustReport(entry=entries[1])], actor=actor)
    # The feed's board arrives, then (at most two seconds later) the picture is asked for again.
    page.wait_for_function(
        "(before) => document.querySelector('#story-field img').src.includes('v=')"
        " && document.querySelector('#story-field img').getAttribute('src') !== before",
        arg=before,
        timeout=15000,
    )
    assert "dark=1" in page.get_attribute("#story-field img", "src")
