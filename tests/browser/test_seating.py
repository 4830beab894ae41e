"""A dealer reports two busts from the table tablet; the floor confirms them and applies the
balancing move, in real Chromium."""

from __future__ import annotations

import pytest

from tables import services as seating
from tables.models import SeatAssignment, Table
from tests.browser.conftest import login, screenshot
from tournament.models import EntryStatus

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_bust_from_table_view_to_applied_move(
    live_server, browser, page, floor_user, actor, make_tournament, register
):
    t = make_tournament(status="running", late_registration_until_level=6)
    for i in range(18):
        register(t, f"Player Number{i}")
    seating.seats_draw(tournament=t, actor=actor)
    for table in Table.objects.filter(tournament=t):
        seats = sorted(table.assignments.values_list("seat", flat=True))
        seating.button_set(table=table, seat=seats[0], actor=actor)
    table1 = Table.objects.get(tournament=t, number=1)
    victims = list(table1.assignments.order_by("seat")[:2])

    dealer_ctx = browser.new_context(viewport={"width": 1180, "height": 820})
    dealer = dealer_ctx.new_page()
    dealer.set_default_timeout(15000)
    dealer.goto(f"{live_server.url}/d/{table1.dealer_token}/")
    for v in victims:
        dealer.click(f"button.seat[data-seat='{v.seat}']")
        dealer.wait_for_selector("#seat-sheet[open]")
        dealer.click("#report-bust")
        dealer.wait_for_selector(f"button.seat.reported[data-seat='{v.seat}']")
    screenshot(dealer, "dealer-reported")
    dealer.click("#hand-done")
    try:
        dealer.wait_for_function(
            "() => document.querySelector('.d-level .sub').textContent.includes('Hand 2')"
        )
    finally:
        screenshot(dealer, "dealer-after-hand")

    login(page, live_server.url, "flo", "pw-floor-123")
    page.goto(f"{live_server.url}/console/t/{t.pk}/seating/")
    # Both were out in the same hand: one form ranks them together, with their stacks.
    stacks = page.locator(".report-group input[name^=stack_]")
    assert stacks.count() == 2
    stacks.nth(0).fill("3000")
    stacks.nth(1).fill("12000")
    page.click("text=Confirm 2 busts")
    page.wait_for_selector(".messages li.success")
    assert t.entries.filter(status=EntryStatus.BUSTED).count() == 2
    places = sorted(t.entries.filter(status=EntryStatus.BUSTED).values_list("place", flat=True))
    assert places == [17, 18]
    page.wait_for_selector("#apply-moves")
    screenshot(page, "seating-plan")
    page.click("#apply-moves")
    page.wait_for_selector(".messages li.success")
    counts = sorted(
        SeatAssignment.objects.filter(table__tournament=t).values_list("table__number", flat=True)
    )
    assert counts.count(1) == 8 and counts.count(2) == 8
    dealer_ctx.close()
