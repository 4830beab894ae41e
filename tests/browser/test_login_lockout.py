"""Wrong passwords in a real browser: after the fifth the login page says how long to wait, on a
laptop and on a phone; the account page logs the floor laptop out everywhere."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.browser.conftest import login, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = os.environ.get("FLOOR_SHOTS")  # also save the screenshots here (e.g. /tmp/shots)


def shot(page, name):
    screenshot(page, name)
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=f"{SHOTS}/h1_{name}.png", full_page=True)


@pytest.mark.parametrize("width", [1366, 390])
def test_six_wrong_passwords_show_the_wait_on_the_login_page(live_server, browser, director, width):
    context = browser.new_context(viewport={"width": width, "height": 800}, locale="en-GB")
    page = context.new_page()
    page.set_default_timeout(15000)
    page.goto(f"{live_server.url}/login/")
    for n in range(6):
        page.fill("#id_username", "dir")
        page.fill("#id_password", f"wrong-{n}")
        page.click("button[type=submit]")
        page.wait_for_selector("#id_password")
    notice = page.inner_text("#login-notice")
    assert "Too many failed logins. Please try again in 15 minutes" in notice
    shot(page, f"login-locked-{width}")
    page.fill("#id_username", "dir")
    page.fill("#id_password", "pw-director-123")
    page.click("button[type=submit]")
    page.wait_for_selector("#login-notice")
    assert "/login/" in page.url  # the right password waits for the lock too
    context.close()


def test_log_out_everywhere_from_the_account_page(live_server, browser, page, floor_user):
    login(page, live_server.url, "flo", "pw-floor-123")
    other = browser.new_context(locale="en-GB").new_page()
    login(other, live_server.url, "flo", "pw-floor-123")
    page.click(".topbar .user-name")
    page.wait_for_selector("#logout-everywhere")
    assert "logged in on 2 devices" in page.inner_text("#account")
    shot(page, "account")
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#logout-everywhere")
    page.wait_for_url(f"{live_server.url}/login/")
    assert "logged out on every device" in page.inner_text("main")
    other.goto(f"{live_server.url}/console/")
    assert "/login/" in other.url
    other.context.close()
