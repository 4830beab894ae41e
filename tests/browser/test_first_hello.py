"""A page is rendered before its socket opens: a change made in between comes on no message.
Every tournament socket's first message, the hello, names the tournament's latest change; a
page that shows live data and carries the version it was rendered at fetches itself once when
the hello is newer (tournament/consumers.py `_hello`). Here each change is made while the page's
socket is held back (Playwright routes the socket and connects it after the change), in
Chromium: the public chip counts, bag and tag, a sign-up's status page, a display's seating
list. And the dealer tablet, which reloads its table on every connection: a reload answered
after a newer table came on the socket does not put the older table back."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tables import services as seating
from tests.browser.test_console_fetch import _seated

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


def _held_socket(page: Any, path: str, change: Any) -> list[Any]:
    """Route the page's sockets to `path`: the first is connected only after `change()` ran."""
    opened: list[Any] = []

    def socket(ws: Any) -> None:
        if not opened:
            change()
        opened.append(ws)
        ws.connect_to_server()

    page.route_web_socket(re.compile(path), socket)
    return opened


def test_counts_recorded_between_the_page_and_its_socket_show_without_a_reload(
    asgi_server, browser, actor, make_tournament
):
    from tests.browser.test_chip_counts import _count_tables, _night

    t = _night(make_tournament, actor, players=18)
    ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, locale="en-GB")
    page = ctx.new_page()
    opened = _held_socket(page, r"/ws/t/", lambda: _count_tables(t, actor, [1]))
    rendered = page.goto(f"{asgi_server}/t/{t.pk}/counts/")
    assert "No counts yet" in rendered.text()  # the page was rendered before the count
    page.wait_for_function(
        "() => document.getElementById('counts-public').dataset.updated", timeout=10_000
    )
    assert "No counts yet" not in page.inner_text("#counts-public")
    assert len(opened) == 1
    # A reload with nothing in between: the hello matches the page, nothing is fetched.
    page.reload()
    page.wait_for_function("() => document.getElementById('counts-public').dataset.live === 'live'")
    page.wait_for_timeout(2500)  # longer than a fetch's spread (static/counts/live.js)
    assert page.evaluate("() => document.getElementById('counts-public').dataset.updated") is None
    ctx.close()


def test_bags_recorded_between_bag_and_tag_and_its_socket_show_without_a_reload(
    asgi_server, browser, actor, director, make_tournament
):
    from django.test import Client

    from festivals.services import bagging_open, bags_record
    from festivals.tests.test_views import make_event, run_flight
    from tests.browser.conftest import login
    from tournament.models import EntryStatus

    boss = Client()
    boss.force_login(director)
    event = make_event(boss, make_tournament(status="registering", seats_per_table=6))
    t = run_flight(event.flights.order_by("position").first().tournament, actor, 7, 0)
    bagging = bagging_open(tournament=t, actor=actor)
    alive = list(t.entries.filter(status=EntryStatus.ACTIVE).select_related("seat__table"))
    number = min(e.seat.table.number for e in alive)
    here = [e for e in alive if e.seat.table.number == number]

    def record() -> None:
        bags = {e.pk: (20000, f"B{e.number}") for e in here}
        bags_record(bagging=bagging, table_number=number, bags=bags, actor=actor)

    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-GB")
    page = ctx.new_page()
    login(page, asgi_server, "dir", "pw-director-123")
    opened = _held_socket(page, r"/ws/t/", record)
    rendered = page.goto(f"{asgi_server}/console/festivals/{event.pk}/bag/{bagging.pk}/")
    bagged = f"0 of {len(here)} confirmed"  # bagged by one person, not yet confirmed
    assert f"0 of {len(here)} bagged" in rendered.text()  # rendered before the bags
    page.wait_for_selector(f"#fe-tables li:has-text('{bagged}')", timeout=10_000)
    assert len(opened) == 1
    ctx.close()


