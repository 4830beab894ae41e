"""A dealer tablet through a Wi-Fi drop, in real Chromium (issue #57 part 4): offline, the dealer
reports two busts, a hand done and a time call; the tablet says it is offline and lists them as
waiting; a reload while offline keeps them; back online they are sent in order and the floor
sees each once; the bust of a player the desk busted meanwhile comes back as "not applied" with
its reason, on the tablet and among the floor's dealer reports. An answer lost on the way is
sent again with its key and counts once."""

from __future__ import annotations

import contextlib

import pytest
from playwright.sync_api import Error as PlaywrightError

from actions.bust import BustReport, entries_bust
from tables import services as seating
from tables.models import ReportKind, SeatAssignment, Table, TableReport, TimeCall
from tests.browser.conftest import login, screenshot
from tournament.models import Event

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ACTIONS = ("table.report_bust", "table.tablet_conflict", "table.hand", "table.time_call")


def _room(make_tournament, register, actor, players=7):
    t = make_tournament(status="running", late_registration_until_level=6)
    for i in range(players):
        register(t, f"Spieler Nummer{i}")
    seating.seats_draw(tournament=t, actor=actor)
    table = Table.objects.get(tournament=t, number=1)
    seats = sorted(table.assignments.values_list("seat", flat=True))
    seating.button_set(table=table, seat=seats[0], actor=actor)
    table.refresh_from_db()
    return t, table


def _tablet(browser, url, width=1180, height=820, locale="en-GB", live=False):
    context = browser.new_context(
        viewport={"width": width, "height": height},
        locale=locale,
        is_mobile=width < 500,
        has_touch=width < 500,
    )
    page = context.new_page()
    page.set_default_timeout(15000)
    page.goto(url)
    page.wait_for_selector("#conn.live" if live else "#hand-done")
    return context, page


def _offline(context, offline=True):
    context.set_offline(offline)


