"""The public page of one table (the QR on the table card) follows its table live: a bust, a
move in and a break show without a reload."""

from __future__ import annotations

import pytest

from actions.bust import BustReport, entries_bust
from tables import services as seating
from tables.models import SeatAssignment, Table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_table_page_shows_busts_moves_and_a_break_without_a_reload(
    asgi_server, new_page, actor, make_tournament, register
):
    t = make_tournament(status="running", late_registration_until_level=6)
    for i in range(14):
        register(t, f"Player Number{i}")
    seating.seats_draw(tournament=t, actor=actor)
    first, second = Table.objects.filter(tournament=t).order_by("number")[:2]
    here = list(first.assignments.select_related("entry__player").order_by("seat"))
    elsewhere = second.assignments.select_related("entry__player").order_by("seat").first()
    assert elsewhere is not None

    phone = new_page({"width": 360, "height": 740}, phone=True)
    phone.goto(f"{asgi_server}/t/{t.pk}/table/{first.number}/")
    seats = phone.locator("#public-seats li")

    def shown(seat: int) -> str:
        return seats.nth(seat - 1).inner_text().split("\n", 1)[-1].strip()

    victim = here[0]
    assert victim.entry.player.display_name in shown(victim.seat)
    phone.wait_for_function("() => window.floorTable !== undefined")
    loaded = phone.evaluate("() => window.performance.timeOrigin")

    entries_bust(tournament=t, busts=[BustReport(entry=victim.entry)], actor=actor)
    phone.wait_for_function(
        "([n, name]) => !document.querySelectorAll('#public-seats li')[n - 1]"
        ".textContent.includes(name)",
        arg=[victim.seat, victim.entry.player.display_name],
    )
    assert shown(victim.seat) == "empty"

    # A player from another table is moved into the free seat.
    seating.seat_move(
        tournament=t,
        entry=elsewhere.entry,
        table_number=first.number,
        seat=victim.seat,
        actor=actor,
    )
    phone.wait_for_function(
        "([n, name]) => document.querySelectorAll('#public-seats li')[n - 1]"
        ".textContent.includes(name)",
        arg=[victim.seat, elsewhere.entry.player.display_name],
    )
    assert phone.locator("#table-closed").is_hidden()

    # The table is broken (room made for its players first): the page says it is closed, and
    # nobody sits there.
    gone = [r.entry for r in second.assignments.select_related("entry").order_by("seat")[:4]]
    for entry in gone:
        entries_bust(tournament=t, busts=[BustReport(entry=entry)], actor=actor)
    seating.table_break(tournament=t, number=first.number, actor=actor)
    phone.locator("#table-closed").wait_for(state="visible")
    phone.wait_for_function(
        "() => [...document.querySelectorAll('#public-seats li')]"
        ".every((li) => li.querySelector('.muted'))"
    )
    assert not SeatAssignment.objects.filter(table=first).exists()
    # All of it without a reload.
    assert phone.evaluate("() => window.performance.timeOrigin") == loaded
