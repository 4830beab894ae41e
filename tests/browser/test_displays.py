"""The display manager in Chromium: a screen pairs with its code, the director assigns views and
the screen switches live; every view fills 1280×720, 1920×1080, 3840×2160 and portrait
1080×1920 with nothing cut off and no scrollbars; axe over the console pages and the views.

Screenshots of every view at every size go to $FLOOR_SHOTS (default test-artifacts/displays)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import ARTIFACTS
from tests.browser.test_accessibility import audit

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {
    "1280x720": {"width": 1280, "height": 720},
    "1920x1080": {"width": 1920, "height": 1080},
    "3840x2160": {"width": 3840, "height": 2160},
    "1080x1920": {"width": 1080, "height": 1920},
}
SHOTS = Path(os.environ.get("FLOOR_SHOTS", str(ARTIFACTS / "displays")))

# Whether anything of the page lies outside the screen, or a box's content is cut by its box
# (scrolled or clipped): the element, for the failure message; null when all fits.
FITS = """() => {
  const W = innerWidth, H = innerHeight, doc = document.documentElement;
  if (doc.scrollWidth > W || doc.scrollHeight > H) return `page scrolls ${doc.scrollWidth}x${doc.scrollHeight}`;
  const clips = (el) => { const s = getComputedStyle(el); return s.overflowX !== "visible" || s.overflowY !== "visible"; };
  for (const el of document.querySelectorAll("body *")) {
    if (el.closest("[hidden]") || el.matches("script, template, .sr-only, .sr-only *")) continue;
    const s = getComputedStyle(el);
    if (s.display === "none" || s.visibility === "hidden") continue;
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height) continue;
    const name = `${el.tagName}.${String(el.className).trim()} "${el.textContent.trim().slice(0, 30)}"`;
    if (r.right > W + 1 || r.bottom > H + 1 || r.left < -1 || r.top < -1)
      return `${name} outside the screen: ${Math.round(r.right)}x${Math.round(r.bottom)}`;
    // Text cut by its own box (ellipsis, hidden overflow) ...
    if (el.children.length === 0 && el.textContent.trim() && clips(el) && el.clientWidth
        && (el.scrollWidth > el.clientWidth + 2 || el.scrollHeight > el.clientHeight + 2))
      return `${name} cut by its box`;
    // ... or by a box around it that hides what overflows.
    for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) {
      if (!clips(up)) continue;
      const b = up.getBoundingClientRect();
      if (r.right > b.right + 2 || r.bottom > b.bottom + 2 || r.left < b.left - 2 || r.top < b.top - 2)
        return `${name} cut by ${up.tagName}.${String(up.className).trim()}`;
      break;
    }
  }
  return null;
}"""


# Resolves when the page's fonts are in and two frames have been laid out since: what the
# screen draws on load (its figures, the sizes fitted to their boxes) is on it.
SETTLED = """() => document.fonts.ready.then(
  () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))))"""


def _night() -> dict[str, int]:
    """A running tournament (clock started, 60 seated, 6 out) and a second one for the lobby,
    a public league season; their ids. Made by a director of its own ("night")."""
    from django.contrib.auth.models import User

    from actions.bust import BustReport, entries_bust
    from clocks.services import clock_command
    from leagues import services as leagues
    from tables import services as seating
    from tests.makers import chip_set_made, registrar, template_made, tournament_maker
    from tournament.events import Actor

    actor = Actor(user=User.objects.create_user("night"), label="night", source="127.0.0.1")
    make_tournament = tournament_maker(actor, chip_set_made(), template_made())
    register = registrar(actor)

    t = make_tournament(name="Sunday Deepstack", status="running", venue="Casino am See")
    first = [
        "Anna",
        "Bernd",
        "Carla",
        "Dieter",
        "Emil",
        "Frieda",
        "Gustav",
        "Hanna",
        "Ida",
        "Jonas",
    ]
    last = ["Albers", "Brandt", "Conrad", "Dressler", "Engel", "Fischer"]
    entries = [register(t, name=f"{f} {s}") for s in last for f in first]
    seating.tables_create(tournament=t, count=7, actor=actor)
    seating.seats_draw(tournament=t, actor=actor)
    clock_command(tournament=t, kind="start", actor=actor)
    for victim in entries[:6]:
        entries_bust(tournament=t, busts=[BustReport(entry=victim)], actor=actor)
    turbo = make_tournament(name="Thursday Turbo", status="registering")
    for i in range(9):
        register(turbo, name=f"Turbo Player{i}")
    league = leagues.league_create(name="Freitagsliga", public=True)
    season = leagues.season_create(league=league, name="2026")
    return {"t": t.pk, "turbo": turbo.pk, "season": season.pk}


@pytest.fixture
def night(transactional_db: Any, made_once: Any) -> dict[str, Any]:
    """`_night`, made by the first test of the module that asks and put back from a snapshot
    for every later one (tests/browser/conftest.py `made_once`); fresh rows for each test."""
    from leagues.models import Season
    from tournament.models import Tournament

    made = made_once(_night)
    return {
        "t": Tournament.objects.get(pk=made["t"]),
        "turbo": Tournament.objects.get(pk=made["turbo"]),
        "season": Season.objects.get(pk=made["season"]),
    }


@pytest.fixture
def director(request: Any, db: Any) -> Any:
    """The conftest's director, made after the night is put back where a test has both (a
    snapshot put back would remove a director made before it)."""
    if "night" in request.fixturenames:
        request.getfixturevalue("night")
    from tests.makers import director_made

    return director_made()


@pytest.fixture
def axe() -> Any:
    from axe_playwright_python.sync_playwright import Axe

    return Axe()


def _director(page: Any, base: str) -> None:
    from django.contrib.auth.models import Group, User

    from core.roles import DIRECTOR

    user = User.objects.create_user("screens", password="screens-pass-1")
    user.groups.add(Group.objects.get_or_create(name=DIRECTOR)[0])
    page.goto(f"{base}/login/")
    page.fill("#id_username", "screens")
    page.fill("#id_password", "screens-pass-1")
    page.click("button[type=submit]")
    page.wait_for_url(f"{base}/console/")


def _shown(screen: Any, version: int) -> None:
    screen.wait_for_function(
        "(v) => window.floorDisplay && window.floorDisplay.shown && window.floorDisplay.shown.endsWith(`v=${v}`)",
        arg=version,
        timeout=20000,  # under two test workers a first view can take a while
    )


def test_pair_assign_and_switch_live(asgi_server, night, new_page, axe):
    from displays.models import Display

    screen = new_page(SIZES["1920x1080"])
    screen.goto(f"{asgi_server}/display/")
    code = screen.inner_text("#ds-code").strip()
    assert len(code) == 6
    SHOTS.mkdir(parents=True, exist_ok=True)
    screen.screenshot(path=str(SHOTS / "pairing-1920x1080.png"))
    audit(axe, screen, "display pairing code")

    console = new_page({"width": 1280, "height": 900})
    _director(console, asgi_server)
    console.goto(f"{asgi_server}/console/displays/")
    console.fill("#pair-code", code.lower())
    console.fill("#pair-name", "Bar")
    console.click("#pair-submit")
    console.wait_for_url("**/console/displays/*/")
    screen.wait_for_selector("#ds-wait:not([hidden])")
    assert "Bar" in screen.inner_text("#ds-wait")
    display = Display.objects.get(name="Bar")

    # The director chooses the clock, portrait layout, without the average stack.
    console.select_option("#s1-kind", "clock")
    console.select_option("#s1-tournament", str(night["t"].pk))
    console.select_option("#s1-layout", "portrait")
    console.uncheck("#step-1 input[value=average]")
    console.click("#assign-submit")
    console.wait_for_selector(".messages li.success")
    _shown(screen, 2)
    frame = screen.frame_locator("iframe.ds-frame:not(.loading)")
    assert frame.locator("body.dl-portrait.dl-no-average").count() == 1
    audit(axe, console, "console display edit")
    console.screenshot(path=str(SHOTS / "console-edit-1280.png"), full_page=True)

    # A rotation: the seating list and the payouts; then the screen is switched back.
    console.select_option("#s2-kind", "seating")
    console.select_option("#s2-tournament", str(night["t"].pk))
    console.fill("#s1-seconds", "5")
    console.fill("#s2-seconds", "5")
    console.click("#assign-submit")
    console.wait_for_selector(".messages li.success")
    _shown(screen, 3)
    screen.wait_for_function(
        "() => window.floorDisplay.shown && window.floorDisplay.shown.startsWith('/display/view/1/')",
        timeout=12000,
    )

    # Refused: markup on a slide; the screen keeps what it shows.
    console.select_option("#s3-kind", "slide")
    console.fill("#s3-title", "<b>Free drinks</b>")
    console.click("#assign-submit")
    assert "plain text" in console.inner_text(".messages")
    display.refresh_from_db()
    assert display.version == 3

    console.goto(f"{asgi_server}/console/displays/")
    audit(axe, console, "console displays")
    console.screenshot(path=str(SHOTS / "console-1280.png"), full_page=True)
    console.set_viewport_size({"width": 390, "height": 844})
    console.screenshot(path=str(SHOTS / "console-390.png"), full_page=True)
    console.goto(f"{asgi_server}/console/displays/{display.pk}/")
    console.screenshot(path=str(SHOTS / "console-edit-390.png"), full_page=True)
    audit(axe, console, "console display edit (390 px)")


def test_a_deleted_tournament_leaves_the_last_good_view(asgi_server, night, new_page, actor):
    from displays.domain.views import Kind, Step
    from displays.models import Display
    from displays.services import display_assign, display_pair

    screen = new_page(SIZES["1280x720"])
    screen.goto(f"{asgi_server}/display/")
    display = Display.objects.get(code=screen.inner_text("#ds-code").strip())
    display_pair(code=display.code, name="Lounge", actor=actor)
    turbo = night["turbo"]
    display_assign(
        display_id=display.pk,
        steps=[
            Step(Kind.SLIDE, title="Welcome", seconds=5),
            Step(Kind.PAYOUTS, tournament=turbo.pk, seconds=5),
        ],
        actor=actor,
    )
    _shown(screen, 2)
    turbo.delete()
    screen.wait_for_timeout(6500)  # the payouts' turn came: gone, so the slide stays
    assert screen.evaluate("() => window.floorDisplay.shown").startswith("/display/view/0/")
    assert screen.locator("iframe.ds-frame").count() >= 1


def logo_png() -> bytes:
    """A wide event logo (a dark card with a gold ring and a word), as a club would upload."""
    from io import BytesIO

    image = pytest.importorskip("PIL.Image")
    draw_module = pytest.importorskip("PIL.ImageDraw")
    font_module = pytest.importorskip("PIL.ImageFont")
    logo = image.new("RGBA", (600, 200), (0, 0, 0, 0))
    draw = draw_module.Draw(logo)
    draw.rounded_rectangle((4, 4, 596, 196), radius=36, fill=(255, 213, 79, 255))
    draw.ellipse((30, 30, 170, 170), fill=(26, 35, 126, 255))
    draw.ellipse((62, 62, 138, 138), fill=(255, 213, 79, 255))
    font = font_module.load_default(size=64)
    draw.text((200, 62), "CASINO", fill=(26, 35, 126, 255), font=font)
    out = BytesIO()
    logo.save(out, format="PNG")
    return out.getvalue()


def _event_layout(t: Any, actor: Any, arrangement: str = "standard") -> None:
    """The tournament's layout: every figure in an order of its own, colours and a logo; and
    chip counts, so that the chip leaders show."""
    from counts.services import counts_record
    from displays.layout_services import clock_layout_save
    from tournament.models import EntryStatus

    clock_layout_save(
        tournament=t,
        arrangement=arrangement,
        figures=["players", "leaders", "average", "break", "entries", "pool"],
        background="#1a237e",
        accent="#ffd54f",
        logo=logo_png(),
        actor=actor,
    )
    live = list(t.entries.filter(status=EntryStatus.ACTIVE).order_by("number"))
    counts_record(
        tournament=t,
        counts={e.pk: 9_000 + 400 * i for i, e in enumerate(live)},
        actor=actor,
    )


VIEWS = [
    "clock-standard",
    "clock-clock_only",
    "clock-portrait",
    "clock-logo",
    "clock-event",
    "leaders",
    "lobby",
    "seating",
    "tables",
    "payouts",
    "results",
    "standings",
    "slide",
]


@pytest.mark.parametrize("view", VIEWS)
def test_every_view_fills_every_screen(asgi_server, night, new_page, axe, actor, view):
    from displays.domain.views import Figure, Kind, Layout, Step
    from displays.services import display_assign, display_open, display_pair

    t = night["t"]
    step = {
        "lobby": Step(Kind.LOBBY, tournaments=(t.pk, night["turbo"].pk)),
        "seating": Step(Kind.SEATING, tournament=t.pk),
        "tables": Step(Kind.TABLES, tournament=t.pk),
        "payouts": Step(Kind.PAYOUTS, tournament=t.pk),
        "results": Step(Kind.RESULTS, tournament=t.pk),
        "standings": Step(Kind.STANDINGS, season=night["season"].pk),
        "slide": Step(
            Kind.SLIDE,
            title="Happy hour at the bar",
            text="Every drink half price until 21:00.\nFish & chips < 10 €.",
        ),
    }.get(view)
    if view == "leaders":
        _event_layout(t, actor)
        step = Step(Kind.LEADERS, tournament=t.pk, top=25)
    if step is None:
        layout = Layout(view.split("-", 1)[1])
        figures = () if layout == Layout.CLOCK_ONLY else tuple(Figure)
        step = Step(Kind.CLOCK, tournament=t.pk, layout=layout, figures=figures)
        _event_layout(t, actor, arrangement="logo" if layout == Layout.EVENT else "standard")
    display, token = display_open()
    display_pair(code=display.code, name="Hall", actor=actor)
    display_assign(display_id=display.pk, steps=[step], actor=actor)
    SHOTS.mkdir(parents=True, exist_ok=True)
    for size, viewport in SIZES.items():
        page = new_page(viewport)
        page.context.add_cookies([{"name": "floor_display", "value": token, "url": asgi_server}])
        page.goto(f"{asgi_server}/display/")
        page.wait_for_function("() => window.floorDisplay && window.floorDisplay.shown")
        frame = page.frame_locator("iframe.ds-frame:not(.loading)")
        frame.locator("body.dv-ok").wait_for()
        # The socket's first message (the state the page had already) keeps the view shown.
        page.wait_for_function("() => window.floorDisplay.received >= 2")
        inner = page.locator("iframe.ds-frame:not(.loading)").element_handle().content_frame()
        inner.evaluate(SETTLED)
        assert page.evaluate("() => window.floorDisplay.loads") == 1
        page.screenshot(path=str(SHOTS / f"{view}-{size}.png"))
        problem = inner.evaluate(FITS)
        assert problem is None, f"{view} at {size}: {problem}"
        assert page.evaluate(FITS) is None
        if size == "1920x1080":
            page.goto(f"{asgi_server}/display/view/0/")
            audit(axe, page, f"display view {view}")


def test_the_layout_editor_previews_refuses_and_saves(asgi_server, night, new_page, axe):
    """The director arranges the tournament's clock: the preview follows every change before
    saving, a background too light for the white text is said in words (and refused on
    saving), a logo is uploaded; the big screen then shows the layout at every size."""
    from displays.models import ClockLayout

    t = night["t"]
    console = new_page({"width": 1280, "height": 900})
    _director(console, asgi_server)
    console.goto(f"{asgi_server}/console/t/{t.pk}/layout/")
    audit(axe, console, "clock layout editor")
    preview = console.locator("#le-preview")
    # Entries first, the prize pool left out.
    console.check("#le-show-entries")
    console.select_option("#le-pos-entries", "1")
    console.uncheck("#le-show-pool")
    order = console.eval_on_selector_all(
        "#lp-side .lp-box:not([hidden])", "(boxes) => boxes.map((b) => b.dataset.figure)"
    )
    assert order[0] == "entries" and "pool" not in order
    console.select_option("#le-arrangement", "logo")
    assert "lp-logo" in (preview.get_attribute("class") or "")
    console.select_option("#le-arrangement", "standard")
    # A light background: the note says so in words before saving, and saving is refused.
    console.locator("#le-background").fill("#8a8a8a")
    assert "Saving will be refused" in console.locator("#le-contrast").inner_text()
    console.click("#layout-save")
    assert "too light for the white text" in console.locator(".messages").inner_text()
    assert not ClockLayout.objects.exists()
    # A dark blue and a gold accent, and a logo: the preview shows them at once.
    console.locator("#le-background").fill("#1a237e")
    console.locator("#le-accent").fill("#ffd54f")
    assert "Readable" in console.locator("#le-contrast").inner_text()
    assert preview.evaluate("(p) => p.style.getPropertyValue('--p-bg')") == "#1a237e"
    console.set_input_files(
        "#le-logo", files=[{"name": "logo.png", "mimeType": "image/png", "buffer": logo_png()}]
    )
    console.wait_for_function(
        "() => document.getElementById('lp-logo-big').src.startsWith('data:')"
    )
    console.check("#le-show-leaders")
    console.select_option("#le-arrangement", "logo")
    SHOTS.mkdir(parents=True, exist_ok=True)
    console.screenshot(path=str(SHOTS / "editor-1280.png"), full_page=True)
    console.click("#layout-save")
    assert "Layout saved" in console.locator(".messages").inner_text()
    row = ClockLayout.objects.get(tournament=t)
    assert row.arrangement == "logo" and row.figures[0] == "entries" and row.has_logo
    phone = new_page({"width": 390, "height": 844})
    phone.context.add_cookies(console.context.cookies())
    phone.goto(f"{asgi_server}/console/t/{t.pk}/layout/")
    phone.screenshot(path=str(SHOTS / "editor-390.png"), full_page=True)
    assert phone.evaluate("() => document.documentElement.scrollWidth <= innerWidth + 1")
    # The plain big screen in the saved layout, at every size.
    for size, viewport in SIZES.items():
        page = new_page(viewport)
        page.goto(f"{asgi_server}/t/{t.pk}/clock/")
        page.locator("body.dl-logo.dl-themed").wait_for()
        page.wait_for_function("() => document.querySelector('.bs-logo-big').complete")
        page.evaluate(SETTLED)
        page.screenshot(path=str(SHOTS / f"bigscreen-logo-{size}.png"))
        problem = page.evaluate(FITS)
        assert problem is None, f"big screen at {size}: {problem}"
        if size == "1920x1080":
            audit(axe, page, "big screen in a layout")


def test_a_full_page_of_payouts_fits_a_portrait_screen(
    asgi_server, make_tournament, register, new_page, actor
):
    """Thirty places (three tables of ten) stay side by side on a portrait screen."""
    from displays.domain.views import Kind, Step
    from displays.services import display_assign, display_open, display_pair

    t = make_tournament(name="Big Field", status="registering", places_paid=30)
    for i in range(40):
        register(t, name=f"Field Player{i}")
    display, token = display_open()
    display_pair(code=display.code, name="Portrait", actor=actor)
    display_assign(display_id=display.pk, steps=[Step(Kind.PAYOUTS, tournament=t.pk)], actor=actor)
    page = new_page({"width": 1080, "height": 1920})
    page.context.add_cookies([{"name": "floor_display", "value": token, "url": asgi_server}])
    page.goto(f"{asgi_server}/display/")
    page.wait_for_function("() => window.floorDisplay && window.floorDisplay.shown")
    page.frame_locator("iframe.ds-frame:not(.loading)").locator("body.dv-ok").wait_for()
    inner = next(f for f in page.frames if "/display/view/" in f.url)
    inner.evaluate(SETTLED)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "payouts-30-1080x1920.png"))
    assert inner.locator("td:text-is('30.')").count() == 1
    assert inner.evaluate(FITS) is None


# Every frame records what it speaks into the screen's own list.
SPEECH_IN_FRAMES = """
if (window.top === window) window.__allSpoken = [];
window.SpeechSynthesisUtterance = class { constructor(text) { this.text = text; } };
Object.defineProperty(window, "speechSynthesis", { configurable: true, value: {
  getVoices: () => [{ name: "Test English", lang: "en-GB", localService: true }],
  addEventListener() {}, cancel() {},
  speak(u) { if (u.text) { try { window.top.__allSpoken.push(u.text); } catch (e) {} }
             setTimeout(() => u.onend && u.onend(), 50); },
} });
"""


def test_a_speaking_clock_in_a_rotation_announces_a_level_that_starts_on_another_turn(
    asgi_server, make_tournament, browser, actor
):
    """The clock (with sound) and a slide take turns: the level that starts while the slide is
    shown is still said once, by the clock's page waiting hidden for its turn."""
    from clocks.services import clock_command
    from displays.domain.views import Kind, Step
    from displays.services import display_assign, display_open, display_pair

    t = make_tournament(status="running")
    clock_command(tournament=t, kind="start", actor=actor)
    display, token = display_open()
    display_pair(code=display.code, name="Bar", actor=actor)
    display_assign(
        display_id=display.pk,
        steps=[
            Step(Kind.CLOCK, tournament=t.pk, sound=True, seconds=5),
            Step(Kind.SLIDE, title="Bar", text="Open", seconds=30),
        ],
        actor=actor,
    )
    context = browser.new_context(viewport={"width": 1280, "height": 720}, locale="en-GB")
    context.add_init_script(SPEECH_IN_FRAMES)
    context.add_cookies([{"name": "floor_display", "value": token, "url": asgi_server}])
    page = context.new_page()
    try:
        page.goto(f"{asgi_server}/display/")
        page.wait_for_function(
            "() => (window.floorDisplay.shown || '').startsWith('/display/view/1/')", timeout=15000
        )
        clock_command(tournament=t, kind="set_remaining", seconds=2, actor=actor)
        page.wait_for_function(
            "() => window.__allSpoken.some((s) => s.includes('Level 2'))", timeout=15000
        )
        assert page.evaluate("() => window.floorDisplay.shown").startswith("/display/view/1/")
        page.wait_for_timeout(1500)
        spoken = page.evaluate("() => window.__allSpoken")
        assert sum("Level 2" in s for s in spoken) == 1, spoken
    finally:
        context.close()


