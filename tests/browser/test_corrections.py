"""Corrections at the desk in real Chromium: a wrong registration voided while the tournament
runs (and the void undone), and a double click on "Register" that registers once."""

from __future__ import annotations

import pytest

from tests.browser.conftest import login, screenshot
from tournament.models import EntryStatus, Status, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_void_a_registration_after_the_start(
    live_server, page, floor_user, make_tournament, register, actor
):
    from tables import services as seating

    t = make_tournament(status="registering")
    for i in range(5):
        register(t, f"Spieler Nummer{i}")
    wrong = register(t, "Anna Schäfer")
    seating.tables_create(tournament=t, count=1, actor=actor)
    seating.seats_draw(tournament=t, actor=actor)
    Tournament.objects.filter(pk=t.pk).update(status=Status.RUNNING)
    login(page, live_server.url, "flo", "pw-floor-123")

    page.goto(f"{live_server.url}/console/t/{t.pk}/desk/")
    page.fill("#q", "schafer")
    page.wait_for_selector(f"#desk-results a[data-correct='{wrong.number}']")
    page.click(f"#desk-results a[data-correct='{wrong.number}']")
    page.wait_for_selector("#void-form")
    screenshot(page, "entry-correct")
    asked: list[str] = []

    def accept(dialog):
        asked.append(dialog.message)
        dialog.accept()

    page.once("dialog", accept)
    page.click("#void-entry")
    page.wait_for_selector(".messages li.success")
    assert asked and "Anna Schäfer (#6)" in asked[0]
    assert "voided, buy-in refunded" in page.inner_text(".messages")
    wrong.refresh_from_db()
    assert wrong.status == EntryStatus.UNREGISTERED and not hasattr(wrong, "seat")
    t.refresh_from_db()
    assert (t.players_left, t.entries_counted) == (5, 5)
    assert "Anna Schäfer (#6) voided" in page.inner_text("#desk-corrections")

    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#desk-corrections button[data-undo]")
    page.wait_for_selector(".messages li.success")
    wrong.refresh_from_db()
    assert wrong.status == EntryStatus.ACTIVE
    assert "undone" in page.inner_text("#desk-corrections")


def test_a_double_click_on_register_registers_once(live_server, page, floor_user, make_tournament):
    t = make_tournament(status="registering")
    login(page, live_server.url, "flo", "pw-floor-123")
    page.goto(f"{live_server.url}/console/t/{t.pk}/desk/")
    page.keyboard.press("n")
    page.keyboard.type("Paul Hartmann")
    key = page.get_attribute("#register-form input[name=reg_key]", "value")
    token = page.get_attribute("#register-form input[name=csrfmiddlewaretoken]", "value")
    # Each submit that goes out is counted where the next page can read it.
    page.evaluate(
        """() => window.addEventListener("submit", (e) => {
          if (!e.defaultPrevented) sessionStorage.sent = Number(sessionStorage.sent || 0) + 1;
        })"""
    )
    page.dblclick("#register-button")
    page.wait_for_selector(".last-entry")
    assert page.evaluate("sessionStorage.sent") == "1", "the browser sent the form once"
    # The same form sent once more (a retry after a timeout) finds the same entry.
    url = f"{live_server.url}/console/t/{t.pk}/desk/"
    again = page.request.post(
        url,
        form={
            "csrfmiddlewaretoken": token,
            "name": "Paul Hartmann",
            "reg_key": key,
            "method": "cash",
        },
        headers={"Referer": url},
        max_redirects=0,
    )
    assert again.status == 302
    assert again.headers["location"].endswith(f"?last={t.entries.get().pk}")
    assert t.entries.count() == 1
    assert t.entries.get().player.name == "Paul Hartmann"
    # The cursor is back in the name field, ready for the next player.
    assert page.evaluate("() => document.activeElement.id") == "id_name"
