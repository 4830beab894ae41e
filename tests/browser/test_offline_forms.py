"""The desk's and the phone console's forms without a connection (issue #57 part 4), in real
Chromium: the form is not sent, says so in words and keeps what was typed; when the connection
is back it says so, and sending it then registers the player once."""

from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe

from tests.browser.conftest import login, screenshot
from tests.browser.test_accessibility import audit
from tournament.models import Event

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize(("locale", "width"), [("en-GB", 1366), ("de-DE", 390)])
def test_the_desk_form_offline_is_not_sent_and_keeps_what_was_typed(
    live_server, new_page, floor_user, make_tournament, locale, width
):
    t = make_tournament(status="registering")
    page = new_page({"width": width, "height": 900}, locale=locale, phone=width < 500)
    login(page, live_server.url, "flo", "pw-floor-123")
    page.goto(f"{live_server.url}/console/t/{t.pk}/desk/")
    page.fill("#id_name", "Paul Hartmann")
    page.fill("#id_display_name", "Paul H.")
    page.context.set_offline(True)
    page.click("#register-form button[type=submit]")
    note = page.locator("#register-form .not-sent")
    note.wait_for()
    expected = "Not sent – no connection" if locale == "en-GB" else "Nicht gesendet – keine"
    assert expected in note.inner_text()
    assert note.get_attribute("role") == "alert"
    assert page.input_value("#id_name") == "Paul Hartmann"
    assert page.url.endswith(f"/console/t/{t.pk}/desk/")
    note.scroll_into_view_if_needed()
    screenshot(page, f"desk-not-sent-{width}-{locale[:2]}")
    audit(Axe(), page, f"desk not sent {width} {locale[:2]}")
    assert not t.entries.exists()

    page.context.set_offline(False)
    page.wait_for_function(
        "() => document.querySelector('#register-form .not-sent').dataset.kind === 'backOnline'"
    )
    page.click("#register-form button[type=submit]")
    page.wait_for_selector(".messages li.success")
    assert t.entries.filter(player__name="Paul Hartmann").count() == 1


def test_the_phone_clock_buttons_offline_say_not_sent(
    live_server, new_page, floor_user, make_tournament
):
    t = make_tournament(status="running")
    page = new_page({"width": 390, "height": 844}, phone=True)
    login(page, live_server.url, "flo", "pw-floor-123")
    page.goto(f"{live_server.url}/console/t/{t.pk}/phone/")
    button = page.locator("#phone-clock .ph-controls button").first
    button.wait_for()
    page.context.set_offline(True)
    button.click()
    page.wait_for_selector("#phone-clock .not-sent")
    assert "Not sent – no connection" in page.inner_text("#phone-clock .not-sent")
    assert page.url.endswith(f"/console/t/{t.pk}/phone/")
    assert not Event.objects.filter(tournament=t, action__startswith="clock.").exists()
    page.context.set_offline(False)
    page.wait_for_selector("#phone-clock .not-sent[data-kind='backOnline']")
    button.click()
    page.wait_for_function("() => !document.querySelector('#phone-clock .not-sent')")
    assert Event.objects.filter(tournament=t, action__startswith="clock.").exists()
