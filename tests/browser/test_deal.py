"""From "deal proposed" to a paid receipt, in real Chromium."""

from __future__ import annotations

import pytest

from actions.bust import BustReport, entries_bust
from tests.browser.conftest import login, screenshot
from tournament.models import Deal, Status, Tournament
from tournament.selectors import tournament_numbers

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_deal_then_pay_at_the_desk(live_server, page, floor_user, make_tournament, register, actor):
    t = make_tournament(status="registering")
    entries = [register(t) for _ in range(12)]
    Tournament.objects.filter(pk=t.pk).update(status=Status.RUNNING)
    t.refresh_from_db()
    for e in entries[:-3]:
        entries_bust(tournament=t, busts=[BustReport(entry=e)], actor=actor)
    chips = tournament_numbers(t).chips_in_play
    login(page, live_server.url, "flo", "pw-floor-123")

    page.goto(f"{live_server.url}/console/t/{t.pk}/deal/")
    stacks = page.locator("input[name^=stack_]")
    split = [chips // 2, chips // 3, chips - chips // 2 - chips // 3]
    for i, amount in enumerate(split):
        stacks.nth(i).fill(str(amount))
    page.click("button[value=compare]")
    page.wait_for_selector("input[name^=agree_]")
    assert "chip chop" in page.inner_text(".deal-table").lower()
    boxes = page.locator("input[name^=agree_]")
    boxes.nth(0).check()
    # Recording asks first, naming what happens; cancelling records nothing.
    said: list[str] = []
    page.once("dialog", lambda d: (said.append(d.message), d.dismiss()))
    page.click("button[value=record]")
    assert said and "cannot be changed" in said[0]
    assert not Deal.objects.exists()
    page.once("dialog", lambda d: d.accept())
    page.click("button[value=record]")  # two players have not agreed yet
    page.wait_for_selector(".messages li.error")
    assert not Deal.objects.exists()
    for i in range(boxes.count()):
        page.locator("input[name^=agree_]").nth(i).check()
    page.once("dialog", lambda d: d.accept())
    page.click("button[value=record]")
    page.wait_for_selector("text=Deal recorded")
    assert Deal.objects.get().shares.count() == 3
    screenshot(page, "deal")

    page.goto(f"{live_server.url}/console/t/{t.pk}/payouts/desk/")
    page.on("dialog", lambda d: d.accept())
    page.locator("details.pay-menu > summary").first.click()
    page.locator("details.pay-menu[open] button[value=cash]").click()
    page.wait_for_selector(".messages li.success")
    receipt = page.locator("a:has-text('Receipt')").first.get_attribute("href")
    page.goto(f"{live_server.url}{receipt}")
    assert "payout receipt" in page.inner_text(".receipt").lower()
    screenshot(page, "payout-receipt")
