"""The dealer tablet on a phone (360-414 px): the connection badge lies over nothing, the page
does not scroll sideways, every control is at least 44 × 44 px, and the header shows the level
with a big-blind ante's amount; on a tablet (1280 px) the layout is as before. Screenshots go to
test-artifacts/dealer-phone-<width>.png."""

from __future__ import annotations

import pytest

from tests.browser.conftest import ARTIFACTS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# What lies under the connection badge, which controls are under 44 px, and the page's width.
LAYOUT = """() => {
  const dot = document.getElementById('conn').getBoundingClientRect();
  const hits = (b) => !(dot.right <= b.left || dot.left >= b.right || dot.bottom <= b.top || dot.top >= b.bottom);
  const under = [...document.querySelectorAll('.d-head, .d-head *, .seat, .shotclock, .banner')]
    .filter((e) => hits(e.getBoundingClientRect())).map((e) => e.className || e.tagName);
  const small = [...document.querySelectorAll('#dealer button, #dealer a.btn')]
    .filter((e) => { const b = e.getBoundingClientRect(); return b.width && (b.width < 44 || b.height < 44); })
    .map((e) => `${e.className || e.id} ${Math.round(e.getBoundingClientRect().width)}x${Math.round(e.getBoundingClientRect().height)}`);
  return { under, small, wide: document.documentElement.scrollWidth > innerWidth + 1,
           badge: getComputedStyle(document.getElementById('conn')).position };
}"""


def test_the_dealer_tablet_fits_a_phone(asgi_server, make_tournament, register, new_page, actor):
    from clocks.services import clock_command
    from tables import services as seating
    from tables.models import Table
    from tournament.models import Tournament

    t = make_tournament(name="Sunday Deepstack", venue="Casino", status="running")
    Tournament.objects.filter(pk=t.pk).update(shot_clock=True)
    first = t.structure.levels.order_by("position").first()
    first.small_blind, first.big_blind, first.ante, first.big_blind_ante = 500, 1000, 0, True
    first.save()
    for name in ("Xenia Wolf", "Sven Krause", "Greta Kaiser", "Tim Kurz", "Elif Rahn",
                 "Sara Nowak", "Marco Hoffmann-Schulz", "Lena Weber", "Sven Maier"):  # fmt: skip
        register(t, name=name)
    seating.tables_create(tournament=t, count=1, area="Saal 1", actor=actor)
    seating.seats_draw(tournament=t, actor=actor)
    clock_command(tournament=t, kind="start", actor=actor)
    table = Table.objects.get(tournament=t)
    for width, height in ((360, 740), (390, 844), (414, 896), (1280, 800)):
        page = new_page({"width": width, "height": height}, phone=width < 640)
        page.goto(f"{asgi_server}/d/{table.dealer_token}/")
        page.wait_for_function("() => document.getElementById('conn').textContent.trim() !== ''")
        page.wait_for_function("() => document.getElementById('d-lv').textContent.includes('BB')")
        assert page.inner_text("#d-lv").endswith("BB ante 1,000"), page.inner_text("#d-lv")
        page.screenshot(path=str(ARTIFACTS / f"dealer-phone-{width}.png"), full_page=True)
        found = page.evaluate(LAYOUT)
        assert not found["wide"], width
        if width < 640:
            assert found["under"] == [], (width, found["under"])
            assert found["small"] == [], (width, found["small"])
        else:
            assert found["badge"] == "fixed"  # the tablet's layout is unchanged
