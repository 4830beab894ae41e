"""Chip counts from the dealer tablet in real Chromium, and the counts pages following them
live: the tablet's form at 1280×800 and on a 390 px phone (numeric keypad, keyboard only), the
public counts page and the counts screen updating without a reload, the colour-up page saying
which stacks are counted. Screenshots in /tmp/shots/counts2/."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe

from counts.models import ChipCount
from counts.services import count_record, table_counts_record
from tables import services as seating
from tables.models import Table
from tests.browser.conftest import login
from tests.browser.test_accessibility import audit
from tests.browser.test_chip_counts import _night
from tournament.models import Entry, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path("/tmp/shots/counts2")


def _seated(t: Any, number: int) -> list[Any]:
    return list(
        Entry.objects.filter(tournament=t, seat__table__number=number).order_by("seat__seat")
    )


@pytest.mark.parametrize(
    ("width", "height", "locale"), [(1280, 800, "en-GB"), (390, 844, "de-DE"), (390, 844, "en-GB")]
)
def test_the_dealer_counts_the_table_from_the_tablet(
    asgi_server, browser, actor, make_tournament, width, height, locale
):
    t = _night(make_tournament, actor, players=18)
    table = Table.objects.get(tournament=t, number=1)
    players = _seated(t, 1)
    count_record(tournament=t, entry=players[0], count=19_000, actor=actor)
    SHOTS.mkdir(parents=True, exist_ok=True)
    ctx = browser.new_context(
        viewport={"width": width, "height": height},
        locale=locale,
        is_mobile=width < 500,
        has_touch=width < 500,
    )
    page = ctx.new_page()
    page.set_default_timeout(15000)
    page.goto(f"{asgi_server}/d/{table.dealer_token}/")
    page.wait_for_selector("button.seat")
    page.click("#chip-counts")
    page.wait_for_selector(".dc-row input")
    fields = page.locator(".dc-row input")
    assert fields.count() == len(players)
    assert fields.first.get_attribute("inputmode") == "numeric"
    assert page.evaluate("() => document.scrollingElement.scrollWidth") <= width
    tag = f"{width}x{height}-{locale[:2]}"
    # A phone's shot shows the screen as the dealer sees it, the buttons at the bottom.
    page.screenshot(path=str(SHOTS / f"tablet-form-{tag}.png"), full_page=width > 500)
    audit(Axe(), page, f"dealer counts {tag}")
    # Keyboard only: type into the second field onwards, the first stays blank (unchanged).
    fields.nth(1).focus()
    for i in range(1, fields.count()):
        page.keyboard.type(f"{21 + i}.000" if locale == "de-DE" else f"{21 + i},000")
        page.keyboard.press("Tab")
    page.screenshot(path=str(SHOTS / f"tablet-form-typed-{tag}.png"), full_page=width > 500)
    page.click("#dc-save")
    page.wait_for_selector(".messages li.success")
    page.screenshot(path=str(SHOTS / f"tablet-form-saved-{tag}.png"), full_page=width > 500)
    page.click(".dc-actions a")  # back to the table
    page.wait_for_url(re.compile(rf"/d/{table.dealer_token}/$"))
    page.wait_for_selector("button.seat")
    page.screenshot(path=str(SHOTS / f"tablet-after-{tag}.png"))
    rows = ChipCount.objects.filter(tournament=t, source="dealer")
    assert rows.count() == len(players) - 1
    assert ChipCount.objects.filter(entry=players[0]).get().count == 19_000  # blank: unchanged
    ctx.close()


def test_the_counts_pages_follow_new_counts_without_a_reload(
    asgi_server, browser, actor, make_tournament
):
    t = _night(make_tournament, actor, players=27)
    SHOTS.mkdir(parents=True, exist_ok=True)
    phone = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-GB")
    public = phone.new_page()
    public.set_default_timeout(15000)
    public.goto(f"{asgi_server}/t/{t.pk}/counts/")
    public.wait_for_function(
        "() => document.getElementById('counts-public').dataset.live === 'live'"
    )
    assert "No counts yet." in public.inner_text("#cl-leaders")
    big = browser.new_context(viewport={"width": 1280, "height": 720}, locale="de-DE")
    screen = big.new_page()
    screen.set_default_timeout(15000)
    screen.goto(f"{asgi_server}/t/{t.pk}/counts/screen/")
    screen.wait_for_function(
        "() => document.getElementById('counts-screen').dataset.live === 'live'"
    )
    assert screen.locator("#cs-rows tr").count() == 0
    seated = _seated(t, 2)
    table_counts_record(
        tournament=t,
        table_number=2,
        counts={e.pk: 30_000 + 1_000 * i for i, e in enumerate(seated)},
        actor=actor,
        source="dealer",
    )
    top = 30_000 + 1_000 * (len(seated) - 1)
    public.wait_for_function(
        "(top) => document.getElementById('cl-leaders').textContent.includes(top)",
        arg=f"{top:,}",
    )
    screen.wait_for_function(
        "(n) => document.querySelectorAll('#cs-rows tr').length === n", arg=len(seated)
    )
    public.screenshot(path=str(SHOTS / "public-live-390.png"), full_page=True)
    screen.screenshot(path=str(SHOTS / "screen-live-1280x720.png"))
    phone.close()
    big.close()


def test_the_colour_up_page_says_which_stacks_are_counted(
    asgi_server, browser, actor, director, make_tournament
):
    t = _night(make_tournament, actor, players=18)
    table = Table.objects.get(tournament=t, number=1)
    players = _seated(t, 1)
    seating.button_set(table=table, seat=players[0].seat.seat, actor=actor)
    table_counts_record(
        tournament=t,
        table_number=1,
        counts={e.pk: 15_000 + 2_500 * i for i, e in enumerate(players[:5])},
        actor=actor,
        source="dealer",
    )
    SHOTS.mkdir(parents=True, exist_ok=True)
    for width, locale, ruleset in ((1280, "en-GB", "bdpv"), (390, "de-DE", "tda-de")):
        Tournament.objects.filter(pk=t.pk).update(ruleset=ruleset, ruleset_version="")
        ctx = browser.new_context(viewport={"width": width, "height": 900}, locale=locale)
        page = ctx.new_page()
        page.set_default_timeout(15000)
        login(page, asgi_server, "dir", "pw-director-123")
        page.goto(f"{asgi_server}/console/t/{t.pk}/colour-up/?table=1&removed=25&new_value=100")
        page.wait_for_selector("#cu-stacks")
        assert page.locator(".cu-stack em").count() == len(players) - 5  # estimates in italics
        wide = page.evaluate(
            "(w) => [...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > w + 1 && !e.closest('.tabs, nav, .table-wrap')).slice(0, 8).map((e) => e.tagName + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right))",
            width,
        )
        assert page.evaluate("() => document.scrollingElement.scrollWidth") <= width, wide
        page.screenshot(path=str(SHOTS / f"colour-up-{width}-{locale[:2]}.png"), full_page=True)
        audit(Axe(), page, f"colour-up with counts {width} {locale[:2]}")
        ctx.close()
