"""A player scans the QR on the receipt with a phone, sees the seat, and sees the move notice
when the floor moves them from another browser."""

from __future__ import annotations

import io

import pytest

from tables import services as seating
from tables.models import SeatAssignment, Table
from tests.browser.conftest import login, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def scan_qr(png: bytes) -> str:
    zxingcpp = pytest.importorskip("zxingcpp")
    from PIL import Image

    found = zxingcpp.read_barcodes(Image.open(io.BytesIO(png)))
    assert found, "no QR code found"
    return found[0].text


def test_scan_receipt_then_live_move_notice(
    live_server, browser, page, floor_user, actor, make_tournament, register
):
    t = make_tournament(status="running", late_registration_until_level=6)
    greta = register(t, "Greta Lange")
    for i in range(13):
        register(t, f"Player Number{i}")
    seating.seats_draw(tournament=t, actor=actor)
    row = SeatAssignment.objects.select_related("table").get(entry=greta)

    login(page, live_server.url, "flo", "pw-floor-123")
    page.goto(f"{live_server.url}/console/t/{t.pk}/entry/{greta.pk}/receipt")
    url = scan_qr(page.locator(".receipt .qr svg").screenshot())
    assert f"/s/{greta.public_token}/" in url

    phone_ctx = browser.new_context(
        viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True, locale="en-GB"
    )
    phone = phone_ctx.new_page()
    phone.set_default_timeout(15000)
    phone.goto(url.replace("http://testserver", live_server.url))
    phone.wait_for_selector("#seat-table")
    assert phone.inner_text("#seat-table") == str(row.table.number)
    assert phone.inner_text("#seat-seat") == str(row.seat)
    screenshot(phone, "phone-seat")

    other = Table.objects.filter(tournament=t).exclude(pk=row.table_id).first()
    free = min(set(range(1, 10)) - set(other.assignments.values_list("seat", flat=True)))
    page.goto(f"{live_server.url}/console/t/{t.pk}/tables/{row.table.number}/")
    form = page.locator(f"form:has(input[name=entry][value='{greta.number}'])")
    form.locator("input[name=table]").fill(str(other.number))
    form.locator("input[name=seat]").fill(str(free))
    form.locator("button[type=submit]").click()
    page.wait_for_selector(".messages li.success")

    phone.wait_for_selector(".notice.move", timeout=20000)
    assert f"{other.number}" in phone.inner_text(".notice.move")
    assert phone.inner_text("#seat-table") == str(other.number)
    screenshot(phone, "phone-moved")
    phone_ctx.close()


@pytest.mark.parametrize("typed", ["Schäfer", "schaefer"])
def test_find_my_seat_by_surname_with_and_without_umlauts(
    live_server, browser, actor, make_tournament, register, typed
):
    t = make_tournament(status="running", late_registration_until_level=6)
    anna = register(t, "Anna Schäfer")
    for i in range(10):
        register(t, f"Player Number{i}")
    seating.seats_draw(tournament=t, actor=actor)
    row = SeatAssignment.objects.select_related("table").get(entry=anna)

    ctx = browser.new_context(
        viewport={"width": 360, "height": 740}, is_mobile=True, locale="de-DE"
    )
    phone = ctx.new_page()
    phone.set_default_timeout(15000)
    phone.goto(f"{live_server.url}/t/{t.pk}/find/")
    phone.fill("#find-q", typed)
    phone.locator("form button[type=submit]").click()
    phone.wait_for_selector(f"#find-results :text('#{anna.number}')")
    results = phone.inner_text("#find-results")
    assert anna.player.display_name in results and "Schäfer" not in results
    assert str(row.table.number) in results
    screenshot(phone, f"phone-find-{typed}")
    ctx.close()
