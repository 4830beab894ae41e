"""The 30-player Friday night of a German club, played in German in real Chromium with the
mistakes a busy desk makes: a wrong Anna registered, a double click on "Anmelden", a player who
leaves before the start, a desk bust clicked by accident. It ends with correct results (places
1..30, the prizes adding up to the payout table), the winner on the big screen and the public
page, and an event log that reads in words. Screenshots of each step go to
test-artifacts/friday/ (desktop, phone at 360 px, big screen at 1920×1080 and 3840×2160)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import ARTIFACTS
from tournament.models import Entry, EntryStatus, Status, Tournament
from tournament.selectors import payout_amounts

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = ARTIFACTS / "friday"

PLAYERS = [
    "Anna Schäfer",
    "Bernd Müller",
    "Clara Weiß",
    "Dieter Groß",
    "Elif Yıldız",
    "Frank Köhler",
    "Greta Hoffmann",
    "Hakan Demir",
    "Ingrid Wagner",
    "Jürgen Becker",
    "Katrin Schulz",
    "Lukas Fischer",
    "Maria Krüger",
    "Nils Lehmann",
    "Olga Schwarz",
    "Paul Hartmann",
    "Rita Zimmermann",
    "Sven Braun",
    "Tanja Hofmann",
    "Uwe Schröder",
    "Vera Neumann",
    "Wolfgang Schmitt",
    "Xenia Lange",
    "Yusuf Kaya",
    "Zoe Werner",
    "Bärbel Krause",
    "Ömer Aydın",
    "Heiner Voß",
    "Sabine Jäger",
    "Till Brückner",
]
WRONG_ANNA = "Anna Schmidt"  # the desk typed the wrong Anna
LEAVER = "Rolf Engel"  # registers, then goes home before the start


def _shot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def _accepting(page: Any, said: list[str]) -> None:
    def answer(dialog: Any) -> None:
        said.append(dialog.message)
        dialog.accept()

    page.once("dialog", answer)


def _register(page: Any, name: str, *, double: bool = False) -> None:
    page.fill("#id_name", name)
    with page.expect_navigation():
        if double:
            page.dblclick("#register-button")
        else:
            page.click("#register-button")
    if page.locator("#register-anyway").count():  # a name like a known one: it is a new one
        with page.expect_navigation():
            page.click("#register-anyway")
    page.wait_for_selector(".last-entry")


def _entry(t: Tournament, name: str) -> Entry:
    return t.entries.select_related("player").get(player__name=name)


def test_a_friday_night_in_german_with_the_usual_mistakes(
    asgi_server, browser, director, make_tournament
):
    base = asgi_server
    t = make_tournament(
        name="Freitagsturnier",
        status="registering",
        seats_per_table=9,
        buy_in=3000,
        fee=500,
        starting_stack=20000,
        late_registration_until_level=None,
    )
    desk_url = f"{base}/console/t/{t.pk}/desk/"
    context = browser.new_context(viewport={"width": 1366, "height": 900}, locale="de-DE")
    page = context.new_page()
    page.set_default_timeout(15000)
    page.goto(f"{base}/login/")
    page.fill("#id_username", "dir")
    page.fill("#id_password", "pw-director-123")
    with page.expect_navigation():
        page.click("button[type=submit]")
    assert "Ausloggen" in page.inner_text("header")

    # --- Registration at the desk, in German --------------------------------------------------
    page.goto(desk_url)
    assert "Spieler anmelden" in page.inner_text("main")
    _register(page, WRONG_ANNA)
    _register(page, LEAVER)
    for i, name in enumerate(PLAYERS):
        _register(page, name, double=(i == 3))  # one double click among them
        if i == 0:
            _shot(page, "01-desk-registered")
            # After each registration the cursor is back in the name field.
            assert page.evaluate("() => document.activeElement.id") == "id_name"
    assert t.entries.count() == 32, "the double click registered once"
    assert t.entries.filter(player__name=PLAYERS[3]).count() == 1
    receipt = page.locator(".last-entry").inner_text()
    assert "#32" in receipt

    # The leaver is unregistered and refunded before the start, after a question naming him.
    leaver = _entry(t, LEAVER)
    page.fill("#q", "engel")
    page.wait_for_selector(f"form[action$='/entry/{leaver.pk}/unregister'] button")
    said: list[str] = []
    _accepting(page, said)
    with page.expect_navigation():
        page.click(f"form[action$='/entry/{leaver.pk}/unregister'] button")
    assert said and LEAVER in said[0]
    leaver.refresh_from_db()
    assert leaver.status == EntryStatus.UNREGISTERED

    # --- Start: the overview says what each status step does and asks first -----------------
    page.goto(f"{base}/console/t/{t.pk}/")
    assert "Die Anmeldung ist geöffnet" in page.inner_text("main")
    _accepting(page, said)
    with page.expect_navigation():
        page.click("button:has-text('Turnier starten')")
    assert "Das Turnier läuft." in page.inner_text("main")
    _shot(page, "02-overview-running")
    page.goto(f"{base}/console/t/{t.pk}/seating/")
    with page.expect_navigation():
        page.click("#draw-seats")
    _shot(page, "03-seating-drawn")
    page.goto(f"{base}/console/t/{t.pk}/clock/")
    with page.expect_navigation():
        page.click("form[action$='/clock/start'] button")

    # --- A desk bust clicked by accident: the question comes, "Abbrechen" changes nothing ----
    page.goto(desk_url)
    victim = _entry(t, "Paul Hartmann")
    page.fill("#q", "hartmann")
    page.wait_for_selector(f"button[data-bust='{victim.number}']")
    asked: list[str] = []
    page.once("dialog", lambda d: (asked.append(d.message), d.dismiss()))
    page.click(f"button[data-bust='{victim.number}']")
    page.wait_for_timeout(300)
    assert asked and "Paul Hartmann" in asked[0] and "ausscheiden" in asked[0]
    victim.refresh_from_db()
    assert victim.status == EntryStatus.ACTIVE

    # --- The wrong Anna is voided after the start: no place, seat freed, money refunded -------
    wrong = _entry(t, WRONG_ANNA)
    page.goto(f"{base}/console/t/{t.pk}/entry/{wrong.pk}/correct")
    _shot(page, "04-correct-entry")
    _accepting(page, said)
    with page.expect_navigation():
        page.click("#void-entry")
    assert "Korrektur" in page.inner_text("#desk-corrections")
    wrong.refresh_from_db()
    assert wrong.status == EntryStatus.UNREGISTERED and wrong.place is None
    t.refresh_from_db()
    assert t.players_left == 30
    _shot(page, "05-desk-after-void")

    # Late registration ended when the clock started: the places are final, no close needed.
    assert not page.locator("form[action$='/registration/close'] button").count()

    # --- Busts from the bust page until one player is left -----------------------------------
    out_order: list[int] = []
    while t.entries.filter(status=EntryStatus.ACTIVE).count() > 1:
        loser = (
            t.entries.filter(status=EntryStatus.ACTIVE).order_by("-number").select_related().first()
        )
        page.goto(f"{base}/console/t/{t.pk}/bust/")
        page.check(f"#bust-{loser.pk}")
        with page.expect_navigation():
            page.click("form:has(#bust-list) button[type=submit]")
        out_order.append(loser.pk)
        if len(out_order) == 20:
            _shot(page, "06-bust-page")
    t.refresh_from_db()
    assert t.status == Status.FINISHED

    # --- The results are right -----------------------------------------------------------------
    counted = list(t.entries.exclude(status=EntryStatus.UNREGISTERED))
    assert sorted(e.place for e in counted) == list(range(1, 31))
    payouts = payout_amounts(t)
    assert sum(e.prize for e in counted) == sum(payouts)
    winner = t.entries.get(place=1)

    # The players list names the winner; the history reads in words, with the correction.
    page.goto(f"{base}/console/t/{t.pk}/players/")
    assert "Sieger" in page.inner_text("main")
    _shot(page, "07-players-winner")
    page.goto(f"{base}/console/t/{t.pk}/history/")
    log = page.inner_text("table.list")
    assert "Korrektur" in log and "abgemeldet" in log
    assert not re.search(r"\b[a-z_]+\.[a-z_]+\b", log), "no raw action codes in the log"
    _shot(page, "08-history")

    # --- The end on every screen -----------------------------------------------------------------
    for width, height in ((1920, 1080), (3840, 2160)):
        screen = browser.new_context(viewport={"width": width, "height": height}, locale="de-DE")
        big = screen.new_page()
        big.goto(f"{base}/t/{t.pk}/clock/")
        big.wait_for_selector("text=" + winner.player.display_name)
        shown = big.inner_text("body").lower()
        assert "turnier beendet" in shown and "sieger" in shown
        _shot(big, f"09-bigscreen-{width}x{height}")
        screen.close()
    phone = browser.new_context(viewport={"width": 360, "height": 780}, locale="de-DE")
    public = phone.new_page()
    public.goto(f"{base}/t/{t.pk}/")
    public.wait_for_selector("text=" + winner.player.display_name)
    overflow = public.evaluate(
        "() => document.scrollingElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert overflow <= 0
    _shot(public, "10-public-phone-360")
    phone.close()
    context.close()
    assert Path(SHOTS / "09-bigscreen-3840x2160.png").exists()
