"""The end of the tournament on every screen, and screens that fit.

The big screen and the public page switch to the winner and the final results the moment the
last bust is recorded (over the websocket, no reload). The big screen fills 1280×720,
1920×1080, 3840×2160 and a portrait 1080×1920 screen with nothing outside it and no scrolling,
the time's digits at least a quarter of the screen high in landscape; the public pages fit a
360 px phone."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.utils import timezone

from actions.bust import BustReport, entries_bust
from clocks.services import clock_command
from tables import services as seating
from tests.browser.conftest import login
from tournament.models import Tournament
from tournament.services.deals import DealInput, deal_record, players_left

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path("/tmp/shots/endscreens")
SIZES = [(1280, 720), (1920, 1080), (3840, 2160), (1080, 1920)]
NAMES = [
    "Anna Schäfer",
    "Bernd Müller",
    "Carla Weiß",
    "Dieter Groß",
    "Elif Yılmaz",
    "Frank Köhler",
    "Greta Hollmann",
    "Hakan Demir",
    "Ines Brandt",
]

# Everything visible must lie inside the viewport, nothing may scroll, and no panel's content
# may spill out of it (a cut-off figure would be inside the viewport but clipped). A line box a
# little lower than the font's ascent and descent is not a spill: the glyphs still fit.
FIT = """() => {
  const vw = window.innerWidth, vh = window.innerHeight, se = document.scrollingElement;
  const outside = [], spilled = [];
  const name = (el) => el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") +
    (typeof el.className === "string" && el.className ? "." + el.className.split(" ").join(".") : "");
  for (const el of document.querySelectorAll("body *")) {
    if (el.tagName === "SCRIPT" || el.closest("[hidden]")) continue;
    const cs = getComputedStyle(el);
    if (cs.display === "none" || cs.visibility === "hidden") continue;
    const r = el.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;
    if (r.left < -0.5 || r.top < -0.5 || r.right > vw + 0.5 || r.bottom > vh + 0.5) {
      outside.push(`${name(el)} ${Math.round(r.left)},${Math.round(r.top)},${Math.round(r.right)},${Math.round(r.bottom)}`);
    }
    if (cs.display !== "inline" && el.children.length && el.clientHeight && (el.scrollHeight > el.clientHeight * 1.04 + 2 || el.scrollWidth > el.clientWidth + 1)) {
      spilled.push(`${name(el)} ${el.scrollWidth}x${el.scrollHeight} in ${el.clientWidth}x${el.clientHeight}`);
    }
  }
  return { scrollWidth: se.scrollWidth, scrollHeight: se.scrollHeight, vw, vh, outside, spilled };
}"""

# Only sideways: a phone page may be long, but never wider than the phone.
FITS_WIDTH = """() => {
  const vw = window.innerWidth, se = document.scrollingElement, outside = [];
  for (const el of document.querySelectorAll("body *")) {
    if (el.tagName === "SCRIPT" || el.closest("[hidden]")) continue;
    const cs = getComputedStyle(el);
    if (cs.display === "none" || cs.visibility === "hidden") continue;
    const r = el.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;
    if (r.left < -0.5 || r.right > vw + 0.5) outside.push(`${el.tagName} ${el.id} ${el.className} ${Math.round(r.left)}-${Math.round(r.right)}`);
    // A box that scrolls sideways crops what it holds (a wide table in a scrolling wrapper).
    if (el.clientWidth > 1 && el.scrollWidth > el.clientWidth + 1 && cs.overflowX !== "visible") outside.push(`${el.tagName} ${el.className} scrolls ${el.scrollWidth} in ${el.clientWidth}`);
  }
  return { scrollWidth: se.scrollWidth, vw, outside };
}"""

# The height of the digits themselves (not of the line box), in the font the page uses.
DIGIT_HEIGHT = """() => {
  const el = document.getElementById("bs-time"), cs = getComputedStyle(el);
  const ctx = document.createElement("canvas").getContext("2d");
  ctx.font = `${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
  const m = ctx.measureText("0123456789");
  return (m.actualBoundingBoxAscent + m.actualBoundingBoxDescent) / window.innerHeight;
}"""


def shot(page: Any, name: str, *, full_page: bool = False) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=full_page)


def field(make_tournament: Any, register: Any, actor: Any, n: int, **options: Any) -> Any:
    """A tournament of `n` named players, seated, registration closed, the clock running."""
    t = make_tournament(status="registering", venue="Clubraum", **options)
    entries = [register(t, NAMES[i] if i < len(NAMES) else f"Player Number{i}") for i in range(n)]
    clock_command(tournament=t, kind="start", actor=actor)
    Tournament.objects.filter(pk=t.pk).update(registration_closed_at=timezone.now())
    t.refresh_from_db()
    seating.seats_draw(tournament=t, actor=actor)
    return t, entries


def bust(t: Any, entry: Any, actor: Any) -> None:
    entries_bust(tournament=t, busts=[BustReport(entry=entry)], actor=actor)


def assert_fits(page: Any, where: str) -> None:
    fit = page.evaluate(FIT)
    assert fit["scrollWidth"] <= fit["vw"] and fit["scrollHeight"] <= fit["vh"], (where, fit)
    assert not fit["outside"], (where, fit["outside"])
    assert not fit["spilled"], (where, fit["spilled"])


def test_the_winner_appears_live_on_the_big_screen_and_the_public_page(
    asgi_server, browser, actor, make_tournament, register
):
    t, entries = field(make_tournament, register, actor, 4)
    screen_ctx = browser.new_context(viewport={"width": 1920, "height": 1080}, locale="en-GB")
    screen = screen_ctx.new_page()
    phone_ctx = browser.new_context(
        viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True, locale="en-GB"
    )
    phone = phone_ctx.new_page()
    winner_ctx = browser.new_context(
        viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True, locale="en-GB"
    )
    winner_phone = winner_ctx.new_page()  # the winner's own "my seat" page
    for p, url in ((screen, f"/t/{t.pk}/clock/"), (phone, f"/t/{t.pk}/")):
        p.set_default_timeout(15000)
        p.goto(asgi_server + url)
        p.wait_for_function("() => document.getElementById('bs-status').textContent === 'live'")
    winner_phone.set_default_timeout(15000)
    winner_phone.goto(f"{asgi_server}/s/{entries[3].public_token}/")
    winner_phone.wait_for_selector("#seat-table")
    assert screen.is_visible("#bs-time") and not screen.is_visible("#bs-results")
    assert not phone.is_visible("#bs-results")

    for e in entries[:3]:
        bust(t, e, actor)

    # No reload: the pages were opened before the end and are told over the websocket.
    for p in (screen, phone):
        p.wait_for_selector("body.finished #bs-winner", timeout=20000)
        assert p.inner_text("#bs-winner") == "Dieter G."
        assert "tournament over" in p.inner_text("#bs-results").lower()
    assert not screen.is_visible("#bs-time")
    assert screen.evaluate("() => window.floorClock.project().running") is False
    places = screen.inner_text("#bs-places")
    assert "2." in places and "Carla W." in places
    assert phone.inner_text("#bs-winner") == "Dieter G."
    assert not phone.is_visible(".live-clock")
    winner_phone.wait_for_selector("#seat-won", timeout=20000)
    assert "won the tournament" in winner_phone.inner_text("#seat-won")
    shot(winner_phone, "live-finished-my-seat-360", full_page=True)
    shot(screen, "live-finished-1920x1080")
    shot(phone, "live-finished-phone-360", full_page=True)

    # A page opened after the end shows the same.
    phone.reload()
    assert phone.inner_text("#bs-winner") == "Dieter G."
    assert phone.is_visible("#bs-places")
    screen_ctx.close()
    phone_ctx.close()
    winner_ctx.close()


def test_the_big_screen_fits_every_screen(asgi_server, browser, actor, make_tournament, register):
    t, entries = field(
        make_tournament,
        register,
        actor,
        60,
        name="Freitags-Deepstack Clubmeisterschaft",
        buy_in=2_500_050,
        starting_stack=1_000_000,
    )
    contexts = []

    def open_at(width: int, height: int) -> Any:
        ctx = browser.new_context(viewport={"width": width, "height": height}, locale="de-DE")
        contexts.append(ctx)
        page = ctx.new_page()
        page.set_default_timeout(15000)
        page.goto(f"{asgi_server}/t/{t.pk}/clock/")
        page.wait_for_function(
            "() => document.getElementById('bs-time').dataset.levelIndex !== undefined"
        )
        return page

    for width, height in SIZES:
        page = open_at(width, height)
        assert_fits(page, f"running {width}x{height}")
        if width > height:
            assert page.evaluate(DIGIT_HEIGHT) >= 0.25, (width, height)
        shot(page, f"bigscreen-running-{width}x{height}")
    # A break with a colour-up and an hour-long time must fit too.
    clock_command(tournament=t, kind="jump", level=2, actor=actor)
    page = open_at(1920, 1080)
    page.wait_for_function("() => document.body.classList.contains('on-break')")
    assert_fits(page, "break 1920x1080")
    shot(page, "bigscreen-break-1920x1080")

    # The longest figures: blinds in the hundreds of thousands, a level over an hour, a prize
    # pool in the millions (below), an average stack of seven digits.
    last = t.structure.levels.order_by("-position").first()
    last.small_blind, last.big_blind, last.big_blind_ante, last.minutes = 250_000, 500_000, True, 90
    last.save()
    clock_command(tournament=t, kind="jump", level=t.structure.levels.count() - 1, actor=actor)
    for width, height in ((1280, 720), (1080, 1920)):
        page = open_at(width, height)
        page.wait_for_function("() => document.getElementById('bs-time').textContent.length > 5")
        assert "250.000 / 500.000" in page.inner_text("#bs-blinds")
        assert_fits(page, f"long figures {width}x{height}")
        shot(page, f"bigscreen-long-figures-{width}x{height}")

    # Down to three players, a chip-chop deal, then the last busts.
    for e in entries[:57]:
        bust(t, e, actor)
    left = players_left(t)
    deal_record(
        tournament=t,
        data=DealInput(
            stacks={e.pk: s for e, s in zip(left, [600_000, 400_000, 200_000], strict=True)}
        ),
        method="chip_chop",
        consents=[e.pk for e in left],
        actor=actor,
    )
    for e in entries[57:59]:
        bust(t, e, actor)
    t.refresh_from_db()
    assert t.status == "finished"
    for width, height in SIZES:
        page = open_at(width, height)
        page.wait_for_selector("body.finished #bs-winner")
        assert_fits(page, f"finished {width}x{height}")
        assert "Deal" in page.inner_text("#bs-results")
        shot(page, f"bigscreen-finished-{width}x{height}")
    for ctx in contexts:
        ctx.close()


def test_public_pages_fit_a_phone(live_server, browser, actor, make_tournament, register):
    t, entries = field(
        make_tournament, register, actor, 12, name="Freitags-Deepstack Clubmeisterschaft"
    )
    ctx = browser.new_context(
        viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True, locale="de-DE"
    )
    page = ctx.new_page()
    page.set_default_timeout(15000)
    table = entries[0].seat.table.number if hasattr(entries[0], "seat") else 1
    entries[0].refresh_from_db()
    pages = {
        "home": "/",
        "tournament": f"/t/{t.pk}/",
        "find": f"/t/{t.pk}/find/?q=Sch%C3%A4fer",
        "my-seat": f"/s/{entries[0].public_token}/",
        "table": f"/t/{t.pk}/table/{table}/",
    }
    for name, url in pages.items():
        page.goto(live_server.url + url)
        fit = page.evaluate(FITS_WIDTH)
        assert fit["scrollWidth"] <= fit["vw"] and not fit["outside"], (name, fit)
        shot(page, f"public-{name}-360", full_page=True)
    for e in entries[:11]:
        bust(t, e, actor)
    page.goto(f"{live_server.url}/t/{t.pk}/")
    assert page.is_visible("#bs-winner")
    fit = page.evaluate(FITS_WIDTH)
    assert fit["scrollWidth"] <= fit["vw"] and not fit["outside"], ("finished", fit)
    shot(page, "public-tournament-finished-360", full_page=True)
    page.set_viewport_size({"width": 1366, "height": 900})
    shot(page, "public-tournament-finished-1366", full_page=True)
    page.set_viewport_size({"width": 360, "height": 740})
    page.goto(f"{live_server.url}/t/{t.pk}/find/?q={entries[11].number}")
    found = page.inner_text("#find-results")
    assert "Winner" in found or "Sieger" in found
    ctx.close()


def test_the_console_shows_the_winner_and_the_stopped_clock(
    live_server, browser, floor_user, actor, make_tournament, register
):
    t, entries = field(make_tournament, register, actor, 5)
    for e in entries[:4]:
        bust(t, e, actor)
    for width, height, label in ((1366, 900, "desktop"), (390, 844, "phone")):
        ctx = browser.new_context(viewport={"width": width, "height": height}, locale="de-DE")
        page = ctx.new_page()
        page.set_default_timeout(15000)
        login(page, live_server.url, "flo", "pw-floor-123")
        page.goto(f"{live_server.url}/console/t/{t.pk}/players/")
        row = page.locator(
            "tr", has=page.locator(f"td.num:first-child:text-is('{entries[4].number}')")
        )
        # German once the catalogue has the word ("Sieger"), English before.
        assert row.locator(".pill").inner_text() in ("Sieger", "Winner")
        assert "1" in row.locator("td.num").nth(1).inner_text()
        shot(page, f"console-players-finished-{label}", full_page=True)
        page.goto(f"{live_server.url}/console/t/{t.pk}/clock/")
        assert "Uhr steht" in page.inner_text(".cc-ended") or "stopped" in page.inner_text(
            ".cc-ended"
        )
        assert page.locator(".cc-buttons").count() == 0
        shot(page, f"console-clock-finished-{label}", full_page=True)
        ctx.close()