@pytest.mark.parametrize(
    ("locale", "ante", "date"),
    [
        ("en-GB", "BB ante 1,000", "Wed 25 Nov 2026"),
        ("de-DE", "BB-Ante 1.000", "Mi., 25. Nov. 2026"),
    ],
)
def test_the_lobby_says_the_big_blind_ante_and_the_date_in_its_language(
    asgi_server, make_tournament, new_page, actor, locale, ante, date
):
    """A big-blind ante is shown with its amount (the big blind, as on the big screen), and the
    date is written as the page's language writes it, not in the US short form."""
    import datetime
    from unittest import mock

    from clocks.services import clock_command
    from displays.domain.views import Kind, Step
    from displays.services import display_assign, display_open, display_pair

    t = make_tournament(name="Deepstack", status="running")
    first = t.structure.levels.order_by("position").first()
    first.small_blind, first.big_blind, first.ante, first.big_blind_ante = 500, 1000, 0, True
    first.save()
    clock_command(tournament=t, kind="start", actor=actor)
    display, token = display_open()
    display_pair(code=display.code, name="Lobby", actor=actor)
    display_assign(
        display_id=display.pk, steps=[Step(Kind.LOBBY, tournaments=(t.pk,))], actor=actor
    )
    page = new_page(SIZES["1920x1080"], locale=locale)
    page.context.add_cookies([{"name": "floor_display", "value": token, "url": asgi_server}])
    at = datetime.datetime(2026, 11, 25, 18, 30, tzinfo=datetime.UTC)
    # Only the view's own name for the time module is replaced: patching
    # django.utils.timezone.now itself would also date the clock snapshot the page fetches while
    # it loads three days back, and the lobby would then think the clock has not started.
    with mock.patch("displays.views.timezone") as tz:
        tz.now.return_value = at
        page.goto(f"{asgi_server}/display/view/0/")
    blinds = page.locator("[data-f=blinds]")
    page.wait_for_function(
        "(a) => document.querySelector('[data-f=blinds]').textContent.includes(a)", arg=ante
    )
    assert blinds.inner_text().endswith(ante)
    assert page.inner_text(".dv-sub") == date
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"lobby-bb-ante-{locale}.png"))


