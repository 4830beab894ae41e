"""WCAG 2.2 AA in the browser: axe-core (bundled by axe-playwright-python, nothing is downloaded
at run time) over every page of a demo-like night — the console as the director at 1366 px, the
public pages and the dealer tablet at 390 px in English and German, the big screen at
1920×1080 — and the register → draw → bust → payout path with the keyboard alone.

Every violation of the WCAG A/AA rules fails the test; the message names the page, the rule,
its impact and the first elements it found. docs/accessibility.md says what is checked."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.conf import settings
from django.core.management import call_command
from django.utils import translation

from tests.browser.conftest import ARTIFACTS, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# The WCAG 2.0, 2.1 and 2.2 success criteria of levels A and AA that axe-core can test.
WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa"]
# Run as well: the accessible name of a control contains its visible words (2.5.3, experimental
# in axe) and the page structure the issue asks for (axe files these under best practice).
EXTRA_RULES = [
    "label-content-name-mismatch",
    "landmark-one-main",
    "landmark-no-duplicate-main",
    "landmark-unique",
    "page-has-heading-one",
    "heading-order",
    "empty-heading",
]
AXE_OPTIONS = {
    "runOnly": {"type": "tag", "values": WCAG_TAGS},
    "rules": {rule: {"enabled": True} for rule in EXTRA_RULES},
    "resultTypes": ["violations"],
}
DESKTOP = {"width": 1366, "height": 900}
PHONE = {"width": 390, "height": 844}
BIG_SCREEN = {"width": 1920, "height": 1080}


@dataclass(frozen=True)
class Night:
    """The demo after an hour of play: "Sunday Deepstack" running with seats drawn and the
    first players out, "Thursday Turbo" at its final table with bounties and payouts."""

    running: int
    final: int
    player: int
    table: int
    dealer_token: str
    seat_token: str
    busted_token: str
    search: str
    festival: int  # the demo's event with flights
    bagging: int  # Day 1B's bag and tag, under way with a flag
    closed_bagging: int  # Day 1A's, closed
    bag_table: int
    bag_token: str  # the dealer tablet of that Day-1B table
    signups: int  # a tournament taking sign-ups, one of them waiting
    signup_token: str  # the waiting sign-up's private link


def _night() -> Night:
    from actions.bust import BustReport, entries_bust
    from clocks.services import clock_command
    from tables.models import Table
    from tournament.events import Actor
    from tournament.models import Entry, EntryStatus, Tournament
    from tournament.services import tournaments

    call_command("floor_demo", players=40, stdout=_Null())
    from tournament.models import Club

    Club.objects.update_or_create(pk=1, defaults={"public_profiles": True})  # /players/<id>/
    actor = Actor.system("test")
    sunday = Tournament.objects.get(name="Sunday Deepstack")
    # The tablet, the seating chart and the settings with the shot clock and time banks.
    Tournament.objects.filter(pk=sunday.pk).update(shot_clock=True)
    sunday.refresh_from_db()
    tournaments.tournament_status_set(tournament=sunday, status="running", actor=actor)
    clock_command(tournament=sunday, kind="start", actor=actor)
    seated = list(
        Entry.objects.filter(tournament=sunday, status=EntryStatus.ACTIVE)
        .select_related("player", "seat__table")
        .order_by("seat__table__number", "seat__seat")
    )
    for entry in seated[-3:]:
        entries_bust(tournament=sunday, busts=[BustReport(entry=entry)], actor=actor)
    table = Table.objects.filter(tournament=sunday, is_open=True).order_by("number").first()
    assert table is not None
    first = seated[0]
    busted = Entry.objects.filter(tournament=sunday, status=EntryStatus.BUSTED).first()
    assert busted is not None
    thursday = Tournament.objects.get(name="Thursday Turbo")
    from festivals.models import Bagging, FlightEvent
    from signups import services as su

    friday = tournaments.tournament_create(
        actor=actor,
        name="Friday Night",
        starts_at=sunday.starts_at,
        buy_in=2000,
        starting_stack=20000,
        structure=sunday.structure,
        chip_set=sunday.chip_set,
    )
    tournaments.tournament_status_set(tournament=friday, status="registering", actor=actor)
    su.sheet_update(
        tournament=friday, actor=actor, is_open=True, places=4, reserved=0, check_in_deadline=None
    )
    for name in ("Anna Berg", "Ben Cohn", "Clara Dietz", "David Engel", "Elif Fuchs"):
        waiting = su.signup_create(tournament=friday, display_name=name, actor=actor)

    event = FlightEvent.objects.get()
    under_way = Bagging.objects.get(event=event, closed_at__isnull=True)
    closed = Bagging.objects.get(event=event, closed_at__isnull=False)
    bag_table = Table.objects.filter(tournament=under_way.tournament, is_open=True).first()
    assert bag_table is not None
    return Night(
        running=sunday.pk,
        final=thursday.pk,
        player=first.player_id,
        table=table.number,
        dealer_token=table.dealer_token,
        seat_token=first.public_token,
        busted_token=busted.public_token,
        search=first.player.name.split()[-1],
        festival=event.pk,
        bagging=under_way.pk,
        closed_bagging=closed.pk,
        bag_table=bag_table.number,
        bag_token=bag_table.dealer_token,
        signups=friday.pk,
        signup_token=waiting.token,
    )


class _Null:
    def write(self, *_args: Any, **_kwargs: Any) -> None:
        pass

    def flush(self) -> None:
        pass


# (page id, path) for the console pages, seen by the director at 1366 px.
CONSOLE: list[tuple[str, Callable[[Night], str]]] = [
    ("login", lambda n: "/login/"),
    ("tournaments", lambda n: "/console/"),
    ("new-tournament", lambda n: "/console/new/"),
    ("account", lambda n: "/console/account/"),
    ("players-all", lambda n: "/console/players/"),
    ("player", lambda n: f"/console/players/{n.player}/"),
    ("player-edit", lambda n: f"/console/players/{n.player}/edit/"),
    ("player-history", lambda n: f"/console/players/{n.player}/history/"),
    ("player-merge", lambda n: f"/console/players/{n.player}/merge/?other={n.player}"),
    ("player-duplicates", lambda n: "/console/players/duplicates/"),
    ("club", lambda n: "/console/club/"),
    ("overview", lambda n: f"/console/t/{n.running}/"),
    ("settings", lambda n: f"/console/t/{n.running}/settings/"),
    ("structure", lambda n: f"/console/t/{n.running}/structure/"),
    ("desk", lambda n: f"/console/t/{n.running}/desk/"),
    ("players", lambda n: f"/console/t/{n.running}/players/"),
    ("bust", lambda n: f"/console/t/{n.running}/bust/"),
    ("seating", lambda n: f"/console/t/{n.running}/seating/"),
    ("table", lambda n: f"/console/t/{n.running}/tables/{n.table}/"),
    ("clock", lambda n: f"/console/t/{n.running}/clock/"),
    ("announcements", lambda n: f"/console/t/{n.running}/announcements/"),
    ("payouts", lambda n: f"/console/t/{n.running}/payouts/"),
    ("history", lambda n: f"/console/t/{n.running}/history/"),
    ("rulings", lambda n: f"/console/t/{n.running}/rulings/"),
    ("penalties", lambda n: f"/console/t/{n.running}/penalties/"),
    ("colour-up", lambda n: f"/console/t/{n.running}/colour-up/"),
    ("counts", lambda n: f"/console/t/{n.running}/counts/"),
    ("final-overview", lambda n: f"/console/t/{n.final}/"),
    ("deal", lambda n: f"/console/t/{n.final}/deal/"),
    ("payout-desk", lambda n: f"/console/t/{n.final}/payouts/desk/"),
    ("cage", lambda n: f"/console/t/{n.final}/cage/"),
    ("cage-day", lambda n: "/console/cage/"),
    ("report", lambda n: f"/console/t/{n.final}/report/"),
    ("displays", lambda n: "/console/displays/"),
    ("venue-layout", lambda n: "/console/displays/layout/"),
    ("webhooks", lambda n: "/console/webhooks/"),
    ("clock-layout", lambda n: f"/console/t/{n.running}/layout/"),
    ("final-seating", lambda n: f"/console/t/{n.final}/seating/"),
    ("festivals", lambda n: "/console/festivals/"),
    ("festival", lambda n: f"/console/festivals/{n.festival}/"),
    ("festival-report", lambda n: f"/console/festivals/{n.festival}/report/"),
    ("bagging", lambda n: f"/console/festivals/{n.festival}/bag/{n.bagging}/"),
    (
        "bag-table",
        lambda n: f"/console/festivals/{n.festival}/bag/{n.bagging}/table/{n.bag_table}/",
    ),
    ("bag-report", lambda n: f"/console/festivals/{n.festival}/bag/{n.closed_bagging}/report/"),
    ("bag-slips", lambda n: f"/console/festivals/{n.festival}/bag/{n.bagging}/slips/"),
    ("bag-lists", lambda n: f"/console/festivals/{n.festival}/bag/{n.bagging}/slips/?kind=list"),
    ("festival-standings", lambda n: f"/console/festivals/{n.festival}/standings/"),
    ("signups", lambda n: f"/console/t/{n.signups}/signups/"),
    ("signup-poster", lambda n: f"/t/{n.signups}/signup/poster/"),
]

# (page id, path) for the pages anybody opens on a phone, in both languages.
PUBLIC: list[tuple[str, Callable[[Night], str]]] = [
    ("home", lambda n: "/"),
    ("tournament", lambda n: f"/t/{n.running}/"),
    ("find-seat", lambda n: f"/t/{n.running}/find/"),
    ("find-seat-results", lambda n: f"/t/{n.running}/find/?q={n.search}"),
    ("my-seat", lambda n: f"/s/{n.seat_token}/"),
    ("my-seat-out", lambda n: f"/s/{n.busted_token}/"),
    ("table", lambda n: f"/t/{n.running}/table/{n.table}/"),
    ("counts", lambda n: f"/t/{n.running}/counts/"),
    ("final-tournament", lambda n: f"/t/{n.final}/"),
    ("results-so-far", lambda n: f"/t/{n.running}/results/"),
    ("player-profile", lambda n: f"/players/{n.player}/"),
    ("festival", lambda n: f"/f/{n.festival}/"),
    ("signup", lambda n: f"/t/{n.signups}/signup/"),
    ("signup-status", lambda n: f"/signup/{n.signup_token}/"),
]


@pytest.fixture
def night(transactional_db: Any, made_once: Any) -> Night:
    """The demo night, made once per module (half a minute on two cores) and put back for every
    later test from a snapshot (tests/browser/conftest.py `made_once`)."""
    return made_once(_night)


@pytest.fixture
def axe() -> Any:
    from axe_playwright_python.sync_playwright import Axe

    return Axe()


def audit(axe: Any, page: Any, name: str) -> None:
    """Run axe on the page as it is now; fail with every violation, page and rule named."""
    page.wait_for_load_state("load")
    violations = axe.run(page, options=AXE_OPTIONS).response["violations"]
    ARTIFACTS.mkdir(exist_ok=True)
    slug = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")
    (ARTIFACTS / f"axe-{slug}.json").write_text(json.dumps(violations, indent=1))
    if not violations:
        return
    lines = [f"{name}: {len(violations)} WCAG violation(s)"]
    for v in sorted(violations, key=lambda v: (_rank(v["impact"]), v["id"])):
        lines.append(f"  [{v['impact']}] {v['id']} ×{len(v['nodes'])}: {v['help']}")
        for node in v["nodes"][:4]:
            target = " ".join(str(t) for t in node["target"])
            lines.append(f"      {target}: {node.get('failureSummary', '').splitlines()[-1:]}")
    pytest.fail("\n".join(lines), pytrace=False)


def _rank(impact: str | None) -> int:
    return ["critical", "serious", "moderate", "minor"].index(impact or "minor")


def test_the_check_finds_what_it_should(page, axe):
    """The audit is not blind: a page without a language, a heading, a main landmark, a label
    and contrast fails it, with the rules named."""
    page.set_content(
        "<html><body><input><button></button>"
        "<p style='color:#999;background:#fff'>grey on white</p></body></html>"
    )
    with pytest.raises(pytest.fail.Exception) as failed:
        audit(axe, page, "a bad page")
    for rule in (
        "html-has-lang",
        "label",
        "button-name",
        "color-contrast",
        "landmark-one-main",
        "page-has-heading-one",
    ):
        assert f"] {rule} " in str(failed.value), rule


def test_a_round_of_pages_names_every_page_that_fails(page, axe):
    """`audit_each` goes on after a failing page and names each one that failed."""
    good = (
        "<html lang='en'><head><title>Fine</title></head><body><main><h1>Fine</h1>"
        "<p>All good.</p></main></body></html>"
    )
    bad = "<html lang='en'><body><input></body></html>"
    pages = [
        ("first bad", "data:text/html," + bad),
        ("good", "data:text/html," + good),
        ("second bad", "data:text/html," + bad),
    ]
    with pytest.raises(pytest.fail.Exception) as failed:
        audit_each(axe, page, pages, "en")
    message = str(failed.value)
    assert message.startswith("2 of 3 pages")
    assert "first bad:" in message and "second bad:" in message and "good:" not in message


def _director(page: Any, base: str) -> None:
    """Signed in as the demo's director: the session made on the server's side and its cookie
    given to the browser (the login page itself is audited once, and logged in through with the
    keyboard in `test_register_draw_bust_and_pay_with_the_keyboard_alone`)."""
    from django.contrib.auth import get_user_model
    from django.test import Client

    client = Client()
    client.force_login(get_user_model().objects.get(username="director"))
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    page.context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": base}])


def audit_each(axe: Any, page: Any, pages: list[tuple[str, str]], lang: str) -> None:
    """Open each (name, url) in turn on one page and audit it; fail once at the end with every
    page's violations, each named. The pages only read, so they share one database state, one
    server and one browser context (a test of its own for each took four times as long)."""
    failures = []
    for name, url in pages:
        page.goto(url)
        try:
            assert page.get_attribute("html", "lang") == lang, f"{name}: lang"
            audit(axe, page, name)
        except (AssertionError, pytest.fail.Exception) as failed:
            failures.append(str(failed))
    if failures:
        pytest.fail(
            f"{len(failures)} of {len(pages)} pages:\n" + "\n".join(failures), pytrace=False
        )


def test_console_pages(asgi_server, night, new_page, axe):
    """Every console page as the director sees it at 1366 px (the login page before)."""
    page = new_page(DESKTOP)
    pages = [(f"console {name}", asgi_server + path(night)) for name, path in CONSOLE]
    audit_each(axe, page, pages[:1], "en")
    _director(page, asgi_server)
    audit_each(axe, page, pages[1:], "en")


@pytest.mark.parametrize("locale", ["en-GB", "de-DE"])
def test_public_pages(asgi_server, night, new_page, axe, locale):
    """Every page anybody opens, on a phone (390 px)."""
    page = new_page(PHONE, locale)
    pages = [
        (f"public {name} ({locale[:2]}, 390 px)", asgi_server + path(night))
        for name, path in PUBLIC
    ]
    audit_each(axe, page, pages, locale[:2])


# The console pages a floor person also opens on a phone, in German.
CONSOLE_PHONE = ["overview", "desk", "bust", "seating", "table", "payout-desk"]


def test_console_pages_on_a_phone(asgi_server, night, new_page, axe):
    page = new_page(PHONE, "de-DE")
    _director(page, asgi_server)
    paths = dict(CONSOLE)
    pages = [
        (f"console {name} (de, 390 px)", asgi_server + paths[name](night)) for name in CONSOLE_PHONE
    ]
    audit_each(axe, page, pages, "de")


def test_the_end_of_the_night(asgi_server, night, new_page, axe):
    """The final table plays down to the winner: the results on the public page, the big
    screen and the console."""
    from actions.bust import BustReport, entries_bust
    from tournament.events import Actor
    from tournament.models import Entry, EntryStatus, Tournament

    t = Tournament.objects.get(pk=night.final)
    actor = Actor.system("test")
    alive = list(Entry.objects.filter(tournament=t, status=EntryStatus.ACTIVE).order_by("number"))
    for entry in alive[1:]:
        entries_bust(
            tournament=t,
            busts=[BustReport(entry=entry, eliminated_by=(alive[0].number,))],
            actor=actor,
        )
    phone = new_page(PHONE, "de-DE")
    phone.goto(f"{asgi_server}/t/{t.pk}/")
    audit(axe, phone, "public tournament at the end (de, 390 px)")
    phone.click("#results-link")
    phone.wait_for_selector("#results")
    audit(axe, phone, "results at the end (de, 390 px)")
    screenshot(phone, "results-phone-de")
    wide = new_page(DESKTOP)
    wide.goto(f"{asgi_server}/t/{t.pk}/results/")
    audit(axe, wide, "results at the end (en, desktop)")
    screenshot(wide, "results-desktop")
    screen = new_page(BIG_SCREEN)
    screen.goto(f"{asgi_server}/t/{t.pk}/clock/")
    audit(axe, screen, "big screen at the end (en, 1920×1080)")
    desk = new_page(DESKTOP)
    _director(desk, asgi_server)
    for path in ("", "payouts/desk/", "seating/"):
        desk.goto(f"{asgi_server}/console/t/{t.pk}/{path}")
        audit(axe, desk, f"console /{path} at the end")


def test_a_paused_break(asgi_server, night, new_page, axe):
    """The clock jumps to the first break and is paused: the screens everybody reads."""
    from clocks.services import clock_command
    from tournament.events import Actor
    from tournament.models import Tournament

    t = Tournament.objects.get(pk=night.running)
    breaks = [i for i, lv in enumerate(t.structure.levels.all()) if lv.is_break]
    actor = Actor.system("test")
    clock_command(tournament=t, kind="jump", level=breaks[0], actor=actor)
    clock_command(tournament=t, kind="pause", actor=actor)
    phone = new_page(PHONE, "de-DE")
    phone.goto(f"{asgi_server}/t/{t.pk}/")
    audit(axe, phone, "public tournament in a paused break (de, 390 px)")
    phone.goto(f"{asgi_server}/d/{night.dealer_token}/")
    audit(axe, phone, "dealer tablet in a paused break (de, 390 px)")
    screen = new_page(BIG_SCREEN, "de-DE")
    screen.goto(f"{asgi_server}/t/{t.pk}/clock/")
    audit(axe, screen, "big screen in a paused break (de, 1920×1080)")
    desk = new_page(DESKTOP)
    _director(desk, asgi_server)
    desk.goto(f"{asgi_server}/console/t/{t.pk}/clock/")
    audit(axe, desk, "console clock in a paused break")


@pytest.mark.parametrize("locale", ["en-GB", "de-DE"])
def test_a_big_screen_that_speaks(asgi_server, night, new_page, axe, locale):
    """A big screen with ?sound=1: the hint to allow sound and an announcement's caption."""
    from clocks.announcements import announcement_test
    from tournament.events import Actor
    from tournament.models import Tournament

    t = Tournament.objects.get(pk=night.running)
    screen = new_page(BIG_SCREEN, locale)
    screen.goto(f"{asgi_server}/t/{t.pk}/clock/?sound=1")
    screen.wait_for_function("() => document.getElementById('bs-time').dataset.levelIndex")
    # The feed is live (a message sent before the websocket opens is not replayed).
    screen.wait_for_function(
        "() => !document.getElementById('bs-status').classList.contains('offline')"
        " && document.getElementById('bs-status').textContent.trim() !== '…'"
    )
    announcement_test(tournament=t, actor=Actor.system("test"))
    screen.wait_for_selector("#bs-caption:not([hidden])")
    audit(axe, screen, f"big screen speaking ({locale[:2]}, 1920×1080)")


