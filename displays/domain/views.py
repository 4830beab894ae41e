"""What a screen shows: one view, or a rotation of views with durations. Pure Python.

A display's assignment is a list of steps; one step is a single view, two or more rotate, each
shown for its `seconds`. `check_steps` refuses what a screen could not show (docs/displays.md):
an empty rotation, a duration outside 5-600 seconds, a view without its tournament or season, a
slide with markup. Whether the tournament or season still exists is the service's question.
"""

from __future__ import annotations

import math
import re
import secrets
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any


class Kind(StrEnum):
    CLOCK = "clock"
    LOBBY = "lobby"
    SEATING = "seating"
    TABLES = "tables"
    PAYOUTS = "payouts"
    RESULTS = "results"
    STANDINGS = "standings"
    SLIDE = "slide"
    LEADERS = "leaders"  # the chip leaders: top N with stack and big blinds


class Layout(StrEnum):
    """Layouts of the clock view (static/displays/layouts.css)."""

    STANDARD = "standard"  # the clock and the figures beside it
    CLOCK_ONLY = "clock_only"  # the clock alone, larger
    PORTRAIT = "portrait"  # the clock on top, the figures in a row below (any orientation)
    LOGO = "logo"  # the figures beside the clock under the event's logo
    EVENT = "event"  # a screen's step only: as the tournament's (or the venue's) saved layout


class Figure(StrEnum):
    """The figures beside the clock that a layout may show or leave out."""

    PLAYERS = "players"
    AVERAGE = "average"
    BREAK = "break"
    POOL = "pool"
    ENTRIES = "entries"
    LEADERS = "leaders"  # the chip leaders, when counts exist (counts/)


DEFAULT_FIGURES = (Figure.PLAYERS, Figure.AVERAGE, Figure.BREAK, Figure.POOL)


ONE_TOURNAMENT = frozenset(
    {Kind.CLOCK, Kind.SEATING, Kind.TABLES, Kind.PAYOUTS, Kind.RESULTS, Kind.LEADERS}
)
SECONDS_MIN, SECONDS_MAX = 5, 600
DEFAULT_SECONDS = 20
MAX_STEPS = 8
MAX_LOBBY = 6
TITLE_MAX, TEXT_MAX, NAME_MAX = 80, 600, 60
TOP_MIN, TOP_MAX, DEFAULT_TOP = 3, 100, 10  # the chip leaders' view shows the top N
CODE_ALPHABET = "ACDEFHJKMNPRTUVWXY34679"  # no 0/O, 1/I/L, 2/Z, 5/S, 8/B: read across a room
CODE_LENGTH = 6

# A tag, a comment, a processing instruction or an entity: a slide is plain text.
_MARKUP = re.compile(r"<[a-zA-Z!/?]|&(?:[a-zA-Z][a-zA-Z0-9]*|#[0-9]+|#x[0-9a-fA-F]+);")


class StepRefused(ValueError):
    """A step a screen cannot show. `code` names the reason (the service words it); `step` is
    the step's position, counted from 1."""

    def __init__(self, code: str, step: int = 0, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.step = step
        self.params = params


@dataclass(frozen=True)
class Step:
    kind: Kind
    tournament: int | None = None
    tournaments: tuple[int, ...] = ()
    season: int | None = None
    layout: Layout = Layout.STANDARD
    figures: tuple[Figure, ...] = DEFAULT_FIGURES
    title: str = ""
    text: str = ""
    seconds: int = DEFAULT_SECONDS
    sound: bool = False  # the clock speaks its announcements on this screen
    top: int = DEFAULT_TOP  # the chip leaders' view: how many

    def as_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind.value, "seconds": self.seconds}
        if self.kind in ONE_TOURNAMENT:
            data["tournament"] = self.tournament
        if self.kind == Kind.CLOCK:
            data["layout"] = self.layout.value
            data["figures"] = [f.value for f in self.figures]
            data["sound"] = self.sound
        if self.kind == Kind.LEADERS:
            data["top"] = self.top
        if self.kind == Kind.LOBBY:
            data["tournaments"] = list(self.tournaments)
        if self.kind == Kind.STANDINGS:
            data["season"] = self.season
        if self.kind == Kind.SLIDE:
            data["title"] = self.title
            data["text"] = self.text
        return data

    def tournament_ids(self) -> tuple[int, ...]:
        if self.kind in ONE_TOURNAMENT and self.tournament is not None:
            return (self.tournament,)
        return self.tournaments if self.kind == Kind.LOBBY else ()


def step_from_dict(data: Mapping[str, Any]) -> Step:
    """A stored step (Display.steps); unknown values fall back to the defaults."""
    try:
        kind = Kind(str(data.get("kind")))
    except ValueError:
        kind = Kind.SLIDE
    try:
        layout = Layout(data.get("layout", Layout.STANDARD))
    except ValueError:
        layout = Layout.STANDARD
    stored = data.get("figures")
    wanted = [str(f) for f in stored] if stored else [f.value for f in DEFAULT_FIGURES]
    # In the order stored (a screen's own choice), unknown names left out.
    figures = tuple(Figure(f) for f in dict.fromkeys(wanted) if f in Figure._value2member_map_)
    return Step(
        kind=kind,
        tournament=_int_or_none(data.get("tournament")),
        tournaments=tuple(i for i in map(_int_or_none, data.get("tournaments") or []) if i),
        season=_int_or_none(data.get("season")),
        layout=layout,
        figures=figures,
        title=str(data.get("title") or ""),
        text=str(data.get("text") or ""),
        seconds=_int_or_none(data.get("seconds")) or DEFAULT_SECONDS,
        sound=data.get("sound") in (True, "1", "on"),
        top=_int_or_none(data.get("top")) or DEFAULT_TOP,
    )


