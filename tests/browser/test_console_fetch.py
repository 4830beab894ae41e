"""The seating console asks a slow server for one thing at a time: while its fetch of changed
tables is under way, the tables named meanwhile wait and go in one fetch after it
(static/tables/console.js). A bust alone waits up to a second for the tables' message. In a
steady stream of messages a fetch starts at least half a second after the one before."""

from __future__ import annotations

import itertools
import json
import re
import time
from typing import Any

import pytest

from tables import services as seating

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _seating(tables: list[int]) -> str:
    return json.dumps({"type": "event", "event": "seating", "data": {"tables": tables}})


def _seated(make_tournament: Any, register: Any, actor: Any, players: int) -> Any:
    """A running tournament with `players` drawn to their seats."""
    t = make_tournament(status="running", late_registration_until_level=6)
    for _ in range(players):
        register(t)
    seating.seats_draw(tournament=t, actor=actor)
    return t


def chart_page(
    browser: Any, base: str, t: Any, *, width: int = 1366, locale: str = "en-GB"
) -> tuple[Any, Any, list[Any]]:
    """A floor account's seating chart of `t`, its console socket routed through the test (the
    list it returns gets the socket, to send the page messages as the server would)."""
    ctx = browser.new_context(viewport={"width": width, "height": 900}, locale=locale)
    page = ctx.new_page()
    sockets: list[Any] = []

    def socket(ws: Any) -> None:
        sockets.append(ws)
        ws.connect_to_server()

    page.route_web_socket(re.compile(r"/ws/console/"), socket)
    return ctx, page, sockets


def open_chart(page: Any, base: str, t: Any) -> None:
    from tests.browser.conftest import login

    login(page, base, "flo", "pw-floor-123")
    page.goto(f"{base}/console/t/{t.pk}/seating/")
    page.wait_for_selector(".tables-grid")
    page.wait_for_timeout(800)  # the socket is open


def test_a_console_keeps_one_fetch_in_flight_and_gathers_what_comes_meanwhile(
    asgi_server, browser, actor, floor_user, make_tournament, register
):
    t = _seated(make_tournament, register, actor, 20)
    ctx, page, sockets = chart_page(browser, asgi_server, t)
    held: list[Any] = []  # fetches of changed tables, answered when the test says so
    answer_at_once = [False]

    def fetched(route: Any) -> None:
        if answer_at_once[0]:
            route.continue_()
        else:
            held.append(route)

    page.route(re.compile(r"/seating/\?.*tables="), fetched)
    open_chart(page, asgi_server, t)
    assert len(sockets) == 1

    def fetch_starts() -> list[float]:
        """When each fetch of tables started, in seconds, as the page's own resource timing
        says: the test process sees a route's callback only when it next waits, late by as much
        as a busy machine makes it."""
        return page.evaluate(
            "performance.getEntriesByType('resource')"
            ".filter((e) => e.name.includes('tables=')).map((e) => e.startTime / 1000)"
        )

    def asked() -> list[str]:
        return [re.search(r"tables=([\d%C,]*)", r.request.url).group(1) for r in held]

    sockets[0].send(_seating([1]))
    page.wait_for_timeout(500)
    assert asked() == ["1"]  # gathered 200 ms, then fetched
    # The server is slow: what changes meanwhile waits for that answer.
    sockets[0].send(_seating([2]))
    page.wait_for_timeout(300)
    sockets[0].send(_seating([1, 2]))
    page.wait_for_timeout(600)
    assert asked() == ["1"]
    held[0].continue_()
    page.wait_for_timeout(600)
    second = asked()[1:]
    assert len(second) == 1 and sorted(second[0].replace("%2C", ",").split(",")) == ["1", "2"]
    held[1].continue_()
    page.wait_for_timeout(300)
    # A bust alone waits up to a second for the message naming its tables.
    sockets[0].send(json.dumps({"type": "event", "event": "bust", "data": {}}))
    page.wait_for_timeout(500)
    assert len(held) == 2
    page.wait_for_timeout(900)
    assert len(held) == 3
    answer_at_once[0] = True
    held[2].continue_()
    page.wait_for_timeout(600)
    # A storm: a message every 100 ms for two seconds, each fetch answered at once.
    before = len(fetch_starts())
    began = time.monotonic()
    for n in range(20):
        sockets[0].send(_seating([1 + n % 2]))
        page.wait_for_timeout(100)
    page.wait_for_timeout(700)
    # Two seconds and more: on a busy machine each send and wait takes longer than 100 ms.
    lasted = time.monotonic() - began
    storm = fetch_starts()[before:]
    # Not one every 200 ms: a fetch at least 500 ms after the one before (some slack below).
    assert 3 <= len(storm) <= 1 + lasted / 0.4, (lasted, storm)
    assert all(b - a >= 0.4 for a, b in itertools.pairwise(storm)), storm
    ctx.close()