# The table map is read from across the room: at 1920×1080 no word on a card under 2.4 % of
# the screen's height (26 px), the table numbers at least 7 % (76 px).
CARD_TEXT = """() => [...document.querySelectorAll('.dv-pg:not([hidden]) .dv-tcard *')]
  .filter((e) => e.children.length === 0 && e.textContent.trim())
  .map((e) => ({ cls: e.className, text: e.textContent.trim(), px: parseFloat(getComputedStyle(e).fontSize) }))"""


@pytest.mark.parametrize("numbers", ["two digits", "three digits"])
def test_a_full_table_map_is_readable_across_the_room(
    asgi_server, make_tournament, register, new_page, actor, numbers
):
    """24 tables of ten with an area, some nearly empty (open seats 1–8) or every other seat
    open (2, 4, 6, 8, 10): everything fits the four screens and stays large at 1920×1080."""
    from django.db.models import F

    from displays.domain.views import Kind, Step
    from displays.services import display_assign, display_open, display_pair
    from tables import services as seating
    from tables.models import SeatAssignment, Table

    t = make_tournament(name="Big Field", status="running", seats_per_table=10)
    for i in range(235):  # 24 tables of ten
        register(t, name=f"Field Player{i}")
    seating.tables_create(tournament=t, count=24, area="Hauptsaal", actor=actor)
    seating.seats_draw(tournament=t, actor=actor)
    tables = list(Table.objects.filter(tournament=t).order_by("number"))
    SeatAssignment.objects.filter(table=tables[0], seat__in=[2, 4, 6, 8, 10]).delete()
    SeatAssignment.objects.filter(table=tables[1], seat__lte=8).delete()
    SeatAssignment.objects.filter(table=tables[2], seat__in=[1, 3, 5, 7, 8, 9]).delete()
    if numbers == "three digits":
        Table.objects.filter(tournament=t).update(number=F("number") + 100)
    display, token = display_open()
    display_pair(code=display.code, name="Map", actor=actor)
    display_assign(display_id=display.pk, steps=[Step(Kind.TABLES, tournament=t.pk)], actor=actor)
    SHOTS.mkdir(parents=True, exist_ok=True)
    for locale in ("en-GB", "de-DE"):
        for size, viewport in SIZES.items():
            page = new_page(viewport, locale=locale)
            page.context.add_cookies(
                [{"name": "floor_display", "value": token, "url": asgi_server}]
            )
            page.goto(f"{asgi_server}/display/view/0/")
            page.locator("body.dv-ok").wait_for()
            page.screenshot(path=str(SHOTS / f"table-map-24-{numbers[:5]}-{size}-{locale}.png"))
            problem = page.evaluate(FITS)
            assert problem is None, f"table map at {size} ({locale}): {problem}"
            if size != "1920x1080":
                continue
            texts = page.evaluate(CARD_TEXT)
            assert len([x for x in texts if "dv-tno" in x["cls"]]) == 24
            small = [x for x in texts if x["px"] < 0.024 * 1080]
            assert not small, small[:3]
            numbers_px = [x["px"] for x in texts if "dv-tno" in x["cls"]]
            assert min(numbers_px) >= 0.07 * 1080 or numbers == "three digits"
            assert min(numbers_px) >= 0.055 * 1080
            words = " ".join(x["text"] for x in texts)
            assert ("Open: 1–8" if locale == "en-GB" else "Frei: 1–8") in words