@pytest.mark.parametrize("locale", ["en-GB", "de-DE"])
def test_dealer_tablet(asgi_server, night, new_page, axe, locale):
    page = new_page(PHONE, locale)
    page.goto(f"{asgi_server}/d/{night.dealer_token}/")
    page.wait_for_selector("button.seat")
    audit(axe, page, f"dealer tablet ({locale[:2]}, 390 px)")
    # Voice control: "press Seat 1" (or "Platz 1") finds the button by what it shows.
    with translation.override(locale[:2]):
        word = translation.gettext("Seat")
    assert page.get_by_role("button", name=re.compile(rf"^{word} 1\b")).count() == 1
    page.click("button.seat:not(.empty) >> nth=0")  # the draw is random: seat 1 may be empty
    page.wait_for_selector("#seat-sheet[open]")
    audit(axe, page, f"dealer tablet seat sheet ({locale[:2]}, 390 px)")
    # The tablet's chip counts form (actions/dealer_counts.py).
    page.goto(f"{asgi_server}/d/{night.dealer_token}/counts/")
    page.wait_for_selector(".dc-row input")
    audit(axe, page, f"dealer tablet chip counts ({locale[:2]}, 390 px)")
    # Bag and tag on a Day-1B table's tablet (festivals/).
    page.goto(f"{asgi_server}/d/{night.bag_token}/bag/")
    page.wait_for_selector(".db-row input")
    audit(axe, page, f"dealer tablet bag and tag ({locale[:2]}, 390 px)")


