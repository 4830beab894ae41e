"""A floor person registers a player at the desk and busts one, in real Chromium."""

from __future__ import annotations

import pytest

from tests.browser.conftest import login, screenshot
from tournament.models import EntryStatus, Status, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_register_and_bust_in_the_browser(live_server, page, floor_user, make_tournament, register):
    t = make_tournament(status="registering")
    register(t, "Olga Neumann")
    login(page, live_server.url, "flo", "pw-floor-123")

    page.goto(f"{live_server.url}/console/t/{t.pk}/desk/")
    page.keyboard.press("n")
    page.keyboard.type("Paul Hartmann")
    page.click("#register-form button[type=submit]")
    page.wait_for_selector(".messages li.success")
    assert "Paul Hartmann" in page.inner_text(".messages")
    assert t.entries.filter(player__name="Paul Hartmann", status=EntryStatus.ACTIVE).exists()
    screenshot(page, "desk")

    Tournament.objects.filter(pk=t.pk).update(status=Status.RUNNING)
    page.goto(f"{live_server.url}/console/t/{t.pk}/desk/")
    page.fill("#q", "Paul")
    page.wait_for_selector("#desk-results button[data-bust]")
    # A bust from the desk asks first, naming the player; "Cancel" changes nothing.
    asked: list[str] = []

    def cancel(dialog):
        asked.append(dialog.message)
        dialog.dismiss()

    page.once("dialog", cancel)
    page.click("#desk-results button[data-bust]")
    page.wait_for_timeout(300)
    assert asked and "Paul Hartmann (#" in asked[0]
    assert t.entries.get(player__name="Paul Hartmann").status == EntryStatus.ACTIVE
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#desk-results button[data-bust]")
    # Registration is still open: a bust into the money waits until the floor closes it.
    page.wait_for_selector(".messages li.error")
    assert "Close registration first" in page.inner_text(".messages")
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#registration-state button[type=submit]")
    page.wait_for_selector(".messages li.success")
    assert "Registration closed" in page.inner_text(".messages")
    page.goto(f"{live_server.url}/console/t/{t.pk}/desk/")
    page.fill("#q", "Paul")
    page.wait_for_selector("#desk-results button[data-bust]")
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#desk-results button[data-bust]")
    page.wait_for_selector(".messages li.success")
    assert "finishes in place 2" in page.inner_text(".messages")
    busted = t.entries.get(player__name="Paul Hartmann")
    assert busted.status == EntryStatus.BUSTED and busted.place == 2
