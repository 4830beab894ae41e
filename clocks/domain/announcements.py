"""Spoken announcements: which are due, and the texts they are spoken with.

Pure Python (no framework). The big screen runs the same rules in the browser
(`static/clocks/speech.js`, `announcementsDue`); a test runs both on the same clocks.

Two kinds of announcement:

- **From the clock** (levels, breaks, the colour-up a level ahead, late registration): the
  screen already knows the clock, so it works them out itself from two successive looks at the
  clock (`announcements_due(before, after)`); no server work per screen.
- **From the floor** (table breaks and moves, hand-for-hand, the bubble, the final table, the
  test): the server sends them as the live message `announce` when the change commits.

A text is plain words with placeholders in braces, e.g. "Tisch {table} wird aufgelöst".
`check_text` refuses markup (< > &) and a placeholder the announcement does not know.
"""

from __future__ import annotations

import re
import string
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

# How long before the instant the countdown announcements are due, in milliseconds.
LATE_REGISTRATION_WARNING_MS = 5 * 60_000
BREAK_ENDING_WARNING_MS = 60_000
# A row's start is said only this soon after it: a screen that wakes up later is silent.
ROW_START_GRACE_MS = 30_000

# Each announcement and the placeholders its text may use, in the order a row's announcements
# are spoken when they fall on the same instant.
PLACEHOLDERS: dict[str, tuple[str, ...]] = {
    # From the clock.
    "level_start": ("level", "small_blind", "big_blind"),
    "level_start_ante": ("level", "small_blind", "big_blind", "ante"),
    "break_start": ("level", "minutes"),
    "late_registration_closed": ("level",),
    "last_level_before_break": ("level", "minutes"),
    "colour_up_ahead": ("chips",),
    "late_registration_last_level": ("level",),
    "late_registration_closing": ("minutes", "level"),
    "break_ending": ("minutes", "level"),
    # From the floor (the `announce` message).
    "hand_for_hand": (),
    "bubble": ("players", "places"),
    "in_the_money": ("players",),
    "final_table": ("players", "table"),
    "table_break": ("table",),
    "players_move": ("table", "to_table"),
    "test": (),
}
CLOCK_KINDS = (
    "level_start",
    "level_start_ante",
    "break_start",
    "late_registration_closed",
    "last_level_before_break",
    "colour_up_ahead",
    "late_registration_last_level",
    "late_registration_closing",
    "break_ending",
)
FLOOR_KINDS = tuple(k for k in PLACEHOLDERS if k not in CLOCK_KINDS)

MAX_TEXT = 300
_MARKUP = re.compile(r"[<>&]")


class TextError(ValueError):
    """A text that cannot be spoken as it is; `code` says why (markup, characters, placeholder,
    braces, empty, long) and `name` the offending placeholder."""

    def __init__(self, code: str, name: str = "") -> None:
        super().__init__(f"{code}: {name}" if name else code)
        self.code = code
        self.name = name


def placeholders_in(text: str) -> list[str]:
    """The placeholder names in `text`, in order; TextError("braces") on a lone brace or a
    placeholder with a format spec."""
    try:
        parts = list(string.Formatter().parse(text))
    except ValueError as exc:
        raise TextError("braces") from exc
    names: list[str] = []
    for _literal, name, spec, conversion in parts:
        if name is None:
            continue
        if spec or conversion or not name.isidentifier():
            raise TextError("braces", name)
        names.append(name)
    return names


def check_text(kind: str, text: str) -> str:
    """The text, stripped, if announcement `kind` can speak it; raises TextError otherwise."""
    if kind not in PLACEHOLDERS:
        raise TextError("kind", kind)
    text = " ".join(text.split())
    if not text:
        raise TextError("empty")
    if len(text) > MAX_TEXT:
        raise TextError("long")
    if _MARKUP.search(text):
        raise TextError("markup")
    if any(unicodedata.category(c) in ("Cc", "Cs", "Co", "Cn") for c in text):
        raise TextError("characters")
    for name in placeholders_in(text):
        if name not in PLACEHOLDERS[kind]:
            raise TextError("placeholder", name)
    return text


def render(text: str, params: Mapping[str, object]) -> str:
    """The text with its placeholders filled; a placeholder without a value is left empty."""
    out: list[str] = []
    for literal, name, _spec, _conversion in string.Formatter().parse(text):
        out.append(literal)
        if name is not None:
            value = params.get(name)
            out.append("" if value is None else str(value))
    return " ".join("".join(out).split())


# --- From the clock ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Row:
    """A row of the structure as the screens get it (tournament/live.py level_rows)."""

    number: int | None  # the level's number; None for a break
    is_break: bool
    minutes: int
    small_blind: int = 0
    big_blind: int = 0
    ante: int = 0
    big_blind_ante: bool = False
    color_up: tuple[int, ...] = field(default_factory=tuple)
    after_level: int | None = None  # for a break: the level it follows


@dataclass(frozen=True)
class Look:
    """One look at the clock: the row it is on and the milliseconds left in it."""

    index: int
    remaining_ms: int
    running: bool


@dataclass(frozen=True)
class Due:
    kind: str
    params: dict[str, object]
    row: int  # the row the announcement belongs to (the key that makes it once)


def closing_row(levels: Sequence[Row], until_level: int | None) -> int | None:
    """The index of the row whose start closes late registration "until level N" (the first
    level after N; docs/clock.md), or None when it never closes by the clock (no limit, or N at
    or past the last level)."""
    if until_level is None:
        return None
    for i, row in enumerate(levels):
        if not row.is_break and row.number is not None and row.number > until_level:
            return i
    return None