@pytest.mark.parametrize(
    ("locale", "closed"), [("en-GB", "Registration closed"), ("de-DE", "Anmeldung geschlossen")]
)
def test_the_lobby_says_registration_closed_before_the_start_once_it_is_closed(
    asgi_server, make_tournament, new_page, actor, locale, closed
):
    """A tournament whose registration closed before its start (a Day 2 once its draw seated
    the field) is not "Registering" on the lobby: neither as the page is drawn nor once the
    tournament's board has come."""
    from django.utils import timezone

    from displays.domain.views import Kind, Step
    from displays.services import display_assign, display_open, display_pair
    from tournament.models import Tournament

    t = make_tournament(name="Main Event – Day 2", status="registering")
    Tournament.objects.filter(pk=t.pk).update(registration_closed_at=timezone.now())
    display, token = display_open()
    display_pair(code=display.code, name="Lobby", actor=actor)
    display_assign(
        display_id=display.pk, steps=[Step(Kind.LOBBY, tournaments=(t.pk,))], actor=actor
    )
    page = new_page(SIZES["1920x1080"], locale=locale)
    page.context.add_cookies([{"name": "floor_display", "value": token, "url": asgi_server}])
    page.goto(f"{asgi_server}/display/view/0/")
    assert page.inner_text("[data-f=status]") == closed
    # The snapshot is drawn (the time is set from it), and the status stays.
    page.wait_for_function("() => document.querySelector('[data-f=time]').textContent !== '--:--'")
    assert page.inner_text("[data-f=status]") == closed