def _int_or_none(value: Any) -> int | None:
    try:
        return int(value) if value not in (None, "") else None
    except (TypeError, ValueError):
        return None


def has_markup(text: str) -> bool:
    return bool(_MARKUP.search(text))


def check_steps(steps: Sequence[Step]) -> tuple[Step, ...]:
    """The steps, checked; raises StepRefused for the first step that cannot be shown."""
    if not steps:
        raise StepRefused("empty")
    if len(steps) > MAX_STEPS:
        raise StepRefused("too_many", limit=MAX_STEPS)
    rotating = len(steps) > 1
    for number, step in enumerate(steps, start=1):
        _check_step(step, number, rotating=rotating)
    return tuple(steps)


def _check_step(step: Step, number: int, *, rotating: bool) -> None:
    if rotating and not SECONDS_MIN <= step.seconds <= SECONDS_MAX:
        raise StepRefused("seconds", number, low=SECONDS_MIN, high=SECONDS_MAX)
    if step.kind in ONE_TOURNAMENT and step.tournament is None:
        raise StepRefused("no_tournament", number)
    if step.kind == Kind.LOBBY:
        if not step.tournaments:
            raise StepRefused("no_tournament", number)
        if len(step.tournaments) > MAX_LOBBY:
            raise StepRefused("lobby_size", number, limit=MAX_LOBBY)
    if step.kind == Kind.STANDINGS and step.season is None:
        raise StepRefused("no_season", number)
    if (
        step.kind == Kind.CLOCK
        and not step.figures
        and step.layout not in (Layout.CLOCK_ONLY, Layout.EVENT)
    ):
        raise StepRefused("no_figures", number)
    if step.kind == Kind.LEADERS and not TOP_MIN <= step.top <= TOP_MAX:
        raise StepRefused("top", number, low=TOP_MIN, high=TOP_MAX)
    if step.kind == Kind.SLIDE:
        if not step.title.strip() and not step.text.strip():
            raise StepRefused("empty_slide", number)
        if len(step.title) > TITLE_MAX or len(step.text) > TEXT_MAX:
            raise StepRefused("slide_length", number, title=TITLE_MAX, text=TEXT_MAX)
        if has_markup(step.title) or has_markup(step.text):
            raise StepRefused("markup", number)


def new_pairing_code(
    taken: Callable[[str], bool], choice: Callable[[str], str] = secrets.choice
) -> str:
    """A code of CODE_LENGTH letters and digits that `taken` does not know yet."""
    for _attempt in range(50):
        code = "".join(choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
        if not taken(code):
            return code
    raise RuntimeError("no free pairing code")


def normal_code(typed: str) -> str:
    """What a director typed, as a code: capitals, without spaces or dashes."""
    return "".join(c for c in typed.upper() if c.isalnum())


def pages(items: Sequence[Any], size: int) -> list[list[Any]]:
    """`items` cut into pages of `size` (at least one page, maybe empty)."""
    if size < 1:
        raise ValueError("size must be positive")
    return [list(items[i : i + size]) for i in range(0, len(items), size)] or [[]]


def missing_ids(wanted: Iterable[int], existing: Iterable[int]) -> list[int]:
    have = set(existing)
    return sorted({i for i in wanted if i not in have})


def columns(items: Sequence[Any], per_column: int) -> list[list[Any]]:
    """One page cut into its columns, top to bottom then left to right."""
    return [list(items[i : i + per_column]) for i in range(0, len(items), per_column)]


@dataclass(frozen=True)
class Grid:
    """Columns and rows for `n` cards on a landscape screen, and on a portrait one."""

    cols: int
    rows: int
    portrait_cols: int
    portrait_rows: int


# A table card reads best a little wider than tall: the number with its count beside it.
CARD_ASPECT = 4 / 3


def grid_of(n: int, most: int = 6) -> Grid:
    """Columns and rows for `n` cards with the cards closest to CARD_ASPECT on a 16:9 screen
    (landscape) and a 9:16 one (portrait), at most `most` across, few places left empty."""
    n = max(n, 1)

    def best(width: float, height: float) -> int:
        def miss(cols: int) -> tuple[float, int]:
            rows = -(-n // cols)
            aspect = (width / cols) / (height / rows)
            empty = cols * rows - n
            return (abs(math.log(aspect / CARD_ASPECT)) + empty / n, empty)

        return min(range(1, min(most, n) + 1), key=miss)

    cols, portrait = best(16, 9), best(9, 16)
    return Grid(cols, -(-n // cols), portrait, -(-n // portrait))


def seat_ranges(seats: Iterable[int]) -> str:
    """Seat numbers as a table card on a big screen writes them: runs of three or more joined
    with a dash (1–3, 5, 7–9), so that a nearly empty table stays one short line."""
    ordered = sorted(set(seats))
    parts: list[str] = []
    i = 0
    while i < len(ordered):
        j = i
        while j + 1 < len(ordered) and ordered[j + 1] == ordered[j] + 1:
            j += 1
        if j - i >= 2:
            parts.append(f"{ordered[i]}–{ordered[j]}")
        else:
            parts.extend(str(n) for n in ordered[i : j + 1])
        i = j + 1
    return ", ".join(parts)
