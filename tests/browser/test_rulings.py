"""A floor person gets cited rulings in the browser, in English and in German, in well under a
minute: an oversized-chip call, an out-of-turn raise and a four-card flop."""

from __future__ import annotations

import time

import pytest

from rules_engine.models import Ruling
from tests.browser.conftest import login, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _rulings(page, base, t, situation):
    page.goto(f"{base}/console/t/{t.pk}/rulings/?situation={situation}")


def test_three_cited_rulings_in_english_and_german(live_server, page, floor_user, make_tournament):
    t = make_tournament(status="running")
    login(page, live_server.url, "flo", "pw-floor-123")
    base = live_server.url

    for language in ("en", "de"):
        started = time.monotonic()
        if language == "de":
            with page.expect_navigation():
                page.select_option("#lang", "de")
        # 1. One 5,000 chip pushed silently against a bet of 400.
        _rulings(page, base, t, "bet_interpretation")
        page.fill("#id_current_bet", "400")
        page.fill("#id_last_raise", "400")
        page.fill("#id_stack", "20000")
        page.fill("#id_chips", "5000")
        page.click("button[value=suggest]")
        page.wait_for_selector(".rule-list li")
        text = page.inner_text("form.card")
        assert "tda-de 1.0 · 49" in text
        assert ("Call: 400 in front." if language == "en" else "Call: 400") in text
        if language == "en":
            page.click("button[value=record]")
            page.wait_for_selector(".messages li.success")
        # 2. A raise out of turn after the player in between bet.
        _rulings(page, base, t, "out_of_turn")
        page.select_option("#id_oot_action", "bet")
        page.check("#id_action_changed")
        page.click("button[value=suggest]")
        page.wait_for_selector(".rule-list li")
        text = page.inner_text("form.card")
        assert "tda-de 1.0 · 44" in text
        assert ("not binding" if language == "en" else "nicht verbindlich") in text
        # 3. Four cards on the flop.
        _rulings(page, base, t, "four_card_flop")
        page.click("button[value=suggest]")
        page.wait_for_selector("ol.steps li")
        text = page.inner_text("form.card")
        assert "tda-de 1.0 · 39" in text
        assert ("Burnkarte" if language == "de" else "burn card") in text
        screenshot(page, f"ruling-four-card-flop-{language}")
        assert time.monotonic() - started < 60
    assert Ruling.objects.get().rules == ["tda-de 49"]


def test_showdown_and_penalty_in_the_browser(
    live_server, page, floor_user, make_tournament, register, actor
):
    from tables import services as tables

    t = make_tournament(status="running", late_registration_until_level=6)
    entries = [register(t) for _ in range(9)]
    tables.seats_draw(tournament=t, actor=actor)
    login(page, live_server.url, "flo", "pw-floor-123")
    _rulings(page, live_server.url, t, "showdown")
    page.fill("#id_board", "Ah Kh Qh 7c 2d")
    page.fill("#id_hands", "1: Jh Th\n2: Ac Ad")
    page.fill("#id_contributions", "1: 3000\n2: 5000\n3: 800")
    page.fill("#id_button", "3")
    page.click("button[value=suggest]")
    page.wait_for_selector("table.showdown")
    text = page.inner_text("form.card")
    assert "straight flush" in text and "Main pot (6,800): seat 1 6,800" in text
    assert "Uncalled: 2000 back to seat 2." in text
    screenshot(page, "ruling-showdown")

    page.goto(f"{live_server.url}/console/t/{t.pk}/penalties/")
    page.fill("#id_number", str(entries[0].number))
    page.fill("#id_reason", "threw cards")
    page.click("button[value=look]")
    page.wait_for_selector("text=Suggested: Warning")
    page.select_option("#id_kind", "rounds")
    page.fill("#id_count", "1")
    page.click("button[value=give]")
    page.wait_for_selector(".messages li.success")
    assert "Sit out 1 round" in page.inner_text("main")
    screenshot(page, "penalties")
