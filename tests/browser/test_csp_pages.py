"""The main pages under the Content-Security-Policy in real Chromium: no violation reported,
and what their scripts do still works (confirm dialogs, the structure editor's rows, the bust
filter, the language switch, the live dealer tablet and its broken-table notice)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from actions.tables import table_break
from tables import services as seating
from tables.models import SeatAssignment, Table
from tests.browser.conftest import login

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path("/tmp/shots")


class Console:
    """Everything the browser reports that is not an ordinary page message."""

    def __init__(self, page: Any) -> None:
        self.violations: list[str] = []
        self.errors: list[str] = []
        page.on("console", self._message)
        page.on("pageerror", lambda exc: self.errors.append(str(exc)))

    def _message(self, message: Any) -> None:
        if "Content Security Policy" in message.text or "Content-Security-Policy" in message.text:
            self.violations.append(message.text)

    def clean(self) -> None:
        assert self.violations == [], self.violations
        assert self.errors == [], self.errors


def shoot(page: Any, name: str) -> None:
    """Screenshots at the laptop width and the phone width (not an assertion)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    size = page.viewport_size
    for width, height in ((1366, 900), (390, 844)):
        page.set_viewport_size({"width": width, "height": height})
        page.screenshot(path=str(SHOTS / f"h5_{name}_{width}.png"), full_page=True)
    page.set_viewport_size(size)


@pytest.fixture
def night(make_tournament, register, actor):
    """A running tournament: eight players at two tables of six, an empty table of ten."""
    t = make_tournament(
        status="running", late_registration_until_level=6, seats_per_table=6, final_table_size=9
    )
    entries = [register(t, f"Player Number{i}") for i in range(8)]
    seating.seats_draw(tournament=t, actor=actor)
    seating.tables_create(tournament=t, count=1, actor=actor, seats=10)
    for table in Table.objects.filter(tournament=t, assignments__isnull=False).distinct():
        seats = sorted(table.assignments.values_list("seat", flat=True))
        seating.button_set(table=table, seat=seats[0], actor=actor)
    return t, entries


def test_console_pages_run_under_the_policy(asgi_server, page, floor_user, night):
    t, _entries = night
    console = Console(page)
    login(page, asgi_server, "flo", "pw-floor-123")
    base = f"{asgi_server}/console/t/{t.pk}"

    # Desk: closing registration asks first; "Cancel" keeps it open.
    page.goto(f"{base}/desk/")
    page.wait_for_selector("#q")
    asked: list[str] = []

    def answer(accept: bool):
        def handler(dialog: Any) -> None:
            asked.append(dialog.message)
            dialog.accept() if accept else dialog.dismiss()

        return handler

    page.once("dialog", answer(False))
    page.click("#registration-state button[type=submit]")
    page.wait_for_timeout(300)
    assert asked and "Close registration?" in asked[-1]
    t.refresh_from_db()
    assert t.registration_closed_at is None
    shoot(page, "desk")

    # Bust page: the filter hides the rows that do not match.
    page.goto(f"{base}/bust/")
    rows = page.locator("#bust-list tbody tr")
    assert rows.count() == 8
    page.fill("[data-filter-rows]", "number3")
    expect(page.locator("#bust-list tbody tr:not([hidden])")).to_have_count(1)
    shoot(page, "bust")

    # Structure editor: add a level and a break, remove a row, numbers follow. Levels are
    # numbered 1, 2, 3 …; a break has no number of its own.
    page.goto(f"{base}/structure/")
    before = page.locator("#levels tbody tr").count()
    levels_before = page.locator("#levels tbody tr:not(.break)").count()
    page.click("[data-add-row=level]")
    page.click("[data-add-row=break]")
    assert page.locator("#levels tbody tr").count() == before + 2
    last = page.locator("#levels tbody tr").last
    assert last.get_attribute("class") == "break"
    assert last.locator("[name=kind]").input_value() == "break"
    assert last.locator("td").first.inner_text() == ""
    added = page.locator("#levels tbody tr").nth(before)
    assert added.locator("td").first.inner_text() == str(levels_before + 1)
    assert int(added.locator("[name=big_blind]").input_value()) > 0
    added.locator("[data-remove-row]").click()
    assert page.locator("#levels tbody tr").count() == before + 1
    numbers = page.locator("#levels tbody tr:not(.break) td:first-child").all_inner_texts()
    assert numbers == [str(n) for n in range(1, levels_before + 1)]
    shoot(page, "structure")

    # Seating chart (live over its websocket): a redraw asks first; "Cancel" changes nothing.
    page.goto(f"{base}/seating/")
    page.wait_for_selector("#chart")
    seats = set(SeatAssignment.objects.values_list("entry_id", "table_id", "seat"))
    page.once("dialog", answer(False))
    page.click("text=Redraw all seats")
    page.wait_for_timeout(300)
    assert "Redraw every seat?" in asked[-1]
    assert set(SeatAssignment.objects.values_list("entry_id", "table_id", "seat")) == seats
    # "OK" goes ahead: everyone is drawn again.
    page.once("dialog", answer(True))
    page.click("text=Redraw all seats")
    page.wait_for_selector(".messages li.success")

    # History: choosing an action filters at once (the select submits its form).
    page.goto(f"{base}/history/")
    page.select_option("#action", index=1)
    page.wait_for_url("**/history/?action=*")

    # The console home, then the language switch submits itself.
    page.goto(f"{asgi_server}/console/")
    page.select_option("#lang", "de")
    expect(page.locator("html")).to_have_attribute("lang", "de")
    page.select_option("#lang", "en")
    expect(page.locator("html")).to_have_attribute("lang", "en")

    # The API docs, from this installation.
    page.goto(f"{asgi_server}/api/docs/")
    page.wait_for_selector("#swagger-ui .info")
    console.clean()