def ms_until_row(levels: Sequence[Row], look: Look, row: int) -> int:
    """Milliseconds from `look` until row `row` begins (negative or zero once it has)."""
    if row <= look.index:
        return 0
    return look.remaining_ms + sum(levels[i].minutes * 60_000 for i in range(look.index + 1, row))


def _next_break(levels: Sequence[Row], index: int) -> int | None:
    for i in range(index + 1, len(levels)):
        if levels[i].is_break:
            return i
        return None
    return None


def row_start(levels: Sequence[Row], index: int, until_level: int | None) -> list[Due]:
    """What is said when row `index` begins, in the order it is said."""
    row = levels[index]
    out: list[Due] = []
    if row.is_break:
        out.append(Due("break_start", {"level": row.after_level, "minutes": row.minutes}, index))
    elif row.ante or row.big_blind_ante:
        ante = row.big_blind if row.big_blind_ante else row.ante
        with_ante: dict[str, object] = {
            "level": row.number,
            "small_blind": row.small_blind,
            "big_blind": row.big_blind,
            "ante": ante,
        }
        out.append(Due("level_start_ante", with_ante, index))
    else:
        plain: dict[str, object] = {
            "level": row.number,
            "small_blind": row.small_blind,
            "big_blind": row.big_blind,
        }
        out.append(Due("level_start", plain, index))
    if index == closing_row(levels, until_level):
        out.append(Due("late_registration_closed", {"level": until_level}, index))
    following = _next_break(levels, index)
    if not row.is_break and following is not None:
        brk = levels[following]
        out.append(
            Due("last_level_before_break", {"level": row.number, "minutes": brk.minutes}, index)
        )
        if brk.color_up:
            chips = ", ".join(str(c) for c in brk.color_up)
            out.append(Due("colour_up_ahead", {"chips": chips}, index))
    last_open = not row.is_break and until_level is not None and row.number == until_level
    if last_open and closing_row(levels, until_level) is not None:
        out.append(Due("late_registration_last_level", {"level": row.number}, index))
    return out


def announcements_due(
    levels: Sequence[Row], before: Look, after: Look, until_level: int | None
) -> list[Due]:
    """What became due between two successive looks at a clock, in the order it is said.

    Nothing while the clock stands (`after.running` false). A row that begins is announced
    (only the row the clock is on, and only within ROW_START_GRACE_MS of its start: a screen
    that slept does not read out the past). The countdowns (late registration closing in 5 minutes, the break ending in a
    minute) are said when their mark is crossed between the two looks and their instant is
    still ahead. Call with each look and the one before it; each announcement comes once for
    a clock that runs forward.
    """
    if not after.running or not levels:
        return []
    out: list[Due] = []
    started_ago = levels[after.index].minutes * 60_000 - after.remaining_ms
    if after.index != before.index and started_ago <= ROW_START_GRACE_MS:
        out.extend(row_start(levels, after.index, until_level))
    close = closing_row(levels, until_level)
    if close is not None and after.index < close:
        was, now = ms_until_row(levels, before, close), ms_until_row(levels, after, close)
        if before.index <= after.index and was > LATE_REGISTRATION_WARNING_MS >= now > 0:
            minutes = LATE_REGISTRATION_WARNING_MS // 60_000
            params: dict[str, object] = {"minutes": minutes, "level": until_level}
            out.append(Due("late_registration_closing", params, close))
    row = levels[after.index]
    if (
        row.is_break
        and after.index == before.index
        and after.index + 1 < len(levels)
        and before.remaining_ms > BREAK_ENDING_WARNING_MS >= after.remaining_ms > 0
    ):
        following = levels[after.index + 1]
        ending: dict[str, object] = {
            "minutes": BREAK_ENDING_WARNING_MS // 60_000,
            "level": following.number,
        }
        out.append(Due("break_ending", ending, after.index))
    return out


def upcoming(
    levels: Sequence[Row], look: Look, until_level: int | None, horizon_ms: int
) -> list[tuple[int, Due]]:
    """The clock's announcements in the next `horizon_ms` if it runs on from `look`, each with
    the milliseconds until it is said (the console shows them)."""
    if not look.running or not levels:
        return []
    marks = {0}
    elapsed = look.remaining_ms
    for i in range(look.index, len(levels) - 1):
        if elapsed > horizon_ms:
            break
        marks.add(elapsed)
        elapsed += levels[i + 1].minutes * 60_000
    close = closing_row(levels, until_level)
    if close is not None and close > look.index:
        marks.add(ms_until_row(levels, look, close) - LATE_REGISTRATION_WARNING_MS)
    for i in range(look.index + 1, len(levels)):
        if levels[i - 1].is_break:
            marks.add(ms_until_row(levels, look, i) - BREAK_ENDING_WARNING_MS)
    points = sorted(m for m in marks if 0 <= m <= horizon_ms)
    out: list[tuple[int, Due]] = []
    previous = look
    for ms in points:
        current = look_after(levels, look, ms)
        out.extend((ms, due) for due in announcements_due(levels, previous, current, until_level))
        previous = current
    return out


def look_after(levels: Sequence[Row], look: Look, ms: int) -> Look:
    """The running clock `ms` milliseconds after `look` (the last row runs on)."""
    index, remaining = look.index, look.remaining_ms - ms
    while remaining <= 0 and index < len(levels) - 1:
        index += 1
        remaining += levels[index].minutes * 60_000
    return Look(index, max(remaining, 0), look.running)
