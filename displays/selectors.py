"""Reads of the display manager: a screen by its token, the console's list with each screen's
problems, and what the native views show (public data only: display names, as the public
pages show them)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from django.urls import reverse
from django.utils.translation import gettext as _

from counts.selectors import public_counts
from displays.domain.layouts import order_of
from displays.domain.views import (
    DEFAULT_FIGURES,
    Figure,
    Kind,
    Layout,
    Step,
    missing_ids,
    pages,
    seat_ranges,
    step_from_dict,
)
from displays.models import ClockLayout, Display, token_hash
from leagues.models import Season
from tables.models import SeatAssignment, Table
from tournament.domain.collation import name_key
from tournament.live import tournament_board
from tournament.models import Tournament
from tournament.public_selectors import initials, names_withheld
from tournament.results import tournament_finishes
from tournament.selectors import payout_amounts, tournament_numbers
from tournament.validation import SettingsBroken

SEATING_PAGE = 42  # names per page of the seating list: 3 columns of 14 (portrait: 2 of 21)
TABLES_PAGE = 24  # tables per page of the table map
PAYOUTS_PAGE = 30  # places per page of the payouts and the results
LEADERS_PAGE = 20  # chip leaders per page: two columns of ten (portrait: one of twenty)
PAGE_SECONDS = 10


def display_by_token(token: str | None) -> Display | None:
    if not token or len(token) > 100:
        return None
    return Display.objects.filter(token_hash=token_hash(token)).first()


def kind_label(kind: Kind) -> str:
    return {
        Kind.CLOCK: _("Clock"),
        Kind.LOBBY: _("Lobby"),
        Kind.SEATING: _("Seating list"),
        Kind.TABLES: _("Table map"),
        Kind.PAYOUTS: _("Payouts"),
        Kind.RESULTS: _("Results"),
        Kind.STANDINGS: _("League standings"),
        Kind.SLIDE: _("Slide"),
        Kind.LEADERS: _("Chip leaders"),
    }[kind]


def layout_label(layout: Layout) -> str:
    return {
        Layout.STANDARD: _("Standard (figures beside)"),
        Layout.CLOCK_ONLY: _("Clock only"),
        Layout.PORTRAIT: _("Portrait (figures below)"),
        Layout.LOGO: _("With logo (logo above the figures)"),
        Layout.EVENT: _("The tournament's layout (as saved in its layout editor)"),
    }[layout]


@dataclass(frozen=True)
class StepLine:
    step: Step
    label: str  # "Clock: Sunday Deepstack"
    problem: str  # "" or why the screen cannot show it (its tournament is gone)


@dataclass(frozen=True)
class DisplayRow:
    display: Display
    lines: list[StepLine]

    @property
    def problems(self) -> list[str]:
        return [line.problem for line in self.lines if line.problem]


def display_rows(displays: list[Display]) -> list[DisplayRow]:
    """Each screen with what it shows in words, and the problems: a tournament or season that is
    gone (the screen keeps its last good view; the console says so)."""
    steps = {d.pk: [step_from_dict(s) for s in d.steps or []] for d in displays}
    t_ids = {i for ss in steps.values() for s in ss for i in s.tournament_ids()}
    s_ids = {s.season for ss in steps.values() for s in ss if s.season is not None}
    tournaments = dict(Tournament.objects.filter(pk__in=t_ids).values_list("pk", "name"))
    seasons = {
        s.pk: f"{s.league.name}: {s.name}"
        for s in Season.objects.filter(pk__in=s_ids).select_related("league")
    }
    rows = []
    for display in displays:
        lines = [_line(s, tournaments, seasons) for s in steps[display.pk]]
        rows.append(DisplayRow(display=display, lines=lines))
    return rows


def _line(step: Step, tournaments: dict[int, str], seasons: dict[int, str]) -> StepLine:
    label = kind_label(step.kind)
    gone = missing_ids(step.tournament_ids(), tournaments)
    names = [tournaments[i] for i in step.tournament_ids() if i in tournaments]
    if step.kind == Kind.STANDINGS and step.season is not None:
        if step.season in seasons:
            names = [seasons[step.season]]
        problem = "" if step.season in seasons else _("The season is gone.")
    elif step.kind == Kind.SLIDE:
        names = [step.title or step.text[:40]]
        problem = ""
    else:
        problem = (
            _("Tournament %(ids)s is gone: the screen keeps its last good view. Choose another.")
            % {"ids": ", ".join(f"#{i}" for i in gone)}
            if gone
            else ""
        )
    if step.kind == Kind.CLOCK:
        label = f"{label} ({layout_label(step.layout).split(' (')[0]})"
    return StepLine(
        step=step, label=f"{label}: {', '.join(names)}" if names else label, problem=problem
    )


# --- What the native views show -------------------------------------------------------------


def lobby_cards(ids: tuple[int, ...]) -> list[dict[str, Any]]:
    """The lobby's tournaments, in the order chosen; the live figures come from their feeds."""
    found = {t.pk: t for t in Tournament.objects.filter(pk__in=ids)}
    cards = []
    for pk in ids:
        t = found.get(pk)
        if t is None:
            continue
        cards.append({"tournament": t, "board": tournament_board(t)})
    return cards