def _open_sheet(page, seat, stack=""):
    """The seat's sheet open (and its stack typed). The table the socket sends on connecting
    may replace the page's seats just as they are tapped on a loaded machine: then tap again."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    for attempt in range(3):
        try:
            page.click(f"button.seat[data-seat='{seat}']")
            page.wait_for_selector("#seat-sheet[open]", timeout=5000)
            if stack:
                page.fill("#bust-stack", stack, timeout=5000)
            return
        except PlaywrightTimeout:
            if attempt == 2:
                raise


def _bust(page, seat, stack=""):
    _open_sheet(page, seat, stack)
    page.click("#report-bust")
    page.wait_for_selector("#seat-sheet:not([open])", state="attached")


def _time_call(page, seat):
    _open_sheet(page, seat)
    page.click("#seat-sheet form[action$='/time/'] button")


def _waiting(page, n):
    page.wait_for_function(f"() => document.querySelectorAll('#tq-list li').length === {n}")


def test_offline_taps_are_kept_through_a_reload_and_sent_once_in_order(
    live_server, browser, floor_user, actor, make_tournament, register, new_page
):
    t, table = _room(make_tournament, register, actor)
    rows = list(SeatAssignment.objects.filter(table=table).order_by("seat"))
    first, second, caller = rows[1], rows[2], rows[4]
    url = f"{live_server.url}/d/{table.dealer_token}/"
    context, dealer = _tablet(browser, url)
    start = Event.objects.order_by("-id").values_list("id", flat=True).first()
    hand = table.hand_number

    _offline(context)
    dealer.wait_for_selector("#tq:not([hidden]).offline")
    assert "No connection to the floor" in dealer.inner_text("#tq-banner")
    _bust(dealer, first.seat, "4500")
    _bust(dealer, second.seat)
    dealer.click("#hand-done")
    _time_call(dealer, caller.seat)
    _waiting(dealer, 4)
    items = dealer.locator("#tq-list li")
    assert "4 actions are kept on this tablet" in dealer.inner_text("#tq-banner")
    assert f"Seat {first.seat}" in items.nth(0).inner_text()
    assert "stack 4500" in items.nth(0).inner_text()
    assert "waiting to send" in items.nth(0).inner_text()
    assert f"Hand {hand + 1} done" in items.nth(2).inner_text()
    assert f"Clock called · seat {caller.seat}" in items.nth(3).inner_text()
    # The seat reported out while offline says it waits, in words.
    assert "out – waiting" in dealer.inner_text(f"button.seat[data-seat='{first.seat}']")
    screenshot(dealer, "tablet-queue-waiting")
    assert not TableReport.objects.filter(table=table).exists()

    # Meanwhile the desk busts the second player.
    entries_bust(tournament=t, busts=[BustReport(entry=second.entry)], actor=actor)

    # A reload while offline: the browser cannot load the page, the queue stays in storage.
    with contextlib.suppress(PlaywrightError):  # net::ERR_INTERNET_DISCONNECTED
        dealer.reload()
    _offline(context, False)
    dealer.goto(url)
    dealer.wait_for_function(
        "() => document.querySelectorAll('#tq-list li').length === 0"
        " && document.querySelectorAll('.tq-conflict').length === 1"
    )
    conflict = dealer.inner_text(".tq-conflict")
    assert "Not applied:" in conflict and f"Seat {second.seat}" in conflict
    assert "is out already: the floor recorded the bust." in conflict
    assert "The floor has been told." in conflict
    dealer.wait_for_selector(f"button.seat.reported[data-seat='{first.seat}']")
    screenshot(dealer, "tablet-queue-conflict")

    # The floor: each once, in the order tapped; the conflict with its reason.
    done = list(
        Event.objects.filter(id__gt=start or 0, action__in=ACTIONS)
        .order_by("id")
        .values_list("action", flat=True)
    )
    assert done == list(ACTIONS)
    assert list(
        TableReport.objects.filter(kind=ReportKind.BUST).values_list("seat", "stack_at_hand_start")
    ) == [(first.seat, 4500)]
    table.refresh_from_db()
    assert table.hand_number == hand + 1
    assert TimeCall.objects.filter(table=table).count() == 1
    console = new_page({"width": 1366, "height": 900})
    login(console, live_server.url, "flo", "pw-floor-123")
    console.goto(f"{live_server.url}/console/t/{t.pk}/seating/")
    line = console.locator("tr", has_text="Not applied from the tablet")
    assert (
        "is out already" in line.inner_text() and f"Bust in seat {second.seat}" in line.inner_text()
    )

    # The dealer has read it: dismissed, it is gone from the tablet (and from its storage).
    dealer.click(".tq-dismiss")
    dealer.wait_for_selector("#tq", state="hidden")
    dealer.reload()
    dealer.wait_for_selector("#hand-done")
    assert dealer.locator(".tq-conflict").count() == 0
    context.close()


def test_an_answer_lost_on_the_way_is_sent_again_and_counts_once(
    live_server, browser, actor, make_tournament, register
):
    _t, table = _room(make_tournament, register, actor)
    hand = table.hand_number
    context, dealer = _tablet(browser, f"{live_server.url}/d/{table.dealer_token}/")
    lost = []

    def lose_the_answer(route):
        # The server gets the request and does it; the tablet never hears back.
        route.fetch()
        lost.append(route.request.headers.get("idempotency-key"))
        route.abort("internetdisconnected")
        dealer.unroute("**/hand/", lose_the_answer)

    dealer.route("**/hand/", lose_the_answer)
    dealer.click("#hand-done")
    dealer.wait_for_selector("#tq:not([hidden])")
    # Sent again a few seconds later with the same key: the first answer, no second hand.
    dealer.wait_for_function(
        "() => document.querySelector('#tq').hidden"
        f" && document.querySelector('.d-level .sub').textContent.includes('Hand {hand + 2}')"
    )
    table.refresh_from_db()
    assert lost and lost[0]
    assert table.hand_number == hand + 1
    assert Event.objects.filter(action="table.hand").count() == 1
    context.close()


@pytest.mark.parametrize(
    ("locale", "width", "height"),
    [("en-GB", 1366, 900), ("de-DE", 1366, 900), ("en-GB", 390, 844), ("de-DE", 390, 844)],
)
def test_the_queue_and_a_conflict_on_screen(
    asgi_server, browser, actor, make_tournament, register, locale, width, height
):
    from axe_playwright_python.sync_playwright import Axe

    from tests.browser.test_accessibility import audit

    axe = Axe()
    """The screens of the docs, on the server with its sockets (PostgreSQL): the badge says
    "live" once the connection is back."""
    t, table = _room(make_tournament, register, actor)
    rows = list(SeatAssignment.objects.filter(table=table).order_by("seat"))
    url = f"{asgi_server}/d/{table.dealer_token}/"
    context, dealer = _tablet(browser, url, width, height, locale, live=True)
    lang = locale[:2]
    _offline(context)
    _bust(dealer, rows[1].seat, "12500")
    _bust(dealer, rows[3].seat)
    dealer.click("#hand-done")
    _waiting(dealer, 3)
    dealer.evaluate("() => window.scrollTo(0, 0)")
    screenshot(dealer, f"tablet-queue-{width}-{lang}")
    audit(axe, dealer, f"tablet queue {width} {lang}")
    entries_bust(tournament=t, busts=[BustReport(entry=rows[3].entry)], actor=actor)
    _offline(context, False)
    dealer.evaluate("() => window.dispatchEvent(new Event('online'))")
    dealer.wait_for_selector(".tq-conflict")
    dealer.wait_for_function("() => document.querySelectorAll('#tq-list li').length === 0")
    dealer.wait_for_selector("#conn.live")
    dealer.evaluate("() => window.scrollTo(0, 0)")
    screenshot(dealer, f"tablet-conflict-{width}-{lang}")
    audit(axe, dealer, f"tablet conflict {width} {lang}")
    # Words, not colour alone: the banner and the conflict say what they are.
    text = dealer.inner_text(".tq-conflict")
    assert ("Not applied:" if lang == "en" else "Nicht übernommen:") in text
    context.close()


def test_chip_counts_typed_offline_are_recorded_once_when_back(
    live_server, browser, actor, make_tournament, register
):
    from counts.models import ChipCount

    _t, table = _room(make_tournament, register, actor, players=4)
    url = f"{live_server.url}/d/{table.dealer_token}/counts/"
    context, page = _tablet(browser, f"{live_server.url}/d/{table.dealer_token}/")
    page.goto(url)
    page.wait_for_selector(".dc-row input")
    _offline(context)
    fields = page.locator(".dc-row input")
    for i in range(fields.count()):
        fields.nth(i).fill(f"{19_000 + 500 * i:,}")
    page.click("#dc-save")
    _waiting(page, 1)
    assert "1 action is kept on this tablet" in page.inner_text("#tq-banner")
    assert "Chip counts (4)" in page.inner_text("#tq-list")
    assert fields.nth(0).input_value() == "19,000"  # the typed counts stay on the page
    with contextlib.suppress(PlaywrightError):
        page.reload()
    _offline(context, False)
    page.goto(url)
    page.wait_for_selector(".messages li.success")
    assert "4 counts recorded" in page.inner_text(".messages")
    assert ChipCount.objects.filter(source="dealer").count() == 4
    assert page.locator("#tq").is_hidden()
    context.close()


def test_actions_kept_for_a_table_broken_meanwhile_come_back_not_applied(
    live_server, browser, actor, make_tournament, register
):
    t, table = _room(make_tournament, register, actor, players=6)
    seating.tables_create(tournament=t, count=1, actor=actor)
    row = SeatAssignment.objects.filter(table=table).order_by("seat")[1]
    url = f"{live_server.url}/d/{table.dealer_token}/"
    context, dealer = _tablet(browser, url)
    _offline(context)
    _bust(dealer, row.seat)
    dealer.click("#hand-done")
    _waiting(dealer, 2)
    seating.table_break(tournament=t, number=table.number, actor=actor)
    _offline(context, False)
    dealer.goto(url)  # the link's page now says the table was broken (410)
    dealer.wait_for_selector("#dealer-closed")
    dealer.wait_for_function("() => document.querySelectorAll('.tq-conflict').length === 2")
    text = dealer.inner_text("#tq-conflicts")
    assert text.count("This table was broken. Ask the floor where to go next.") == 2
    assert "The floor has been told." in text
    notes = list(
        TableReport.objects.filter(kind=ReportKind.CONFLICT)
        .order_by("id")
        .values_list("note", flat=True)
    )
    assert notes == [
        f"Bust in seat {row.seat}: This table was broken. Ask the floor where to go next.",
        "Hand 1 done: This table was broken. Ask the floor where to go next.",
    ]
    context.close()