def test_a_change_between_the_page_and_its_socket_is_fetched_once(
    asgi_server, browser, actor, floor_user, make_tournament, register
):
    # The floor moves a player after the chart page was rendered and before its socket joined
    # the console's feed: no message names the table, the socket's hello says the chart is
    # behind, and the console fetches it once. A later page with nothing in between does not.
    from tables.models import SeatAssignment
    from tests.browser.conftest import login

    t = _seated(make_tournament, register, actor, 12)
    row = SeatAssignment.objects.filter(table__tournament=t, table__number=1).first()
    target = t.tables.get(number=2)
    taken = set(target.assignments.values_list("seat", flat=True))
    free = next(n for n in range(1, target.seats + 1) if n not in taken)
    ctx = browser.new_context(viewport={"width": 1366, "height": 900}, locale="en-GB")
    page = ctx.new_page()
    moved = []

    def socket(ws: Any) -> None:
        if not moved:
            seating.seat_move(tournament=t, entry=row.entry, table_number=2, seat=free, actor=actor)
            moved.append(True)
        ws.connect_to_server()

    page.route_web_socket(re.compile(r"/ws/console/"), socket)
    login(page, asgi_server, "flo", "pw-floor-123")
    page.goto(f"{asgi_server}/console/t/{t.pk}/seating/")
    # Six players at each table before the move; after it the chart shows seven at table 2.
    seated = "(n) => document.querySelectorAll(`#table-${n} .seats li:not(.empty)`).length"
    page.wait_for_function(f"() => ({seated})(2) === 7", timeout=10_000)
    assert page.evaluate(f"() => ({seated})(1)") == 5
    fetched = (
        "() => performance.getEntriesByType('resource')"
        ".filter((e) => /\\/seating\\/(\\?|$)/.test(e.name)).length"
    )
    assert page.evaluate(fetched) == 1
    # Again, with nothing changed in between: the hello matches the page, nothing is fetched.
    page.reload()
    page.wait_for_selector(".tables-grid")
    page.wait_for_timeout(1500)
    assert page.evaluate(fetched) == 0
    ctx.close()


def test_a_fetch_names_at_most_two_hundred_tables_and_the_rest_follow(
    asgi_server, browser, actor, floor_user, make_tournament, register
):
    """The chart's fragment reads at most 200 table numbers (tables/views.py): a storm that named
    more (a festival's tables at a break) fetches 200 and the rest in the next fetch."""
    t = _seated(make_tournament, register, actor, 12)
    ctx, page, sockets = chart_page(browser, asgi_server, t)
    asked: list[list[int]] = []

    def fetched(route: Any) -> None:
        named = re.search(r"tables=([\d%C,]*)", route.request.url).group(1)
        asked.append([int(n) for n in named.replace("%2C", ",").split(",") if n])
        route.continue_()

    page.route(re.compile(r"/seating/\?.*tables="), fetched)
    open_chart(page, asgi_server, t)
    sockets[0].send(_seating(list(range(1, 251))))
    page.wait_for_timeout(2000)
    assert [len(names) for names in asked] == [200, 50]
    assert sorted(asked[0] + asked[1]) == list(range(1, 251))
    ctx.close()
