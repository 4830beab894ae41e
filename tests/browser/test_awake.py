"""Screens and tablets that are left on keep their screen on (static/floor/awake.js).

Over plain HTTP on the LAN (here `http://floor.test:<port>`, which Chromium resolves to this
machine's loopback: an ordinary, non-secure origin) the Screen Wake Lock API is missing. The big
screen, the display manager's screen, the chip counts screen and the dealer's tablet pages then
show a "Keep this screen on" button; the keyboard reaches and presses it, a tap on it or
anywhere else starts NoSleep.js (a tiny video from a data: URI, allowed by `media-src`), the
button goes and the line says that the screen stays on. On localhost (a secure context) the
page holds a wake lock and shows nothing. Screenshots at 1366 px and 390 px in test-artifacts/."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe

from tables.models import Table
from tests.browser.conftest import screenshot
from tests.browser.test_accessibility import audit
from tests.browser.test_chip_counts import _night
from tests.browser.test_csp_pages import Console
from tests.services import CHROMIUM, CHROMIUM_ARGS, chromium_available, require

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LAN_HOST = "floor.test"
WIDE = {"width": 1366, "height": 900}
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Chromium as in conftest.py, with one more name: floor.test is this machine's loopback."""
    require(chromium_available(), "Chromium (/usr/bin/chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=CHROMIUM,
            args=[*CHROMIUM_ARGS, f"--host-resolver-rules=MAP {LAN_HOST} 127.0.0.1"],
        )
        yield browser
        browser.close()


@pytest.fixture
def lan(asgi_server: str) -> Iterator[str]:
    """The test server under a LAN name, as a venue's laptop is reached over plain HTTP. The
    name is added in place to the very list that the websocket origin check holds too."""
    from django.conf import settings

    hosts = settings.ALLOWED_HOSTS
    hosts.append(LAN_HOST)
    yield asgi_server.replace("127.0.0.1", LAN_HOST)
    hosts.remove(LAN_HOST)


@pytest.fixture
def night(make_tournament: Any, actor: Any) -> tuple[Any, Any]:
    t = _night(make_tournament, actor, players=18)
    return t, Table.objects.get(tournament=t, number=1)


def _open(browser: Any, viewport: dict[str, int], locale: str = "en-GB", touch: bool = False):
    context = browser.new_context(
        viewport=viewport, locale=locale, is_mobile=touch, has_touch=touch
    )
    page = context.new_page()
    page.set_default_timeout(15000)
    return context, page


def _asks(page: Any) -> None:
    """The page is on a non-secure origin, has no wake lock, and shows the button."""
    assert page.evaluate("() => [window.isSecureContext, 'wakeLock' in navigator]") == [
        False,
        False,
    ]
    page.wait_for_selector("#awake-ask", state="visible")
    assert page.get_attribute("#awake-state", "data-awake") == "ask"
    assert page.evaluate("() => document.getElementById('awake-ask').tagName") == "BUTTON"


def _stays_on(page: Any, words: str = "This screen stays on.") -> None:
    page.wait_for_selector("#awake-state[data-awake='on']")
    assert page.is_hidden("#awake-ask")
    assert page.inner_text("#awake-state") == words
    assert page.evaluate("() => window.floorAwake.state") == "on"


def test_the_big_screen_over_plain_http_asks_then_stays_on(lan, browser, night):
    t, _table = night
    context, page = _open(browser, WIDE)
    console = Console(page)
    page.goto(f"{lan}/t/{t.pk}/clock/")
    _asks(page)
    assert page.inner_text("#awake-ask") == "Keep this screen on"
    screenshot(page, "awake-bigscreen-1366")
    audit(Axe(), page, "big screen asking to stay on (1366 px)")

    # The keyboard reaches the button (Tab alone starts nothing), shows where it is, presses it.
    for _ in range(12):
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement.id") == "awake-ask":
            break
    assert page.evaluate("() => document.activeElement.id") == "awake-ask"
    assert page.get_attribute("#awake-state", "data-awake") == "ask"
    ring = page.evaluate(
        "() => { const s = getComputedStyle(document.getElementById('awake-ask'));"
        " return [s.outlineStyle, s.outlineWidth]; }"
    )
    assert ring == ["solid", "3px"], ring
    screenshot(page, "awake-bigscreen-focus-1366")
    page.keyboard.press("Enter")
    _stays_on(page)
    screenshot(page, "awake-bigscreen-on-1366")
    # The line leaves the screen after a few seconds; the state stays.
    page.wait_for_function("() => document.getElementById('awake-state').textContent === ''")
    assert page.get_attribute("#awake-state", "data-awake") == "on"
    console.clean()  # the data: video played under the policy (media-src)
    context.close()

    # A phone-sized screen in German: the words are German, a tap anywhere starts it.
    context, page = _open(browser, PHONE, "de-DE", touch=True)
    page.goto(f"{lan}/t/{t.pk}/clock/")
    _asks(page)
    assert page.inner_text("#awake-ask") == "Bildschirm eingeschaltet lassen"
    screenshot(page, "awake-bigscreen-390-de")
    audit(Axe(), page, "big screen asking to stay on (de, 390 px)")
    page.tap("#bs-blinds")
    _stays_on(page, "Dieser Bildschirm bleibt eingeschaltet.")
    context.close()