def test_public_pages_and_dealer_tablet_run_under_the_policy(asgi_server, browser, night, actor):
    t, entries = night
    context = browser.new_context(viewport={"width": 1366, "height": 900}, locale="en-GB")
    page = context.new_page()
    page.set_default_timeout(15000)
    console = Console(page)

    page.goto(f"{asgi_server}/t/{t.pk}/clock/")
    page.wait_for_selector("body.bigscreen")
    page.goto(f"{asgi_server}/t/{t.pk}/find/")
    page.fill("#find-q", "3")
    page.wait_for_selector("#find-results .seatno")
    page.goto(f"{asgi_server}/s/{entries[0].public_token}/")
    expect(page.locator("body")).to_contain_text("Table")

    # The dealer tablet is live over its websocket; breaking its table closes the socket and
    # the tablet says to ask the floor.
    broken = Table.objects.get(tournament=t, number=2)
    page.goto(f"{asgi_server}/d/{broken.dealer_token}/")
    page.wait_for_selector("#conn.live")
    shoot(page, "dealer")
    table_break(tournament=t, number=2, actor=actor)
    page.wait_for_selector("#dealer-closed")
    assert "This table was broken. Ask the floor" in page.inner_text("#dealer-closed")
    shoot(page, "dealer_closed")
    # Reloaded, the page says the same (410).
    response = page.goto(f"{asgi_server}/d/{broken.dealer_token}/")
    assert response.status == 410
    assert "Ask the floor" in page.inner_text("#dealer-closed")
    console.clean()
    context.close()


def test_admin_and_redoc_run_under_the_policy(asgi_server, page, django_user_model, night):
    t, _entries = night
    django_user_model.objects.create_superuser("root", password="pw-root-123")
    console = Console(page)
    page.goto(f"{asgi_server}/admin/login/")
    page.fill("#id_username", "root")
    page.fill("#id_password", "pw-root-123")
    page.click("input[type=submit]")
    page.wait_for_selector("#content-main")
    page.goto(f"{asgi_server}/admin/tables/table/")
    page.wait_for_selector("#result_list")
    # The change list's "select all" box is driven by the admin's own script file.
    page.check("#action-toggle")
    expect(page.locator("input.action-select:checked")).to_have_count(
        Table.objects.filter(tournament=t).count()
    )
    page.goto(f"{asgi_server}/api/redoc/")
    expect(page.locator("h1")).to_contain_text("Floor API")
    # Redoc's side menu carries its maker's logo from their CDN (no option turns it off): the
    # policy blocks that request on purpose, so no visitor's address goes to a third party.
    console.violations = [v for v in console.violations if "cdn.redoc.ly/redoc/logo" not in v]
    console.clean()