@pytest.mark.parametrize("locale", ["en-GB", "de-DE"])
def test_big_screen(asgi_server, night, new_page, axe, locale):
    page = new_page(BIG_SCREEN, locale)
    page.goto(f"{asgi_server}/t/{night.running}/clock/")
    audit(axe, page, f"big screen ({locale[:2]}, 1920×1080)")


def _focused(page: Any, selector: str) -> bool:
    return bool(
        page.evaluate(
            "(s) => !!document.activeElement && document.activeElement.matches(s)", selector
        )
    )


def tab_to(page: Any, selector: str, *, limit: int = 200) -> None:
    """Press Tab until the element the selector names has the focus."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        if _focused(page, selector):
            return
    raise AssertionError(f"Tab never reaches {selector} on {page.url}")


def press_enter(page: Any, *, confirm: bool = False) -> list[str]:
    """Enter on the focused button; the page it leads to; its messages. A confirmation the
    browser asks first is answered as a keyboard user would: Enter (accept)."""
    if confirm:
        page.once("dialog", lambda dialog: dialog.accept())
    with page.expect_navigation():
        page.keyboard.press("Enter")
    return page.locator(".messages li").all_inner_texts()


KEYBOARD_PLAYERS = ["Anna Albers", "Bernd Brandt", "Carla Conrad", "Dieter Dressler"]


def test_register_draw_bust_and_pay_with_the_keyboard_alone(
    live_server, page, director, make_tournament
):
    """The whole path without a mouse: Tab, Shift+Tab, Space, Enter and typing."""
    from tournament.models import Entry, EntryStatus, Status

    t = make_tournament(status="registering", places_paid=2, seats_per_table=9)
    base = live_server.url
    console = f"{base}/console/t/{t.pk}"

    page.goto(f"{base}/login/")
    tab_to(page, "#id_username")
    page.keyboard.type("dir")
    page.keyboard.press("Tab")
    page.keyboard.type("pw-director-123")
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert page.url == f"{base}/console/"

    # Registration: "n" puts the cursor in the name field, Enter registers.
    page.goto(f"{console}/desk/")
    for name in KEYBOARD_PLAYERS:
        page.keyboard.press("Escape")
        page.keyboard.press("n")
        page.keyboard.type(name)
        with page.expect_navigation():
            page.keyboard.press("Enter")
        assert any(name in m for m in page.locator(".messages li").all_inner_texts()), name
    assert t.entries.filter(status=EntryStatus.ACTIVE).count() == 4

    # The draw.
    page.goto(f"{console}/seating/")
    tab_to(page, "#draw-seats")
    assert "4 players seated." in press_enter(page)

    # The director starts the tournament and closes registration.
    page.goto(f"{console}/")
    tab_to(page, "form[action$='/status/'] button.primary")
    press_enter(page, confirm=True)
    t.refresh_from_db()
    assert t.status == Status.RUNNING
    page.goto(f"{console}/players/")
    tab_to(page, "form[action$='/registration/close'] button")
    press_enter(page, confirm=True)
    t.refresh_from_db()
    assert t.registration_closed_at is not None

    # The button at table 1, then a double bust on the bust page: Space ticks, typing fills the
    # stack, Enter confirms.
    page.goto(f"{console}/tables/1/")
    tab_to(page, "form[action$='/seating/button/'] button")
    assert "Button set." in press_enter(page)
    entries = {
        e.player.name: e for e in Entry.objects.filter(tournament=t).select_related("player")
    }
    page.goto(f"{console}/bust/")
    for name, stack in (("Carla Conrad", "3000"), ("Dieter Dressler", "1500")):
        tab_to(page, f"#bust-{entries[name].pk}")
        page.keyboard.press("Space")
        page.keyboard.press("Tab")
        assert _focused(page, f"input[name=stack_{entries[name].pk}]")
        page.keyboard.type(stack)
    tab_to(page, "form:has(#bust-list) button[type=submit]")
    press_enter(page, confirm=True)
    places = dict(
        Entry.objects.filter(tournament=t, status=EntryStatus.BUSTED).values_list(
            "player__name", "place"
        )
    )
    assert places == {"Dieter Dressler": 4, "Carla Conrad": 3}

    # Heads-up: Bernd is out in second place, Anna wins.
    page.goto(f"{console}/bust/")
    tab_to(page, f"#bust-{entries['Bernd Brandt'].pk}")
    page.keyboard.press("Space")
    tab_to(page, "form:has(#bust-list) button[type=submit]")
    press_enter(page, confirm=True)
    assert Entry.objects.get(pk=entries["Bernd Brandt"].pk).place == 2

    # The payout desk: Tab to each "Pay" button, Enter opens how it is paid, Tab to "Cash",
    # Enter pays.
    page.goto(f"{console}/payouts/desk/")
    for _ in range(2):
        tab_to(page, "details.pay-menu > summary")
        page.keyboard.press("Enter")
        tab_to(page, "details.pay-menu[open] button[value=cash]")
        press_enter(page)
    paid = dict(
        Entry.objects.filter(tournament=t, place__in=[1, 2]).values_list("place", "paid_amount")
    )
    assert paid[1] > paid[2] > 0, paid


def test_the_language_follows_the_choice_made_with_the_keyboard(live_server, page):
    """Arrowing through the language list changes nothing yet (WCAG 3.2.2); Enter switches,
    and the page's `lang` follows."""
    page.goto(f"{live_server.url}/")
    assert page.get_attribute("html", "lang") == "en"
    tab_to(page, "#lang")
    page.keyboard.press("ArrowDown")
    page.wait_for_timeout(300)
    assert page.get_attribute("html", "lang") == "en"
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert page.get_attribute("html", "lang") == "de"


