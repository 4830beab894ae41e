"""Events carry the state: the big screen, a player's phone and a dealer tablet show a bust and
a move from the message alone, without asking the server again (live/catalogue.py)."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import timezone

from actions.bust import BustReport, entries_bust
from clocks.services import clock_command
from tables import services as seating
from tables.models import SeatAssignment, Table
from tests.browser.conftest import screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _watch(page: Any) -> list[str]:
    """The page's requests from now on, websockets and static files left out."""
    seen: list[str] = []

    def note(request: Any) -> None:
        if request.resource_type != "websocket" and "/static/" not in request.url:
            seen.append(request.url)

    page.on("request", note)
    return seen


def test_screens_apply_a_bust_and_a_move_without_asking(
    asgi_server, browser, actor, make_tournament, register
):
    t = make_tournament(status="running", late_registration_until_level=6)
    entries = [register(t, f"Spieler Nummer{n}") for n in range(14)]
    seating.seats_draw(tournament=t, actor=actor)
    clock_command(tournament=t, kind="start", actor=actor, now=timezone.now())
    phone_entry = entries[0]
    phone_row = SeatAssignment.objects.select_related("table").get(entry=phone_entry)
    tablet_table = Table.objects.filter(tournament=t).exclude(pk=phone_row.table_id).first()
    victim_row = tablet_table.assignments.select_related("entry").first()

    ctx = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-GB")
    big = ctx.new_page()
    big.goto(f"{asgi_server}/t/{t.pk}/clock/")
    big.wait_for_function("() => document.getElementById('bs-status').textContent === 'live'")
    phone = ctx.new_page()
    phone.goto(f"{asgi_server}/s/{phone_entry.public_token}/")
    phone.wait_for_function(
        "() => document.getElementById('seat-conn').textContent.includes('live')"
    )
    tablet = ctx.new_page()
    tablet.goto(f"{asgi_server}/d/{tablet_table.dealer_token}/")
    tablet.wait_for_selector("#conn.live")
    tablet.wait_for_selector(f"button.seat[data-seat='{victim_row.seat}']:not(.empty)")
    big.wait_for_timeout(1500)  # the connect-time snapshot fetches are done
    asked = {"big screen": _watch(big), "phone": _watch(phone), "tablet": _watch(tablet)}

    entries_bust(tournament=t, busts=[BustReport(entry=victim_row.entry)], actor=actor)
    big.wait_for_function(
        "() => document.getElementById('bs-players').textContent.startsWith('13')"
    )
    tablet.wait_for_selector(f"button.seat.empty[data-seat='{victim_row.seat}']")

    free = min(
        set(range(1, tablet_table.seats + 1))
        - set(tablet_table.assignments.values_list("seat", flat=True))
    )
    seating.seat_move(
        tournament=t, entry=phone_entry, table_number=tablet_table.number, seat=free, actor=actor
    )
    phone.wait_for_selector(".notice.move")
    assert phone.inner_text("#seat-table") == str(tablet_table.number)
    tablet.wait_for_selector(f"button.seat[data-seat='{free}']:not(.empty)")
    screenshot(tablet, "live-tablet-after-move")
    screenshot(phone, "live-phone-after-move")

    assert asked == {"big screen": [], "phone": [], "tablet": []}
    # The tablet's swapped-in table still posts: "Hand done" works from it.
    tablet.click("#hand-done")
    tablet.wait_for_function(
        "() => document.querySelector('.d-level .sub').textContent.includes('Hand 2')"
    )
    ctx.close()


def test_the_console_fetches_only_the_changed_table(
    asgi_server, browser, actor, floor_user, make_tournament, register
):
    from tests.browser.conftest import login

    t = make_tournament(status="running", late_registration_until_level=6)
    entries = [register(t) for _ in range(20)]
    seating.seats_draw(tournament=t, actor=actor)
    ctx = browser.new_context(viewport={"width": 1366, "height": 900}, locale="en-GB")
    page = ctx.new_page()
    login(page, asgi_server, "flo", "pw-floor-123")
    page.goto(f"{asgi_server}/console/t/{t.pk}/seating/")
    page.wait_for_selector(".tables-grid")
    page.wait_for_timeout(1000)  # the socket is open
    asked = _watch(page)
    row = SeatAssignment.objects.select_related("table").get(entry=entries[5])
    before = page.inner_text(f"#table-{row.table.number} .count")
    entries_bust(tournament=t, busts=[BustReport(entry=entries[5])], actor=actor)
    page.wait_for_function(
        "([sel, old]) => document.querySelector(sel).textContent !== old",
        arg=[f"#table-{row.table.number} .count", before],
    )
    assert len(asked) == 1 and f"tables={row.table.number}" in asked[0], asked
    assert page.inner_text("#chart-head .stat .value") == "19"  # players seated, whole room
    screenshot(page, "live-console-after-bust")
    ctx.close()


def test_a_console_back_after_a_drop_fetches_the_whole_chart(
    asgi_server, browser, actor, floor_user, make_tournament, register
):
    """The server closes a console's socket that falls behind (live/hub.py); a bust while it
    was away came on no message, so the console fetches the whole chart when it is back."""
    import re

    from tests.browser.conftest import login

    t = make_tournament(status="running", late_registration_until_level=6)
    entries = [register(t) for _ in range(20)]
    seating.seats_draw(tournament=t, actor=actor)
    ctx = browser.new_context(viewport={"width": 1366, "height": 900}, locale="en-GB")
    page = ctx.new_page()
    sockets: list[Any] = []

    def route(ws: Any) -> None:
        sockets.append(ws)
        ws.connect_to_server()

    page.route_web_socket(re.compile(r"/ws/console/"), route)
    login(page, asgi_server, "flo", "pw-floor-123")
    page.goto(f"{asgi_server}/console/t/{t.pk}/seating/")
    page.wait_for_selector(".tables-grid")
    page.wait_for_timeout(1000)  # the socket is open
    assert len(sockets) == 1
    row = SeatAssignment.objects.select_related("table").get(entry=entries[5])
    before = page.inner_text(f"#table-{row.table.number} .count")
    sockets[0].close()  # dropped; the page reconnects once Playwright runs its next step
    entries_bust(tournament=t, busts=[BustReport(entry=entries[5])], actor=actor)
    asked = _watch(page)
    page.wait_for_function(
        "([sel, old]) => document.querySelector(sel).textContent !== old",
        arg=[f"#table-{row.table.number} .count", before],
    )
    assert len(sockets) == 2
    assert any("tables=" not in url and "/seating/" in url for url in asked), asked
    assert page.inner_text("#chart-head .stat .value") == "19"
    ctx.close()
