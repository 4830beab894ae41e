"""The announcements' rules: texts (markup, placeholders) and what the clock announces when.
The same rules run in the browser (static/clocks/speech.js); the last tests run both."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clocks.domain.announcements import (
    CLOCK_KINDS,
    FLOOR_KINDS,
    PLACEHOLDERS,
    Due,
    Look,
    Row,
    TextError,
    announcements_due,
    check_text,
    closing_row,
    look_after,
    render,
    row_start,
    upcoming,
)

MIN = 60_000


def level(number, sb, bb, minutes=20, ante=0, bba=False):
    return Row(number, False, minutes, sb, bb, ante, bba)


def brk(after, minutes=10, color_up=()):
    return Row(None, True, minutes, color_up=tuple(color_up), after_level=after)


# Levels 1, 2, a break with a colour-up, 3, 4 (with an ante), a break, 5.
STRUCTURE = [
    level(1, 100, 200),
    level(2, 200, 400),
    brk(2, 15, (25,)),
    level(3, 300, 600),
    level(4, 400, 800, ante=800, bba=True),
    brk(4),
    level(5, 500, 1000),
]


def kinds(dues):
    return [d.kind for d in dues]


# --- Texts ------------------------------------------------------------------------------------


def test_every_announcement_is_from_the_clock_or_the_floor():
    assert set(CLOCK_KINDS) | set(FLOOR_KINDS) == set(PLACEHOLDERS)
    assert not set(CLOCK_KINDS) & set(FLOOR_KINDS)


def test_a_plain_text_with_its_own_placeholders_is_taken_stripped():
    assert check_text("table_break", "  Tisch {table}   wird aufgelöst ") == (
        "Tisch {table} wird aufgelöst"
    )
    assert render("Tisch {table} wird aufgelöst", {"table": 12}) == "Tisch 12 wird aufgelöst"


@pytest.mark.parametrize("text", ["<b>Tisch</b> {table}", "Tisch {table} & 3", "a > b"])
def test_markup_is_refused(text):
    with pytest.raises(TextError) as caught:
        check_text("table_break", text)
    assert caught.value.code == "markup"


def test_a_placeholder_unknown_to_that_announcement_is_refused():
    with pytest.raises(TextError) as caught:
        check_text("table_break", "Tisch {table}, Level {level}")
    assert (caught.value.code, caught.value.name) == ("placeholder", "level")
    check_text("level_start", "Level {level}")  # known there


@pytest.mark.parametrize("text", ["Tisch {", "Tisch }", "Tisch {table!r}", "{table:5}", "{0}"])
def test_broken_braces_are_refused(text):
    with pytest.raises(TextError) as caught:
        check_text("table_break", text)
    assert caught.value.code in ("braces", "placeholder")


@pytest.mark.parametrize("text", ["Tisch\x00{table}", "Tisch \x07", "\ud800"])
def test_control_characters_are_refused(text):
    with pytest.raises(TextError) as caught:
        check_text("table_break", text)
    assert caught.value.code == "characters"


def test_empty_and_long_texts_are_refused():
    with pytest.raises(TextError):
        check_text("test", "   ")
    with pytest.raises(TextError):
        check_text("test", "x" * 301)


@given(st.text(max_size=80))
def test_check_text_either_refuses_or_returns_a_text_that_renders(text):
    try:
        clean = check_text("bubble", text)
    except TextError:
        return
    assert "<" not in render(clean, {"players": 10, "places": 9})


# --- From the clock ---------------------------------------------------------------------------


def test_late_registration_until_level_n_closes_when_level_n_plus_1_begins():
    assert closing_row(STRUCTURE, 2) == 3  # after the break that follows level 2
    assert closing_row(STRUCTURE, 4) == 6
    assert closing_row(STRUCTURE, 5) is None  # the last level runs on
    assert closing_row(STRUCTURE, None) is None


def test_a_level_start_says_its_blinds_and_whats_ahead():
    dues = row_start(STRUCTURE, 1, until_level=2)
    assert kinds(dues) == [
        "level_start",
        "last_level_before_break",
        "colour_up_ahead",
        "late_registration_last_level",
    ]
    assert dues[0].params == {"level": 2, "small_blind": 200, "big_blind": 400}
    assert dues[2].params == {"chips": "25"}
    ante = row_start(STRUCTURE, 4, None)
    assert ante[0] == Due(
        "level_start_ante", {"level": 4, "small_blind": 400, "big_blind": 800, "ante": 800}, 4
    )
    assert kinds(row_start(STRUCTURE, 2, 2)) == ["break_start"]
    assert kinds(row_start(STRUCTURE, 3, 2)) == ["level_start", "late_registration_closed"]


def test_nothing_is_announced_while_the_clock_stands():
    before = Look(0, 10 * MIN, False)
    after = Look(1, 20 * MIN, False)
    assert announcements_due(STRUCTURE, before, after, 2) == []


def test_the_countdowns_are_said_when_their_mark_is_crossed():
    # Late registration until level 2 closes at the end of the break (row 2).
    before = Look(2, 5 * MIN + 1000, True)
    after = Look(2, 5 * MIN - 10, True)
    assert kinds(announcements_due(STRUCTURE, before, after, 2)) == ["late_registration_closing"]
    before, after = Look(2, MIN + 500, True), Look(2, MIN - 500, True)
    due = announcements_due(STRUCTURE, before, after, 2)
    assert kinds(due) == ["break_ending"] and due[0].params == {"minutes": 1, "level": 3}


def test_a_screen_that_slept_through_a_level_start_stays_silent():
    before = Look(0, 10_000, True)
    late = Look(1, 20 * MIN - 31_000, True)
    assert announcements_due(STRUCTURE, before, late, None) == []
    on_time = Look(1, 20 * MIN - 29_000, True)
    assert kinds(announcements_due(STRUCTURE, before, on_time, None))[0] == "level_start"


def test_upcoming_lists_the_next_announcements_in_order():
    look = Look(0, 3 * MIN, True)
    out = upcoming(STRUCTURE, look, 2, 60 * MIN)
    assert [(ms // MIN, d.kind) for ms, d in out][:5] == [
        (3, "level_start"),
        (3, "last_level_before_break"),
        (3, "colour_up_ahead"),
        (3, "late_registration_last_level"),
        (23, "break_start"),
    ]
    assert ("late_registration_closing", 33) in [(d.kind, ms // MIN) for ms, d in out]
    assert ("break_ending", 37) in [(d.kind, ms // MIN) for ms, d in out]
    assert upcoming(STRUCTURE, Look(0, MIN, False), 2, 60 * MIN) == []


rows = st.lists(
    st.tuples(st.booleans(), st.integers(1, 30), st.lists(st.integers(1, 500), max_size=2)),
    min_size=1,
    max_size=12,
)


def structure_from(spec):
    out, number = [], 0
    for is_break, minutes, color_up in spec:
        if is_break and out and not out[-1].is_break:
            out.append(brk(number, minutes, color_up))
        else:
            number += 1
            out.append(level(number, 100 * number, 200 * number, minutes, ante=number % 2))
    return out


@settings(max_examples=200, deadline=None)
@given(
    spec=rows,
    until=st.one_of(st.none(), st.integers(1, 10)),
    steps=st.lists(st.integers(1, 30_000), min_size=1, max_size=600),
)
def test_a_running_clock_announces_each_thing_once_in_order(spec, until, steps):
    """Looked at every few seconds (a screen draws many times a second), a running clock
    announces every row it enters once, in order, and each countdown once, before its
    instant."""
    levels = structure_from(spec)
    look = Look(0, levels[0].minutes * MIN, True)
    said: list[tuple[int, Due]] = []
    elapsed = 0
    for step in steps:
        after = look_after(levels, look, step)
        elapsed += step
        said.extend((elapsed, d) for d in announcements_due(levels, look, after, until))
        look = after
    keys = [(d.kind, d.row) for _at, d in said]
    assert len(keys) == len(set(keys)), keys
    starts = [
        d.row for _at, d in said if d.kind in ("level_start", "level_start_ante", "break_start")
    ]
    assert starts == sorted(starts)
    assert starts == list(range(1, look.index + 1))  # every row entered, once
    # The countdowns come before what they count down to.
    for kind, target in (("late_registration_closing", "late_registration_closed"),):
        for at, d in said:
            if d.kind == kind:
                later = [a for a, e in said if e.kind == target]
                assert all(a >= at for a in later)


# --- The browser runs the same rules ------------------------------------------------------------

SPEECH_JS = Path(__file__).resolve().parents[3] / "static" / "clocks" / "speech.js"


def _js_rows(levels):
    return [
        {
            "number": r.number,
            "after_level": r.after_level,
            "is_break": r.is_break,
            "minutes": r.minutes,
            "small_blind": r.small_blind,
            "big_blind": r.big_blind,
            "ante": r.ante,
            "big_blind_ante": r.big_blind_ante,
            "color_up": list(r.color_up),
        }
        for r in levels
    ]


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_the_browser_announces_what_the_domain_announces(tmp_path):
    cases = []
    for until in (None, 1, 2, 4, 5):
        for start in range(len(STRUCTURE)):
            look = Look(start, STRUCTURE[start].minutes * MIN, True)
            for step in (1000, 30_000, 61_000, 5 * MIN, 11 * MIN):
                after = look_after(STRUCTURE, look, step)
                cases.append((until, look, after))
    for index in (0, 3, 6):  # a jump
        cases.append((2, Look(1, 5 * MIN, True), Look(index, 20 * MIN, True)))
    module = tmp_path / "speech.mjs"
    module.write_text(SPEECH_JS.read_text())
    script = tmp_path / "run.mjs"
    script.write_text(
        "import { announcementsDue } from './speech.mjs';\n"
        "const input = JSON.parse(process.argv[2]);\n"
        "const toLook = (l) => ({ index: l[0], remainingMs: l[1], running: l[2] });\n"
        "const out = input.cases.map(([until, b, a]) =>"
        " announcementsDue(input.levels, toLook(b), toLook(a), until));\n"
        "console.log(JSON.stringify(out));\n"
    )
    data = {
        "levels": _js_rows(STRUCTURE),
        "cases": [
            [u, [b.index, b.remaining_ms, b.running], [a.index, a.remaining_ms, a.running]]
            for u, b, a in cases
        ],
    }
    node = shutil.which("node") or "node"
    result = subprocess.run(  # noqa: S603 (our own script and data)
        [node, str(script), json.dumps(data)], capture_output=True, text=True, check=True
    )
    browser = json.loads(result.stdout)
    expected = [
        [
            {"kind": d.kind, "params": d.params, "row": d.row}
            for d in announcements_due(STRUCTURE, b, a, u)
        ]
        for u, b, a in cases
    ]
    assert browser == expected
    assert any(expected)
