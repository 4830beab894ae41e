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
    remaining = page.evaluate("() => window.floorClock.project().remainingMs")
    assert 20 * 60_000 - 5_000 < remaining <= 20 * 60_000
    minutes, seconds = page.inner_text("#bs-time").split(":")
    assert 20 * 60 - 5 < int(minutes) * 60 + int(seconds) <= 20 * 60
    screenshot(page, "bigscreen")

    clock_command(tournament=t, kind="pause", actor=actor)
    page.reload()
    page.wait_for_selector("#bs-time.paused")


def test_a_running_clock_writes_the_page_only_when_a_second_turns(
    live_server, page, actor, make_tournament
):
    """The big screen is drawn when a shown second turns, not on every animation frame: in
    three seconds of a running clock the page changes a few times a second at most (the time,
    the time to the break), and the digits shown are the clock's current ones."""
    t = make_tournament(status="registering")
    clock_command(tournament=t, kind="start", actor=actor)
    page.goto(f"{live_server.url}/t/{t.pk}/clock/")
    page.wait_for_function("() => document.getElementById('bs-time').dataset.levelIndex === '0'")
    page.evaluate(
        """() => {
          window.__mutations = 0;
          new MutationObserver((list) => { window.__mutations += list.length; })
            .observe(document.body, { subtree: true, childList: true, characterData: true,
                                      attributes: true });
        }"""
    )
    first = page.inner_text("#bs-time")
    page.wait_for_timeout(3000)
    mutations = page.evaluate("() => window.__mutations")
    assert 3 <= mutations <= 15, mutations  # sixty frames a second wrote hundreds
    assert page.inner_text("#bs-time") != first  # and it keeps counting
    shown, derived = page.evaluate(
        "() => [document.getElementById('bs-time').textContent,"
        " window.floorClock.project().remainingMs]"
    )
    minutes, seconds = shown.split(":")
    assert abs((int(minutes) * 60 + int(seconds)) * 1000 - derived) <= 1000 + 300
