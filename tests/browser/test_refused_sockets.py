"""Sockets refused with a code their page reads (live/realtime.py `refuse`): the server
takes the socket and closes it at once with the code. Refused at the handshake, the browser saw
only a failed connection: a dealer tablet whose socket was down while its table was broken tried
again for ever and went on showing a table that was no more."""

from __future__ import annotations

import pytest
from django.core.cache import cache

from actions.tables import table_break
from tables import services as seating
from tables.models import Table
from tests.browser.conftest import screenshot
from tournament.models import Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Keeps the page's sockets at hand and lets the test hold back new ones (a tablet out of reach).
HOLD_SOCKETS = """(() => {
  const Real = window.WebSocket;
  window.heldBack = false;
  window.sockets = [];
  window.WebSocket = class extends Real {
    constructor(url, protocols) {
      if (window.heldBack) throw new Error("out of reach");
      super(url, protocols);
      window.sockets.push(this);
    }
  };
})();"""


def test_a_tablet_back_after_its_table_was_broken_says_to_ask_the_floor(
    asgi_server, new_page, make_tournament, register, actor
):
    t = make_tournament(status="running", late_registration_until_level=6, seats_per_table=6)
    for _ in range(8):
        register(t)
    seating.seats_draw(tournament=t, actor=actor)
    seating.tables_create(tournament=t, count=1, actor=actor, seats=10)
    broken = Table.objects.get(tournament=t, number=2)

    page = new_page({"width": 1280, "height": 800})
    page.add_init_script(HOLD_SOCKETS)
    page.goto(f"{asgi_server}/d/{broken.dealer_token}/")
    page.wait_for_selector("#conn.live")
    # The tablet loses its connection; while it is away, the floor breaks its table (the
    # message goes to nobody).
    page.evaluate("() => { window.heldBack = true; window.sockets.at(-1).close(); }")
    page.wait_for_selector("#conn.offline")
    table_break(tournament=t, number=2, actor=actor)
    page.evaluate("() => { window.heldBack = false; }")
    # Back within its retry (at most 5 s): the server closes the socket with 4410.
    page.wait_for_selector("#dealer-closed")
    assert "This table was broken. Ask the floor" in page.inner_text("#dealer-closed")
    screenshot(page, "dealer-back-after-break")
    # Nothing more is tried.
    tried = page.evaluate("() => window.sockets.length")
    page.wait_for_timeout(1500)
    assert page.evaluate("() => window.sockets.length") == tried


def test_a_screen_whose_tournament_is_gone_stops_trying(asgi_server, new_page, make_tournament):
    t = make_tournament(status="running")
    page = new_page({"width": 1280, "height": 720})
    page.add_init_script(HOLD_SOCKETS)
    page.goto(f"{asgi_server}/t/{t.pk}/clock/")
    page.wait_for_function("() => window.sockets.length && window.sockets[0].readyState === 1")
    page.evaluate("() => { window.heldBack = true; window.sockets.at(-1).close(); }")
    page.wait_for_selector("#bs-status.offline")
    Tournament.objects.filter(pk=t.pk).delete()
    # A minute later: sockets keep a tournament's existence a minute. Cleared again after a
    # second: the offline screen polls, and a read in flight when the row went could keep the
    # tournament's existence again (the socket then accepted, and failing, tried again).
    cache.clear()
    page.wait_for_timeout(1000)
    cache.clear()
    page.evaluate("() => { window.heldBack = false; }")
    # Back within its retry, the socket is closed with 4404 and the screen tries no more.
    page.wait_for_function(
        "() => window.sockets.length === 2 && window.sockets[1].readyState === 3"
    )
    page.wait_for_timeout(5500)  # longer than the longest pause between tries
    assert page.evaluate("() => window.sockets.length") == 2
    assert page.locator("#bs-status").inner_text() != ""