def test_a_place_given_between_the_status_page_and_its_socket_shows_at_once(
    asgi_server, browser, actor, make_tournament
):
    from signups import services as su

    t = make_tournament(status="registering", capacity=1)
    su.sheet_update(
        tournament=t, actor=actor, is_open=True, places=None, reserved=0, check_in_deadline=None
    )
    first = su.signup_create(tournament=t, display_name="Anna Berg", actor=actor)
    second = su.signup_create(tournament=t, display_name="Ben Cohn", actor=actor)
    ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, locale="en-GB")
    page = ctx.new_page()
    navigations: list[str] = []
    page.on("framenavigated", lambda f: navigations.append(f.url) if f == page.main_frame else None)
    _held_socket(page, r"/ws/t/", lambda: su.signup_cancel(signup=first, actor=actor))
    rendered = page.goto(f"{asgi_server}/signup/{second.token}/")
    assert "Waiting list: position 1 of 1" in rendered.text()  # rendered before the cancel
    page.wait_for_selector("#signup-words:has-text('You have a place')", timeout=10_000)
    assert len(navigations) == 1  # the page fetched its state; it did not reload
    ctx.close()


def test_a_display_view_drawn_before_a_move_draws_itself_again(
    asgi_server, browser, actor, make_tournament, register
):
    from displays.domain.views import Kind, Step
    from displays.services import display_assign, display_open, display_pair
    from tables.models import SeatAssignment

    t = _seated(make_tournament, register, actor, 12)
    display, token = display_open()
    display_pair(code=display.code, name="Hall", actor=actor)
    display_assign(display_id=display.pk, steps=[Step(Kind.SEATING, tournament=t.pk)], actor=actor)
    row = SeatAssignment.objects.filter(table__tournament=t, table__number=1).first()
    target = t.tables.get(number=2)
    taken = set(target.assignments.values_list("seat", flat=True))
    free = next(n for n in range(1, target.seats + 1) if n not in taken)

    def move() -> None:
        seating.seat_move(tournament=t, entry=row.entry, table_number=2, seat=free, actor=actor)

    ctx = browser.new_context(viewport={"width": 1920, "height": 1080}, locale="en-GB")
    ctx.add_cookies([{"name": "floor_display", "value": token, "url": asgi_server}])
    page = ctx.new_page()
    _held_socket(page, r"/ws/t/", move)
    rendered = page.goto(f"{asgi_server}/display/view/0/")
    at_two = re.compile(r'<td class="num strong">2</td>')
    assert len(at_two.findall(rendered.text())) == 6  # drawn before the move
    # The view sees it differs and is drawn again (spread over 5 to 8 s, static/displays/views.js).
    with page.expect_event("load", timeout=15_000):
        pass
    counted = "() => [...document.querySelectorAll('td.num.strong')].filter((c) => c.textContent.trim() === '2').length"
    page.wait_for_function(f"() => ({counted})() === 7", timeout=5_000)
    ctx.close()


def test_a_tablets_reload_answered_after_a_newer_table_does_not_undo_it(
    asgi_server, browser, actor, make_tournament, register
):
    # The tablet reloads its table when its socket opens. The reload is read before a time
    # call, the time call's table comes on the socket, then the reload's answer arrives: the
    # tablet must end showing the time call.
    import json

    from tables.services.timecalls import time_call_start

    t = _seated(make_tournament, register, actor, 12)
    table = t.tables.get(number=1)
    ctx = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-GB")
    page = ctx.new_page()
    held: list[Any] = []
    tables_seen: list[str] = []

    def fragment(route: Any) -> None:
        if route.request.headers.get("hx-request") and not held:
            held.append((route, route.fetch()))  # read now, answered when the test says
        else:
            route.continue_()

    def socket(ws: Any) -> None:
        server = ws.connect_to_server()

        def from_server(message: str | bytes) -> None:
            text = message if isinstance(message, str) else message.decode()
            if json.loads(text).get("event") == "table":
                tables_seen.append(text)
            ws.send(message)

        server.on_message(from_server)

    page.route(re.compile(rf"/d/{table.dealer_token}/$"), fragment)
    page.route_web_socket(re.compile(r"/ws/d/"), socket)
    page.goto(f"{asgi_server}/d/{table.dealer_token}/")
    for _ in range(100):
        if held:
            break
        page.wait_for_timeout(100)
    assert held, "the tablet did not reload its table when its socket opened"
    time_call_start(table=table, seat=None, actor=actor)
    for _ in range(100):
        if tables_seen:
            break
        page.wait_for_timeout(100)
    assert tables_seen, "the time call's table did not come on the socket"
    route, response = held.pop()
    route.fulfill(response=response)
    page.wait_for_selector("#timecall", timeout=5000)
    page.wait_for_timeout(1000)  # and it stays
    assert page.locator("#timecall").count() == 1
    ctx.close()
