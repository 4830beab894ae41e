"""An event's money in the cage, clicked through in Chromium: a prize paid at the Day 2's payout
desk, then the flight's, the Day 2's and the day reports' cage pages in English and German, on a
desktop and a phone, agree to the cent (docs/ledger.md, *An event's money*)."""

from __future__ import annotations

import re
from random import Random

import pytest
from django.utils import timezone

from actions.bust import BustReport, entries_bust
from core.domain.money import format_money, parse_money
from festivals import services as fest
from festivals.tests.test_cage import GUARANTEE, _flights_played
from tests.browser.conftest import login, screenshot
from tests.browser.test_accessibility import audit
from tournament.events import Actor
from tournament.models import EntryStatus, Status, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_an_event_s_money_reads_the_same_on_every_cage_page(
    live_server, new_page, director, floor_user, make_tournament, actor
):
    base = make_tournament(
        status="registering", seats_per_table=6, buy_in=10_000, fee=1_000, guarantee=GUARANTEE
    )
    event = fest.event_create(template=base, name="Main Event", flights=2, actor=actor)
    second = Actor(user=floor_user, label="flo", source="127.0.0.1")
    (a, b), day2 = _flights_played(event, actor, second)
    fest.day2_draw_run(event=event, seeded=True, actor=actor, rng=Random(5))
    Tournament.objects.filter(pk=day2.pk).update(status=Status.RUNNING)
    alive = list(day2.entries.filter(status=EntryStatus.ACTIVE).order_by("number"))
    for e in alive[:-2]:
        entries_bust(tournament=day2, busts=[BustReport(entry=e)], actor=actor)

    page = new_page({"width": 1366, "height": 900})
    login(page, live_server.url, "dir", "pw-director-123")
    page.goto(f"{live_server.url}/console/t/{day2.pk}/payouts/desk/")
    page.on("dialog", lambda d: d.accept())
    pay = page.locator("details.pay-menu > summary").first
    paid_text = pay.inner_text().split("·")[0].replace("Pay", "").strip()
    pay.click()
    page.locator("details.pay-menu[open] button[value=cash]").click()
    page.wait_for_selector(".messages li.success")
    paid = parse_money(paid_text)
    assert 0 < paid < GUARANTEE

    def figures(url: str) -> dict[str, str]:
        page.goto(url)
        stats = page.locator(".stats .stat")
        return {
            stats.nth(i).locator(".label").text_content().strip(): stats.nth(i)
            .locator(".value")
            .text_content()
            .strip()
            for i in range(stats.count())
        }

    en = lambda cents: format_money(cents, "EUR", "en")  # noqa: E731
    day2_url = f"{live_server.url}/console/t/{day2.pk}/cage/"
    shown = figures(day2_url)
    assert shown["Still owed to players"] == en(GUARANTEE - paid)
    assert shown["Money held"] == en(-paid) and "✓" in shown["Reconciled"]
    whole = page.locator("#event-money tfoot").inner_text()
    assert en(132_000 - paid) in whole and en(GUARANTEE - paid) in whole
    assert en(12_000 - 180_000) in whole and "✗" not in page.content()
    screenshot(page, "event-cage-day2")
    from axe_playwright_python.sync_playwright import Axe

    axe = Axe()
    audit(axe, page, "event cage, Day 2")
    page.goto(f"{live_server.url}/console/festivals/{event.pk}/")
    page.click(f".t-head a[href='/console/t/{day2.pk}/cage/#event-money']")
    page.wait_for_url(f"{day2_url}#event-money")
    for t, n in ((a, 7), (b, 5)):
        shown = figures(f"{live_server.url}/console/t/{t.pk}/cage/")
        assert shown["Money held"] == en(n * 11_000)
        assert shown["Still owed to players"] == en(0) and "✓" in shown["Reconciled"]
        assert en(n * 10_000) in page.inner_text(".stats")
    screenshot(page, "event-cage-flight")
    owed = 0
    for t in (a, b, day2):
        day = timezone.localtime(t.starts_at).date().isoformat()
        shown = figures(f"{live_server.url}/console/cage/?day={day}")
        assert "✓" in shown["Reconciled"]
        owed += parse_money(shown["Still owed to players"])
    assert owed == GUARANTEE - paid
    screenshot(page, "event-cage-day")

    # In German on a phone: the same figures, the minus sign against each amount.
    phone = new_page({"width": 390, "height": 844}, locale="de-DE", phone=True)
    login(phone, live_server.url, "dir", "pw-director-123")
    phone.goto(day2_url)
    text = phone.text_content("main")
    assert "Den Spielern noch geschuldet" in text
    assert format_money(GUARANTEE - paid, "EUR", "de") in text
    assert "\u22121.800\u00a0€" in text
    assert not re.search(r"\u2212\s+[\d€]", text) and not re.search(r"-\d[\d.,]*\u00a0€", text)
    width = phone.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 390, width
    screenshot(phone, "event-cage-day2-phone-de")
    audit(axe, phone, "event cage, Day 2, phone, German")
    phone.goto(f"{live_server.url}/console/t/{a.pk}/cage/")
    assert "an Tag 2 übertragen" in phone.text_content("main")
    screenshot(phone, "event-cage-flight-phone-de")
    audit(axe, phone, "event cage, flight, phone, German")
    phone.goto(f"{live_server.url}/console/t/{a.pk}/payouts/")
    assert "an Tag 2 übertragen" in phone.text_content("main")
    audit(axe, phone, "flight payout table, phone, German")
