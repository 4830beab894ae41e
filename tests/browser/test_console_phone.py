"""The console from a phone (docs/desk.md, "From a phone"): at 390 px every floor page fits the
width without sideways scrolling and its buttons are at least 44 px high; the phone start page
shows the clock with its controls, what is due now and the last busts."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.conf import settings

from tests.browser.conftest import screenshot
from tests.browser.test_accessibility import Night, _night

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
PAGES: list[tuple[str, Callable[[Night], str]]] = [
    ("overview", lambda n: f"/console/t/{n.running}/"),
    ("desk", lambda n: f"/console/t/{n.running}/desk/"),
    ("bust", lambda n: f"/console/t/{n.running}/bust/"),
    ("seating", lambda n: f"/console/t/{n.running}/seating/"),
    ("table", lambda n: f"/console/t/{n.running}/tables/{n.table}/"),
    ("clock", lambda n: f"/console/t/{n.running}/clock/"),
    ("rulings", lambda n: f"/console/t/{n.running}/rulings/"),
    ("penalties", lambda n: f"/console/t/{n.running}/penalties/"),
    ("colour-up", lambda n: f"/console/t/{n.running}/colour-up/"),
    ("counts", lambda n: f"/console/t/{n.running}/counts/"),
    ("payouts", lambda n: f"/console/t/{n.running}/payouts/"),
    ("payout-desk", lambda n: f"/console/t/{n.final}/payouts/desk/"),
    ("deal", lambda n: f"/console/t/{n.final}/deal/"),
    ("phone", lambda n: f"/console/t/{n.running}/phone/"),
]

# Sideways scroll of the page itself, and every visible button lower than 44 px.
MEASURE = """() => {
  const se = document.scrollingElement;
  const low = [];
  for (const el of document.querySelectorAll('main button, main a.btn, main input[type=submit]')) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0 || el.closest('[hidden], details:not([open]) > :not(summary)')) continue;
    if (r.height < 44 - 0.5) low.push(`${(el.innerText || el.value || '').trim().slice(0, 30)} ${Math.round(r.height)}px`);
  }
  return {sideways: se.scrollWidth > se.clientWidth, width: se.scrollWidth, low};
}"""


@pytest.fixture
def night(transactional_db: Any, made_once: Any) -> Night:
    return made_once(_night)


@pytest.fixture
def phone(browser: Any, asgi_server: str, night: Night) -> Any:
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, locale="en-GB")
    page = context.new_page()
    page.set_default_timeout(15000)
    page.goto(f"{asgi_server}/login/")
    page.fill("#id_username", "director")
    page.fill("#id_password", settings.FLOOR_DEMO_PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(f"{asgi_server}/console/")
    yield page
    context.close()


def test_every_floor_page_fits_a_phone(asgi_server, night, phone):
    problems = []
    for name, path in PAGES:
        response = phone.goto(asgi_server + path(night))
        assert response.status == 200, name
        found = phone.evaluate(MEASURE)
        if found["sideways"]:
            problems.append(f"{name}: scrolls sideways ({found['width']} px)")
        if found["low"]:
            problems.append(f"{name}: buttons under 44 px: {', '.join(found['low'][:5])}")
        screenshot(phone, f"phone-console-{name}")
    assert not problems, "\n".join(problems)


def test_phone_start_page_shows_clock_due_items_and_busts(asgi_server, night, phone):
    from tournament.models import Tournament

    Tournament.objects.filter(pk=night.running).update(hand_for_hand=True)

    phone.goto(f"{asgi_server}/console/t/{night.running}/")
    phone.click("text=Phone view")
    phone.wait_for_url(f"{asgi_server}/console/t/{night.running}/phone/")
    phone.wait_for_function(
        "() => /^\\d{1,2}:\\d\\d$/.test(document.getElementById('bs-time').textContent)"
    )
    assert phone.inner_text("#bs-level").startswith("Level")
    assert "/" in phone.inner_text("#bs-blinds")
    due = phone.inner_text("#ph-due")
    assert "Hand-for-hand is on" in due
    assert phone.locator("#ph-busts li").count() == 3  # the night's three busts
    assert phone.locator("#ph-busts a").first.get_attribute("href").endswith("/bust/")

    before = phone.inner_text("#bs-time")
    phone.click("button:has-text('+1:00')")
    phone.wait_for_load_state("load")
    phone.wait_for_function(
        "(t) => document.getElementById('bs-time').textContent !== t", arg=before
    )
    phone.click("button:has-text('Pause')")
    phone.wait_for_selector("button:has-text('Resume')")
    assert phone.inner_text("#bs-paused") == "PAUSED"
    assert phone.url.endswith("/phone/")
    screenshot(phone, "phone-console-start")
