"""The chip leaders' chart in real Chromium: the playback on the public counts page with the
keyboard (the slider and the play button), the picture following it, and the page with its
chart passing axe-core. Screenshots in /tmp/shots/graphs/."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.utils import timezone

from clocks.models import Clock, ClockEvent
from counts.models import ChipCount
from tests.browser.test_accessibility import audit
from tournament.models import Entry, EntryStatus, Status, Tournament
from tournament.services.registration import player_create

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path("/tmp/shots/graphs")


def _counted_night(make_tournament: Any, actor: Any) -> Any:
    """Eight players counted in levels 1 to 3 (the clock started 70 minutes ago)."""
    t = make_tournament(name="Graph Night", status="registering")
    start = timezone.now() - timedelta(minutes=70)
    Tournament.objects.filter(pk=t.pk).update(status=Status.RUNNING)
    clock = Clock.objects.create(tournament=t)
    ClockEvent.objects.create(clock=clock, kind="start", at=start)
    for i in range(1, 9):
        player = player_create(name=f"Player Secret{i}", display_name=f"Kim {i}.", actor=actor)
        e = Entry.objects.create(tournament=t, player=player, number=i, status=EntryStatus.ACTIVE)
        for level, minute in enumerate((10, 30, 55), start=1):
            ChipCount.objects.create(
                tournament=t,
                entry=e,
                count=20_000 + ((i * 7_919 * level) % 30_000),
                recorded_at=start + timedelta(minutes=minute),
            )
    return t


def test_the_playback_with_the_keyboard_and_the_page_passes_axe(
    asgi_server, browser, actor, make_tournament
):
    t = _counted_night(make_tournament, actor)
    SHOTS.mkdir(parents=True, exist_ok=True)
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-GB")
    page = ctx.new_page()
    page.set_default_timeout(15000)
    page.goto(f"{asgi_server}/t/{t.pk}/counts/")
    img = page.locator("#cl-leaders-chart img")
    img.scroll_into_view_if_needed()
    page.wait_for_function("() => document.querySelector('#cl-leaders-chart img').naturalWidth > 0")
    slider = page.get_by_label("Show up to")
    assert slider.get_attribute("max") == "3" and slider.input_value() == "3"
    # The keyboard moves the slider: the picture is drawn up to that level.
    slider.focus()
    page.keyboard.press("Home")
    page.wait_for_function(
        "() => document.querySelector('#cl-leaders-chart img').src.includes('upto=1')"
    )
    assert slider.get_attribute("aria-valuetext") == "Level 1"
    assert page.locator("#cl-leaders-chart-level").inner_text() == "Level 1"
    # Play: the levels one after another, to the last (the latest: no `upto` any more).
    play = page.get_by_role("button", name="Play")
    play.focus()
    page.keyboard.press("Enter")
    assert page.get_by_role("button", name="Pause").is_visible()
    page.wait_for_function(
        "() => document.querySelector('.playback').dataset.playing === 'false'", timeout=10000
    )
    assert slider.input_value() == "3"
    page.wait_for_function(
        "() => !document.querySelector('#cl-leaders-chart img').src.includes('upto=')"
    )
    # The picture itself: public names, a title for the level.
    svg = page.request.get(f"{asgi_server}/t/{t.pk}/counts/leaders.svg?upto=2").text()
    assert "Chip leaders through level 2" in svg and "Secret" not in svg
    page.locator("#cl-graph").screenshot(path=str(SHOTS / "public-playback-390.png"))
    audit(Axe(), page, "counts page with the leaders' chart")
    ctx.close()