def _public(tournament: Tournament, name: str) -> str:
    if names_withheld(status=tournament.status, starts_at=tournament.starts_at):
        return initials(name)
    return name


def seating_pages(tournament: Tournament) -> list[list[dict[str, Any]]]:
    """Every seated player, alphabetical by display name, in pages (the draw-night wall)."""
    rows = SeatAssignment.objects.filter(
        table__tournament=tournament, table__is_open=True
    ).select_related("table", "entry__player")
    seats = sorted(
        (
            {
                "name": _public(tournament, r.entry.player.display_name),
                "number": r.entry.number,
                "table": r.table.number,
                "seat": r.seat,
            }
            for r in rows
        ),
        key=lambda r: (name_key(str(r["name"])), r["number"]),  # German order
    )
    return pages(seats, SEATING_PAGE)


def table_pages(tournament: Tournament) -> list[list[dict[str, Any]]]:
    """The open tables with their head counts and open seats, by number, in pages."""
    tables = list(tournament.tables.filter(is_open=True).order_by("number"))
    taken: dict[int, set[int]] = {t.pk: set() for t in tables}
    for table_id, seat in SeatAssignment.objects.filter(table__in=tables).values_list(
        "table_id", "seat"
    ):
        taken[table_id].add(seat)
    cards = [_table_card(t, taken[t.pk]) for t in tables]
    return pages(cards, TABLES_PAGE)


def _table_card(table: Table, taken: set[int]) -> dict[str, Any]:
    open_seats = [n for n in range(1, table.seats + 1) if n not in taken]
    return {
        "number": table.number,
        "area": table.area,
        "players": len(taken),
        "seats": table.seats,
        "open": open_seats,
        "open_text": seat_ranges(open_seats),
    }


def payout_pages(tournament: Tournament) -> tuple[dict[str, Any], list[list[dict[str, Any]]]]:
    """The prize pool's figures and every paid place with its amount, in pages."""
    try:
        numbers = tournament_numbers(tournament)
        amounts = payout_amounts(tournament, numbers)
        head = {"prize_pool": numbers.prize_pool, "entries": numbers.entries, "notice": ""}
    except SettingsBroken as exc:
        amounts, head = [], {"prize_pool": None, "entries": None, "notice": str(exc)}
    places = [{"place": i, "amount": a} for i, a in enumerate(amounts, start=1)]
    return head, pages(places, PAYOUTS_PAGE)


def result_pages(tournament: Tournament) -> list[list[dict[str, Any]]]:
    """The places decided so far, best first, in pages."""
    rows = [
        {"place": f.place, "name": f.name, "prize": f.prize, "won_seat": f.won_seat}
        for f in tournament_finishes(tournament)
    ]
    return pages(rows, PAYOUTS_PAGE)


