"""The big screen switches level by itself when the level's time is up, in real Chromium."""

from __future__ import annotations

import pytest

from clocks.services import clock_command
from tests.browser.conftest import screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_level_change_on_the_big_screen(live_server, page, actor, make_tournament):
    t = make_tournament(status="registering")
    clock_command(tournament=t, kind="start", actor=actor)
    clock_command(tournament=t, kind="set_remaining", seconds=3, actor=actor)
    page.goto(f"{live_server.url}/t/{t.pk}/clock/")
    page.wait_for_function("() => document.getElementById('bs-time').dataset.levelIndex === '0'")
    assert "100 / 200" in page.inner_text("#bs-blinds")
    page.wait_for_function(
        "() => document.getElementById('bs-time').dataset.levelIndex === '1'", timeout=8000
    )
    assert "200 / 400" in page.inner_text("#bs-blinds")
    remaining = int(page.get_attribute("#bs-time", "data-remaining-ms"))
    assert 20 * 60_000 - 5_000 < remaining <= 20 * 60_000
    screenshot(page, "bigscreen")

    clock_command(tournament=t, kind="pause", actor=actor)
    page.reload()
    page.wait_for_selector("#bs-time.paused")
