"""The venue's printed codes in Chromium: the console is opened at localhost (the director's own
machine), yet every QR code on the seat cards and table cards carries the venue's public
address (`--public-address`: this machine's LAN address), which a phone in the room can open.
And the console's Other devices page at a phone's and a laptop's width, in English and German,
with the accessibility check of tests/browser/test_accessibility.py."""

from __future__ import annotations

import io
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import login, screenshot
from tests.browser.test_accessibility import DESKTOP, PHONE, audit
from tests.services import require
from tests.venue_night import Night, prepare
from tests.venue_server import DIRECTOR, Venue, start_venue

pytestmark = [pytest.mark.browser, pytest.mark.venue, pytest.mark.slow]

SHOTS = Path("/tmp/venue-shots")


@dataclass(frozen=True)
class Room:
    venue: Venue
    night: Night
    local: str  # where the director's browser opens the console
    public: str  # what every code carries


@pytest.fixture(scope="module")
def room(tmp_path_factory: Any) -> Iterator[Room]:
    from venue.network import base_url, lan_address

    address = lan_address()
    require(address is not None, "A network address of this machine other than loopback")
    assert address is not None
    var = tmp_path_factory.mktemp("venue-qr") / "var"
    # Two tables: 12 players at tables of 8.
    night = prepare(var, name="QR Cup", players=12, seats=8, signups=False)
    venue = start_venue(var, "--public-address", address, "--no-mdns")
    try:
        yield Room(
            venue=venue,
            night=night,
            local=f"http://localhost:{venue.port}",
            public=base_url(address, venue.port),
        )
    finally:
        venue.stop()


@pytest.fixture
def axe() -> Any:
    from axe_playwright_python.sync_playwright import Axe

    return Axe()


def scan(png: bytes) -> str:
    import zxingcpp
    from PIL import Image

    found = zxingcpp.read_barcodes(Image.open(io.BytesIO(png)))
    assert len(found) == 1, "the QR code did not decode"
    return str(found[0].text)


def scan_all(page: Any, selector: str) -> list[str]:
    codes = page.locator(selector)
    assert codes.count() > 0, f"no {selector} on the page"
    return [scan(codes.nth(i).screenshot()) for i in range(codes.count())]


def test_seat_cards_and_table_cards_carry_the_public_address(room, new_page):
    pk = room.night.tournament
    page = new_page(DESKTOP)
    login(page, room.local, *DIRECTOR)

    page.goto(f"{room.local}/console/t/{pk}/print/seat-cards/")
    seats = scan_all(page, ".seat-card .sc-qr svg")
    screenshot(page, "venue-seat-cards")
    assert sorted(seats) == sorted(f"{room.public}/s/{t}/" for t in room.night.seat_tokens)
    assert not any("localhost" in url or "127.0.0.1" in url for url in seats)

    page.goto(f"{room.local}/console/t/{pk}/print/table-cards/")
    tables = scan_all(page, ".table-card .tc-qr svg")
    assert sorted(tables) == sorted(f"{room.public}/t/{pk}/table/{n}/" for n in room.night.tables)

    # The address is this machine's own: a phone's browser opens the first card's link there.
    phone = new_page(PHONE, phone=True)
    phone.goto(seats[0])
    phone.wait_for_selector("#seat-table")
    assert phone.inner_text("#seat-table").strip() in {str(n) for n in room.night.tables}
    phone.goto(tables[0])
    assert phone.locator("h1").count() == 1


@pytest.mark.parametrize("locale", ["en-GB", "de-DE"])
def test_other_devices_page_at_a_phone_and_a_laptop_width(room, new_page, axe, locale):
    SHOTS.mkdir(parents=True, exist_ok=True)
    lang = locale[:2]
    for name, viewport in (("390", PHONE), ("1366", DESKTOP)):
        page = new_page(viewport, locale)
        login(page, room.local, *DIRECTOR)
        page.goto(f"{room.local}/console/devices/")
        assert page.get_attribute("html", "lang") == lang
        assert page.inner_text("#venue-console-url") == f"{room.public}/console/"
        assert page.inner_text("#venue-players-url") == f"{room.public}/"
        assert page.locator("#local-only").count() == 0
        # Its codes, drawn at the page's size, read as the addresses beside them.
        assert scan_all(page, ".qr-box svg") == [f"{room.public}/console/", f"{room.public}/"]
        # Started with --no-mdns: the page names no .local name devices would try in vain.
        assert ".local" not in page.inner_text("main")
        # The big screen of the tournament that is registering, at the public address too.
        assert f"{room.public}/t/{room.night.tournament}/clock/" in page.inner_text(
            ".venue-screens"
        )
        page.screenshot(path=str(SHOTS / f"devices-{lang}-{name}.png"), full_page=True)
        audit(axe, page, f"venue devices ({lang}, {name} px)")