def test_chip_counts_with_counts(asgi_server, night, new_page, axe):
    """Counts recorded at one table: the console's counts page (desktop, phone), the public
    counts on a phone in both languages, the counts on a big screen (landscape, portrait)."""
    from counts.services import table_counts_record
    from tournament.events import Actor
    from tournament.models import Entry, EntryStatus, Tournament

    t = Tournament.objects.get(pk=night.running)
    seated = Entry.objects.filter(
        tournament=t, status=EntryStatus.ACTIVE, seat__table__number=night.table
    )
    table_counts_record(
        tournament=t,
        table_number=night.table,
        counts={e.pk: 15_000 + 2_500 * i for i, e in enumerate(seated)},
        actor=Actor.system("test"),
    )
    console = new_page(DESKTOP)
    _director(console, asgi_server)
    console.goto(f"{asgi_server}/console/t/{t.pk}/counts/?table={night.table}")
    audit(axe, console, "console counts with counts (en, 1366 px)")
    phone_console = new_page(PHONE, "de-DE")
    _director(phone_console, asgi_server)
    phone_console.goto(f"{asgi_server}/console/t/{t.pk}/counts/?table={night.table}")
    audit(axe, phone_console, "console counts with counts (de, 390 px)")
    for locale in ("en-GB", "de-DE"):
        phone = new_page(PHONE, locale)
        phone.goto(f"{asgi_server}/t/{t.pk}/counts/")
        audit(axe, phone, f"public counts with counts ({locale[:2]}, 390 px)")
    for size in (BIG_SCREEN, {"width": 1080, "height": 1920}):
        screen = new_page(size)
        screen.goto(f"{asgi_server}/t/{t.pk}/counts/screen/")
        screen.wait_for_selector("#cs-rows tr")
        audit(axe, screen, f"counts big screen ({size['width']}×{size['height']})")
