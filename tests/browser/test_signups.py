"""Sign-up by link on phones (docs/signups.md): four phones sign up for three places, the fourth
waits first on the list with its status page open, and sees the list grow behind it when a
fifth signs up; when the second cancels from its own page, the fourth's page says "You have a
place" live, without a reload, and the fifth is first. Then the director checks a
sign-up in at the door from a phone, and it becomes a paid entry."""

from __future__ import annotations

from typing import Any

import pytest

from signups import services as su
from signups.models import SignUp, SignUpStatus
from tests.browser.conftest import login, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
NAMES = ("Anna Berg", "Ben Cohn", "Clara Dietz", "David Engel")


def _phone(browser: Any, address: str) -> Any:
    # Each phone comes from its own address, as on the mobile network (the sign-up rate limit
    # counts per address).
    context = browser.new_context(
        viewport=PHONE,
        is_mobile=True,
        has_touch=True,
        locale="en-GB",
        extra_http_headers={"X-Forwarded-For": address},
    )
    page = context.new_page()
    page.set_default_timeout(15000)
    return page


def _sign_up(phone: Any, base: str, tournament_id: int, name: str) -> None:
    phone.goto(f"{base}/t/{tournament_id}/signup/")
    phone.fill("#id_display_name", name)
    phone.click("#signup-submit")
    phone.wait_for_url(f"{base}/signup/*/")
    phone.wait_for_selector("#signup-words")


def test_sign_up_wait_move_up_live_and_check_in(
    asgi_server, browser, director, actor, make_tournament
):
    t = make_tournament(status="registering", capacity=3)
    su.sheet_update(
        tournament=t, actor=actor, is_open=True, places=None, reserved=0, check_in_deadline=None
    )
    phones = [_phone(browser, f"10.0.0.{i + 1}") for i in range(len(NAMES))]
    try:
        phones[0].goto(f"{asgi_server}/t/{t.pk}/signup/")
        assert phones[0].inner_text("#signup-places .su-big") == "3"
        for phone, name in zip(phones, NAMES, strict=True):
            _sign_up(phone, asgi_server, t.pk, name)
        for phone in phones[:3]:
            assert phone.inner_text("#signup-words") == "You have a place!"
        fourth = phones[3]
        assert fourth.inner_text("#signup-words") == "Waiting list: position 1 of 1"
        rows = {s.display_name: s for s in SignUp.objects.filter(sheet__tournament=t)}
        assert [rows[n].status for n in NAMES] == ["confirmed"] * 3 + ["waiting"]
        screenshot(fourth, "signup-phone-waiting")

        # The fourth keeps its page open on a live socket; every navigation of it is counted.
        fourth.wait_for_selector("body[data-live='1']")
        status_url = fourth.url
        navigations: list[str] = []
        fourth.on(
            "framenavigated",
            lambda frame: navigations.append(frame.url) if frame == fourth.main_frame else None,
        )
        fourth.evaluate("() => { window.floorStayedHere = true; }")

        # A fifth joins the end of the list: the fourth keeps its place and sees the count from
        # the message alone (no request for its page).
        asked: list[str] = []
        fourth.on("request", lambda r: asked.append(r.url) if r.url == status_url else None)
        fifth = _phone(browser, "10.0.0.9")
        phones.append(fifth)
        _sign_up(fifth, asgi_server, t.pk, "Eva Fuchs")
        assert fifth.inner_text("#signup-words") == "Waiting list: position 2 of 2"
        fourth.wait_for_selector("#signup-words:has-text('position 1 of 2')")
        assert asked == []
        fifth.wait_for_selector("body[data-live='1']")

        second = phones[1]
        second.click("#signup-cancel summary")
        second.click("#signup-cancel-button")
        second.wait_for_selector("#signup-words:has-text('This sign-up is cancelled.')")

        fourth.wait_for_selector("#signup-words:has-text('You have a place')")
        assert fourth.inner_text("#signup-words") == "You have a place!"
        assert fourth.get_attribute("body", "data-moved-up") == "1"
        assert navigations == [] and fourth.url == status_url
        assert fourth.evaluate("() => window.floorStayedHere === true")
        fifth.wait_for_selector("#signup-words:has-text('position 1 of 1')")
        screenshot(fourth, "signup-phone-moved-up")
        for sign_up in rows.values():
            sign_up.refresh_from_db()
        assert rows["Ben Cohn"].status == SignUpStatus.CANCELLED
        assert rows["David Engel"].status == SignUpStatus.CONFIRMED
    finally:
        for phone in phones:
            phone.context.close()

    desk = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, locale="en-GB")
    page = desk.new_page()
    page.set_default_timeout(15000)
    try:
        login(page, asgi_server, "dir", "pw-director-123")
        page.goto(f"{asgi_server}/console/t/{t.pk}/signups/")
        david = rows["David Engel"]
        card = page.locator(f"#su-{david.pk}")
        card.locator("select[name=method]").select_option("cash")
        card.locator("button:has-text('Check in')").click()
        page.wait_for_selector(".messages li.success")
        assert "David Engel is checked in" in page.inner_text(".messages li.success")
        checked = page.locator(f"#su-{david.pk}")
        assert "Checked in" in checked.locator(".su-pill").inner_text()
        assert page.evaluate("() => document.scrollingElement.scrollWidth <= innerWidth")
        screenshot(page, "signup-phone-checked-in")
    finally:
        desk.close()

    david.refresh_from_db()
    assert david.status == SignUpStatus.CHECKED_IN
    assert david.entry is not None and david.entry.tournament_id == t.pk
    assert david.entry.player.display_name == "David Engel"
    assert david.entry.purchases.count() == 1
    assert list(david.entry.ledger.values_list("method", flat=True)) == ["cash"]


