"""The labels of the figures beside the big-screen clock are read whole from across the room: in
German (the longest words, "Durchschnittsstack"), with all six figures, in every arrangement the
layout editor offers, with and without a logo, at 1280×720, 1920×1080, 3840×2160 (and portrait
1080×1920), no label is cut, ellipsized or spills out of its panel.

Screenshots go to $FLOOR_SHOTS (default test-artifacts/displays)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.test_displays import FITS, SETTLED, SHOTS, SIZES, logo_png

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Every shown label of a figure: its text must fit its own box (no sideways overflow, no
# ellipsis) and lie inside its panel's padding box; and every panel inside the column of
# figures. The problems, for the failure message.
LABELS_FIT = """() => {
  const problems = [];
  const shown = (el) => { const s = getComputedStyle(el);
    return s.display !== "none" && s.visibility !== "hidden" && el.getClientRects().length > 0; };
  const side = document.querySelector(".bs-side");
  const sb = side.getBoundingClientRect();
  const labels = [...document.querySelectorAll(".bs-side > .bs-box .k")].filter(shown);
  for (const k of labels) {
    const box = k.closest(".bs-box"), b = box.getBoundingClientRect(), s = getComputedStyle(k);
    const text = k.textContent.trim();
    if (k.scrollWidth > k.clientWidth + 1) problems.push(`${text}: ${k.scrollWidth} > ${k.clientWidth}`);
    if (s.textOverflow === "ellipsis") problems.push(`${text}: ellipsis`);
    // The words themselves (a range: the glyphs, not the box): inside the panel.
    const range = document.createRange();
    range.selectNodeContents(k);
    for (const r of range.getClientRects()) {
      if (r.right > b.right - 1 || r.left < b.left + 1 || r.bottom > b.bottom + 1 || r.top < b.top - 1)
        problems.push(`${text}: words at ${Math.round(r.left)}–${Math.round(r.right)} out of its panel ${Math.round(b.left)}–${Math.round(b.right)}`);
    }
    if (b.right > sb.right + 1 || b.bottom > sb.bottom + 1 || b.left < sb.left - 1)
      problems.push(`${text}: panel out of the column of figures`);
  }
  // The clock's lines (level, time, blinds, next level) inside the clock's panel.
  const clock = document.querySelector(".bs-clock").getBoundingClientRect();
  for (const line of document.querySelectorAll(".bs-clock > *")) {
    const r = line.getBoundingClientRect();
    if (r.height && (r.top < clock.top - 1 || r.bottom > clock.bottom + 1 || r.left < clock.left - 1 || r.right > clock.right + 1))
      problems.push(`${line.className} "${line.textContent.trim()}" out of the clock's panel`);
  }
  return { count: labels.length, problems,
           sizes: labels.map((k) => parseFloat(getComputedStyle(k).fontSize)) };
}"""


@pytest.fixture
def crowded(make_tournament, register, actor):
    """A running tournament, 40 seated, chip counts recorded (so the chip leaders show)."""
    from clocks.services import clock_command
    from counts.services import counts_record
    from tables import services as seating
    from tournament.models import EntryStatus

    t = make_tournament(name="Sonntags-Deepstack", status="running", venue="Casino am See")
    for i in range(40):
        register(t, name=f"Spielerin Nummer{i}")
    seating.tables_create(tournament=t, count=5, actor=actor)
    seating.seats_draw(tournament=t, actor=actor)
    clock_command(tournament=t, kind="start", actor=actor)
    live = list(t.entries.filter(status=EntryStatus.ACTIVE).order_by("number"))
    counts_record(
        tournament=t, counts={e.pk: 10_000 + 400 * i for i, e in enumerate(live)}, actor=actor
    )
    return t


# Every arrangement with figures the layout editor offers ("clock only" has none), with and
# without a logo ("with logo" needs one).
ARRANGEMENTS = [
    ("standard", False),
    ("standard", True),
    ("portrait", False),
    ("portrait", True),
    ("logo", True),
]


@pytest.mark.parametrize(("arrangement", "with_logo"), ARRANGEMENTS)
def test_no_label_is_cut_with_six_figures_in_german(
    live_server, crowded, new_page, actor, arrangement, with_logo
):
    from displays.layout_services import clock_layout_save

    clock_layout_save(
        tournament=crowded,
        arrangement=arrangement,
        figures=["players", "average", "break", "entries", "leaders", "pool"],
        background="#1a237e",
        accent="#ffd54f",
        logo=logo_png() if with_logo else None,
        actor=actor,
    )
    SHOTS.mkdir(parents=True, exist_ok=True)
    for size, viewport in SIZES.items():
        page: Any = new_page(viewport, locale="de-DE")
        page.goto(f"{live_server.url}/t/{crowded.pk}/clock/")
        page.wait_for_function("() => document.getElementById('bs-avg').textContent !== ''")
        page.evaluate(SETTLED)
        assert "dl-many" in page.get_attribute("body", "class")
        page.screenshot(path=str(SHOTS / f"labels-{arrangement}-{with_logo}-{size}.png"))
        found = page.evaluate(LABELS_FIT)
        where = f"{arrangement}, logo {with_logo}, {size}"
        assert found["count"] == 6, where  # all six figures, chip leaders included
        assert not found["problems"], f"{where}: {found['problems']}"
        # Still read from across the room: no label under 1.8 % of the screen's height.
        unit = min(viewport["height"], viewport["width"] * 9 / 16) / 100
        if viewport["height"] < viewport["width"]:
            assert min(found["sizes"]) >= 1.8 * unit, (where, found["sizes"])
        assert page.evaluate(FITS) is None, where