# --- The clock's layout ---------------------------------------------------------------------


@dataclass(frozen=True)
class ScreenLayout:
    """How a big-screen clock is drawn (templates/clocks/bigscreen.html): the arrangement, every
    figure's box in order (the shown ones first), the left-out ones, the colours' stylesheet and
    the logo (empty: the built-in look)."""

    arrangement: str
    boxes: tuple[str, ...]
    hidden: tuple[str, ...]
    css_url: str = ""
    logo_url: str = ""
    logo_width: int = 0
    logo_height: int = 0
    leaders: tuple[dict[str, Any], ...] = ()
    counts_url: str = ""

    @property
    def body_classes(self) -> str:
        classes = [f"dl-{self.arrangement}", *(f"dl-no-{f}" for f in self.hidden)]
        if len(self.hidden) == len(self.boxes):
            classes.append("dl-no-side")
        if len(self.boxes) - len(self.hidden) > 4:
            classes.append("dl-many")  # two columns of figures (static/displays/layouts.css)
        if self.css_url:
            classes.append("dl-themed")
        if self.logo_url:
            classes.append("dl-has-logo")
        return " ".join(classes)


LEADERS_BESIDE_CLOCK = 5


def saved_layout(tournament: Tournament) -> ClockLayout | None:
    """The tournament's own layout, else the venue's default, else None (built in)."""
    own = ClockLayout.objects.filter(tournament=tournament).first()
    return own or ClockLayout.objects.filter(club_id=1).first()


def screen_layout(tournament: Tournament, step: Step | None = None) -> ScreenLayout:
    """The look of `tournament`'s clock: its saved layout (tournament's, else venue's), or for a
    screen's step with an arrangement of its own, that arrangement and the step's figures (in
    the saved order). Colours and logo always come from the saved layout."""
    saved = saved_layout(tournament)
    saved_figures = _figures(saved.figures) if saved else DEFAULT_FIGURES
    if step is None or step.layout == Layout.EVENT:
        arrangement = saved.arrangement if saved else Layout.STANDARD.value
        shown = saved_figures if saved else DEFAULT_FIGURES
    else:
        arrangement = step.layout.value
        rank = {f: i for i, f in enumerate(order_of(saved_figures))}
        shown = tuple(sorted(step.figures, key=lambda f: rank[f]))
    if arrangement == Layout.CLOCK_ONLY.value:
        shown = ()
    boxes = order_of(shown)
    layout = ScreenLayout(
        arrangement=arrangement,
        boxes=tuple(f.value for f in boxes),
        hidden=tuple(f.value for f in boxes if f not in shown),
    )
    extra: dict[str, Any] = {}
    if saved is not None:
        extra["css_url"] = reverse("clock-layout-css", args=[saved.pk]) + f"?v={saved.version}"
        if saved.has_logo:
            extra["logo_url"] = reverse("clock-layout-logo", args=[saved.pk]) + (
                f"?v={saved.version}"
            )
            extra["logo_width"], extra["logo_height"] = saved.logo_width, saved.logo_height
    if Figure.LEADERS in shown:
        extra["leaders"] = tuple(public_counts(tournament)["leaders"][:LEADERS_BESIDE_CLOCK])
        extra["counts_url"] = reverse("counts-json", args=[tournament.pk])
    return dataclasses.replace(layout, **extra)


def _figures(values: Any) -> tuple[Figure, ...]:
    return tuple(Figure(v) for v in values or [] if v in Figure._value2member_map_)


def chip_leader_pages(tournament: Tournament, top: int) -> list[list[dict[str, Any]]]:
    """The chip leaders' view: the top `top` counted players (public names), in pages."""
    rows = [r for r in public_counts(tournament)["players"] if r["counted"]][:top]
    return pages(rows, LEADERS_PAGE)
