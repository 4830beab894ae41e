"""The seating console says when the room is behind: a server process reports how late the live
updates reach the screens (live/backlog.py, a `behind` message), and the chart shows it
until every process that reported has caught up or gone quiet (static/tables/console.js)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.browser.conftest import screenshot
from tests.browser.test_accessibility import audit
from tests.browser.test_console_fetch import _seated, chart_page, open_chart

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _behind(seconds: float, process: str = "web-1:7", where: str = "sockets") -> str:
    data = {"seconds": seconds, "waiting": 12, "where": where, "process": process}
    return json.dumps({"type": "event", "event": "behind", "data": data})


@pytest.fixture
def axe() -> Any:
    from axe_playwright_python.sync_playwright import Axe

    return Axe()


@pytest.mark.parametrize(
    ("locale", "width", "words"),
    [("en-GB", 1366, "Live updates are running about"), ("de-DE", 360, "laufen etwa")],
)
def test_the_console_says_when_the_room_is_behind_and_when_it_caught_up(
    asgi_server, browser, actor, floor_user, make_tournament, register, axe, locale, width, words
):
    t = _seated(make_tournament, register, actor, 12)
    ctx, page, sockets = chart_page(browser, asgi_server, t, width=width, locale=locale)
    open_chart(page, asgi_server, t)
    note = page.locator("#live-behind")
    assert note.is_hidden()

    sockets[0].send(_behind(7.4))
    note.wait_for(state="visible")
    text = note.inner_text()
    assert words in text and "7" in text
    assert note.get_attribute("role") == "status"
    # A second process, further behind: the larger lag is shown.
    sockets[0].send(_behind(12.2, process="web-2:9", where="builder"))
    page.wait_for_function("document.getElementById('live-behind').textContent.includes('12')")
    screenshot(page, f"console-behind-{locale}-{width}")
    audit(axe, page, f"console behind {locale} {width}")
    # The notice fits the page: nothing runs off the side of a phone.
    assert page.evaluate("document.documentElement.scrollWidth") <= width

    sockets[0].send(_behind(0, process="web-2:9", where="builder"))
    page.wait_for_function("document.getElementById('live-behind').textContent.includes('7')")
    assert note.is_visible()  # the first process has not caught up yet
    sockets[0].send(_behind(0))
    note.wait_for(state="hidden")
    ctx.close()


def test_a_report_that_is_not_followed_up_goes_after_ten_seconds(
    asgi_server, browser, actor, floor_user, make_tournament, register
):
    """A process that stopped reporting (it went away, or its caught-up message was lost) does
    not leave the notice up for ever."""
    t = _seated(make_tournament, register, actor, 6)
    ctx, page, sockets = chart_page(browser, asgi_server, t)
    page.clock.install()
    open_chart(page, asgi_server, t)
    page.clock.run_for(1000)
    sockets[0].send(_behind(3.0))
    page.locator("#live-behind").wait_for(state="visible")
    page.clock.run_for(13_000)
    page.locator("#live-behind").wait_for(state="hidden")
    ctx.close()
