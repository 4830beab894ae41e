"""The console clock, the big screen and the dealer tablet show the same level number, during
and after a break (breaks are not levels), in real Chromium.

The test structure (conftest `template`): levels 1 and 2 (20'), a 10' break, levels 3 to 6."""

from __future__ import annotations

import os
import re
from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone

from clocks.services import clock_command
from tables import services as seating
from tests.browser.conftest import login, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path(os.environ.get("FLOOR_SHOTS_DIR", "")) if os.environ.get("FLOOR_SHOTS_DIR") else None


def _shot(page, name: str) -> None:
    screenshot(page, name)
    if SHOTS is not None:
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def _level_on_screen(page) -> str:
    page.wait_for_function("() => !/…|^$/.test(document.getElementById('bs-level').textContent)")
    return (page.text_content("#bs-level") or "").strip()


def _level_on_tablet(page) -> str:
    return page.inner_text(".d-level .lv").split("·")[0].strip()


def test_console_big_screen_and_tablet_agree_during_and_after_a_break(
    live_server, page, browser, actor, floor_user, make_tournament, register
):
    t = make_tournament(status="registering")
    for _ in range(4):
        register(t)
    seating.seats_draw(tournament=t, actor=actor)
    table = t.tables.first()
    # Started 45 minutes ago: levels 1 and 2 are over, the break after level 2 runs.
    clock_command(
        tournament=t, kind="start", actor=actor, now=timezone.now() - timedelta(minutes=45)
    )

    console = page
    login(console, live_server.url, "flo", "pw-floor-123")
    screen = browser.new_context(
        viewport={"width": 1920, "height": 1080}, locale="en-GB"
    ).new_page()
    tablet = browser.new_context(viewport={"width": 1024, "height": 768}, locale="en-GB").new_page()

    def look() -> tuple[str, str, str]:
        console.goto(f"{live_server.url}/console/t/{t.pk}/clock/")
        screen.goto(f"{live_server.url}/t/{t.pk}/clock/")
        tablet.goto(f"{live_server.url}/d/{table.dealer_token}/")
        return _level_on_screen(console), _level_on_screen(screen), _level_on_tablet(tablet)

    during = look()
    assert during == ("Break", "Break", "Break")
    current = console.inner_text("#bigscreen tr.current")
    assert current.split("\t")[0].strip() == ""  # the break row has no level number
    assert "Break" in current
    _shot(console, "levels-console-break")
    _shot(screen, "levels-bigscreen-break")
    _shot(tablet, "levels-dealer-break")

    # The floor moves on: the next row is level 3 (not "level 4", the fourth row).
    clock_command(tournament=t, kind="jump", level=3, actor=actor)
    after = look()
    assert after == ("Level 3", "Level 3", "Level 3")
    current = console.inner_text("#bigscreen tr.current")
    assert re.match(r"\s*3\s", current)
    assert "300 / 600" in screen.inner_text("#bs-blinds")
    _shot(console, "levels-console-after-break")
    _shot(screen, "levels-bigscreen-after-break")
    _shot(tablet, "levels-dealer-after-break")
    screen.context.close()
    tablet.context.close()