def _context(browser: Any, locale: str, address: str) -> Any:
    context = browser.new_context(
        viewport=PHONE,
        is_mobile=True,
        has_touch=True,
        locale=locale,
        extra_http_headers={"X-Forwarded-For": address, "Accept-Language": locale},
    )
    page = context.new_page()
    page.set_default_timeout(15000)
    return page


def _walk_in(desk: Any, base: str, tournament_id: int, name: str) -> None:
    desk.goto(f"{base}/console/t/{tournament_id}/desk/")
    desk.fill("#id_name", name)
    desk.click("#register-button")
    desk.wait_for_load_state()


def test_walk_ins_share_the_seats_and_one_person_signs_up_once(
    asgi_server, browser, director, actor, make_tournament
):
    """Capacity 6, 2 held back (4 places for sign-ups): a phone signs up in German, four more
    sign up (the last waits); two walk-ins at the desk take the places held back, a third is
    refused with the reason (in German and in English). The public page is full. The German
    phone signing up again is shown its sign-up; another phone with the same e-mail is
    refused without the link."""
    t = make_tournament(status="registering", capacity=6)
    su.sheet_update(
        tournament=t, actor=actor, is_open=True, places=None, reserved=2, check_in_deadline=None
    )
    de = _context(browser, "de-DE", "10.0.1.1")
    en = _context(browser, "en-GB", "10.0.1.2")
    desk_de = _context(browser, "de-DE", "10.0.1.3")
    desk_en = _context(browser, "en-GB", "10.0.1.4")
    try:
        de.goto(f"{asgi_server}/t/{t.pk}/signup/")
        assert de.inner_text("#signup-places .su-big") == "4"
        screenshot(de, "signup-shared-de-open")
        de.fill("#id_display_name", "Anna Berg")
        de.fill("#id_email", "anna@example.org")
        de.check("#id_consent")
        de.click("#signup-submit")
        de.wait_for_url(f"{asgi_server}/signup/*/")
        first = de.url
        for name in ("Ben Cohn", "Clara Dietz", "David Engel", "Eva Fink"):
            su.signup_create(tournament=t, display_name=name, actor=actor)
        assert SignUp.objects.get(display_name="Eva Fink").status == SignUpStatus.WAITING

        login(desk_de, asgi_server, "dir", "pw-director-123")
        login(desk_en, asgi_server, "dir", "pw-director-123")
        for name in ("Walter Eins", "Wilma Zwei"):
            _walk_in(desk_de, asgi_server, t.pk, name)
            assert "angemeldet" in desk_de.inner_text(".messages")
        _walk_in(desk_de, asgi_server, t.pk, "Werner Drei")
        refusal = desk_de.inner_text(".messages .error")
        assert "Alle 6 Plätze sind belegt" in refusal and "1 auf der Warteliste" in refusal
        screenshot(desk_de, "signup-shared-desk-refused-de")
        _walk_in(desk_en, asgi_server, t.pk, "Werner Drei")
        assert "All 6 places are taken" in desk_en.inner_text(".messages .error")
        screenshot(desk_en, "signup-shared-desk-refused-en")
        assert t.entries.count() == 2
        desk_de.goto(f"{asgi_server}/console/t/{t.pk}/signups/")
        assert desk_de.inner_text("#su-free").replace(" ", "") == "0/4"
        screenshot(desk_de, "signup-shared-console-de")

        de.goto(f"{asgi_server}/t/{t.pk}/signup/")
        assert "Warteliste" in de.inner_text("#signup-places")
        screenshot(de, "signup-shared-de-full")
        de.fill("#id_display_name", "Anna Berg")
        de.fill("#id_email", "Anna@Example.org")
        de.check("#id_consent")
        de.click("#signup-submit")
        de.wait_for_url(first)
        assert "Du bist schon angemeldet" in de.inner_text("body")
        screenshot(de, "signup-shared-de-again")

        en.goto(f"{asgi_server}/t/{t.pk}/signup/")
        assert "waiting list" in en.inner_text("#signup-places")
        en.fill("#id_display_name", "Anna B.")
        en.fill("#id_email", "anna@example.org")
        en.check("#id_consent")
        en.click("#signup-submit")
        en.wait_for_selector("#signup-error")
        assert "signed up for this tournament already" in en.inner_text("#signup-error")
        assert first.rsplit("/", 2)[-2] not in en.content()
        screenshot(en, "signup-shared-en-refused")
        assert SignUp.objects.filter(sheet__tournament=t).count() == 5
        for page in (de, en, desk_de, desk_en):
            width = page.evaluate("() => document.documentElement.scrollWidth")
            assert width <= PHONE["width"], (page.url, width)
    finally:
        for page in (de, en, desk_de, desk_en):
            page.context.close()