@pytest.mark.parametrize(("viewport", "touch"), [(WIDE, False), (PHONE, True)])
def test_the_dealer_tablet_over_plain_http_asks_then_stays_on(lan, browser, night, viewport, touch):
    _t, table = night
    context, page = _open(browser, viewport, touch=touch)
    console = Console(page)
    page.goto(f"{lan}/d/{table.dealer_token}/")
    page.wait_for_selector("button.seat")
    _asks(page)
    # Above the tablet's buttons, not over them.
    ask = page.locator("#awake-ask").bounding_box()
    actions = page.locator(".d-actions").bounding_box()
    assert ask["y"] + ask["height"] <= actions["y"], (ask, actions)
    width = viewport["width"]
    screenshot(page, f"awake-dealer-{width}")
    audit(Axe(), page, f"dealer tablet asking to stay on ({width} px)")
    if touch:
        page.tap("#awake-ask")
    else:
        page.click("#awake-ask")
    _stays_on(page)
    screenshot(page, f"awake-dealer-on-{width}")
    # A new table swapped in by htmx leaves the line alone (it sits outside #dealer).
    page.evaluate(
        "() => window.htmx.ajax('GET', document.getElementById('dealer').dataset.url, "
        "{ target: '#dealer', swap: 'innerHTML' })"
    )
    page.wait_for_selector("button.seat")
    assert page.get_attribute("#awake-state", "data-awake") == "on"
    console.clean()
    context.close()


def test_the_other_left_on_pages_ask_too(lan, browser, night):
    """The chip counts screen, the display manager's pairing screen and the tablet's chip count
    form; on the form a tap on its heading starts it."""
    t, table = night
    context, page = _open(browser, WIDE)
    console = Console(page)
    for path in (f"/t/{t.pk}/counts/screen/", "/display/"):
        page.goto(lan + path)
        _asks(page)
    page.goto(f"{lan}/d/{table.dealer_token}/counts/")
    _asks(page)
    page.click("h1")
    _stays_on(page)
    console.clean()
    context.close()


def test_with_a_wake_lock_no_button_shows(asgi_server, browser, night):
    """On localhost (a secure context, as over HTTPS) the page holds a wake lock: no button, no
    line."""
    t, table = night
    context, page = _open(browser, WIDE)
    console = Console(page)
    for path in (f"/t/{t.pk}/clock/", f"/d/{table.dealer_token}/", "/display/"):
        page.goto(asgi_server + path)
        page.wait_for_selector("#awake-state[data-awake='lock']", state="attached")
        assert page.evaluate("() => window.isSecureContext && 'wakeLock' in navigator")
        assert page.is_hidden("#awake-ask")
        assert page.inner_text("#awake-state") == ""
    console.clean()
    context.close()


OFF = "To keep this screen on, turn off auto-lock (screen timeout) in the device settings."


def test_where_nothing_works_the_page_says_how_to_set_the_device(lan, asgi_server, browser, night):
    """A video the browser cannot play (plain HTTP), a wake lock the browser refuses
    (localhost): one line says to switch off auto-lock in the device's settings."""
    t, table = night
    context, page = _open(browser, PHONE, touch=True)
    page.add_init_script(
        "HTMLMediaElement.prototype.play = function () {"
        " return Promise.reject(new DOMException('no video here', 'NotSupportedError')); };"
    )
    page.goto(f"{lan}/d/{table.dealer_token}/")
    _asks(page)
    page.tap("#awake-ask")
    page.wait_for_selector("#awake-state[data-awake='off']")
    assert page.is_hidden("#awake-ask")
    assert page.inner_text("#awake-state") == OFF
    page.tap("h1")  # a video that cannot play is not tried again on every tap: the line stays
    page.wait_for_timeout(300)
    assert page.get_attribute("#awake-state", "data-awake") == "off"
    screenshot(page, "awake-dealer-off-390")
    audit(Axe(), page, "dealer tablet saying how to keep the screen on (390 px)")
    context.close()

    context, page = _open(browser, WIDE)
    page.add_init_script(
        "WakeLock.prototype.request = function () {"
        " return Promise.reject(new DOMException('not now', 'NotAllowedError')); };"
    )
    page.goto(f"{asgi_server}/t/{t.pk}/clock/")
    page.wait_for_selector("#awake-state[data-awake='off']")
    assert page.is_hidden("#awake-ask")
    assert page.inner_text("#awake-state") == OFF
    screenshot(page, "awake-bigscreen-off-1366")
    context.close()


def test_a_tap_on_a_displays_frame_starts_it(lan, browser, night, actor):
    """The display manager shows its views in frames of Floor's own pages: a tap on the frame
    counts for the screen around it, and the frame (a clock) shows no button of its own."""
    from displays.domain.views import Kind, Step
    from displays.models import Display
    from displays.services import display_assign, display_pair

    t, _table = night
    context, page = _open(browser, {"width": 1280, "height": 720})
    console = Console(page)
    page.goto(f"{lan}/display/")
    _asks(page)
    display = Display.objects.get(code=page.inner_text("#ds-code").strip())
    display_pair(code=display.code, name="Bar", actor=actor)
    display_assign(
        display_id=display.pk, steps=[Step(Kind.CLOCK, tournament=t.pk, seconds=30)], actor=actor
    )
    # The paired screen learns its views by a live message; on a loaded machine that can lag,
    # and what is tested here is the frame, so the page is opened again (its cookie pairs it).
    page.reload()
    page.wait_for_function("() => window.floorDisplay && window.floorDisplay.shown")
    frame = page.frame_locator("iframe.ds-frame")
    frame.locator("#bs-time").wait_for()
    assert frame.locator("#awake").count() == 0
    assert page.is_visible("#awake-ask")
    frame.locator("#bs-blinds").click()
    _stays_on(page)
    console.clean()
    context.close()
