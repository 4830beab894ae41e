"""The chip graphs as pictures (core/charts.py: each its own SVG document, shown with <img>):
the chip leaders' lines through a level (`?upto=N`, the playback) and one player's stack, for
the public (public names: initials once names are withheld), for the console, and for the
player's own my-seat link. The data is counts/domain/graphs.py's, read by counts/selectors.py.

A bad `upto`, an unknown player or link answers 400/404 with the message drawn as the picture;
nothing counted draws the words "nothing to draw", never an error."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from core import figures
from core.charts import Series, empty_svg, line_svg, svg_response
from core.errors import FloorError, NotFound
from core.inputs import whole_number, whole_number_or_none
from core.ratelimit import allow
from core.roles import floor_required
from counts.domain.graphs import LeadersChart, Slot, StackChart
from counts.selectors import PUBLIC_SECONDS, leaders_graph, stack_graph
from tournament.live import board_version
from tournament.models import Entry, EntryStatus, Tournament
from tournament.public_selectors import entry_by_token, initials, names_withheld

# The pictures' sizes: the public pages' (read on a phone first: narrow, so the type stays
# readable at 390 px), the console's, the big screen's (its type grows with the width).
PHONE_SIZE = (560, 500)
PAGE_SIZE = (800, 440)
SCREEN_SIZE = (580, 660)
LEVEL_MAX = 10_000


def slot_label(slot: Slot, *, short: bool = False) -> str:
    """A position's name: "Level 5" in the tables, "5" on the chart's axis (titled "Level")."""
    if slot.bag:
        return _("Day %(d)s bag") % {"d": slot.day}
    if slot.level == 0:
        return _("Start")
    if short:
        return str(slot.level)
    return _("Level %(n)s") % {"n": slot.level}


def axis_labels(slots: Sequence[Slot]) -> list[str]:
    return [slot_label(s, short=True) for s in slots]


def player_label(name: str, number: int) -> str:
    return _("%(name)s (#%(n)s)") % {"name": name, "n": number}


def leaders_title(upto: int) -> str:
    if upto == 0:
        return _("Chip leaders before the first level")
    return _("Chip leaders through level %(n)s") % {"n": upto}


def leaders_rows(chart: LeadersChart) -> list[list[str]]:
    """The table beside the leaders' chart: rank, player, chips, where counted."""
    return [
        [
            f"{r.rank}.",
            player_label(r.runner.name, r.runner.number),
            figures.chips(r.chips),
            slot_label(r.slot),
        ]
        for r in chart.rows
    ]


def leaders_headers() -> list[str]:
    return [_("Rank"), _("Player"), _("Chips"), _("Counted in")]


def stack_rows(chart: StackChart) -> list[list[str]]:
    return [[slot_label(s), figures.chips(v)] for s, v in chart.rows]


def stack_headers() -> list[str]:
    return [_("Counted in"), _("Chips")]


def _draw_leaders(chart: LeadersChart | None, *, dark: bool, size: tuple[int, int]) -> str:
    width, height = size
    if chart is None:
        return empty_svg(_("No counts yet: nothing to draw."), dark=dark, width=width)
    if not chart.lines:
        return empty_svg(
            _("Nobody counted by level %(n)s yet.") % {"n": chart.upto}, dark=dark, width=width
        )
    return line_svg(
        title=leaders_title(chart.upto),
        x_labels=axis_labels(chart.slots),
        x_title=_("Level"),
        series=[
            Series(player_label(line.runner.name, line.runner.number), line.values)
            for line in chart.lines
        ],
        y_title=_("Chips"),
        dark=dark,
        width=width,
        height=height,
    )


def _draw_stack(
    chart: StackChart | None,
    name: str,
    number: int,
    *,
    size: tuple[int, int] = PAGE_SIZE,
    dark: bool = False,
) -> str:
    width, height = size
    label = player_label(name, number)
    if chart is None:
        return empty_svg(
            _("%(player)s has no chip count yet: nothing to draw.") % {"player": label},
            width=width,
            dark=dark,
        )
    return line_svg(
        title=_("Stack of %(player)s") % {"player": label},
        x_labels=axis_labels(chart.slots),
        x_title=_("Level"),
        series=[Series(label, chart.values, emphasis=True)],
        y_title=_("Chips"),
        width=width,
        height=height,
        dark=dark,
    )


def read_upto(request: HttpRequest) -> int | None:
    """`?upto=N`: the playback's level (0: before the first level); absent or empty: the last
    counted level. Anything but a whole number from 0 on is refused (400)."""
    raw = request.GET.get("upto", "")
    if raw == "":
        return None
    return whole_number(
        raw,
        low=0,
        high=LEVEL_MAX,
        message=_("The level to draw up to must be a whole number from 0 to %(n)s.")
        % {"n": figures.chips(LEVEL_MAX)},
    )


def _refused(request: HttpRequest, exc: FloorError) -> HttpResponse:
    response = svg_response(request, empty_svg(str(exc)))
    if response.status_code == 200:
        response.status_code = exc.status_code
    return response


def _tournament(pk: int) -> Tournament:
    found = Tournament.objects.filter(pk=pk).select_related("structure").first()
    if found is None:
        raise NotFound(_("No such tournament."))
    return found


def player_entry(tournament: Tournament, number: str) -> Entry:
    """A player of the graphs by number: in the field or out of it (not an alternate waiting,
    not a refunded entry)."""
    wanted = whole_number_or_none(number, low=1)
    found = (
        Entry.objects.filter(
            tournament_id=tournament.pk,
            number=wanted,
            status__in=(EntryStatus.ACTIVE, EntryStatus.BUSTED),
        )
        .select_related("player")
        .first()
        if wanted is not None
        else None
    )
    if found is None:
        raise NotFound(_("No such player in this tournament."))
    return found


def leaders_kept(
    tournament: Tournament, *, upto: int | None = None, withheld: bool = False
) -> LeadersChart | None:
    """The leaders' chart data, kept per event-log version of the tournament (a count or a bust
    writes an event, so a new version) for PUBLIC_SECONDS: the page, its playback and the
    screens read one copy."""
    key = f"counts.leaders.{tournament.pk}.{board_version(tournament.pk)}.{upto}.{int(withheld)}"
    kept = cache.get(key)
    if kept is None:
        kept = (leaders_graph(tournament, upto=upto, withheld=withheld),)
        cache.set(key, kept, PUBLIC_SECONDS)
    chart: LeadersChart | None = kept[0]
    return chart


def leaders_figure(tournament: Tournament, *, withheld: bool) -> dict[str, Any] | None:
    """What a page needs for the leaders' chart with its playback: the levels to step through,
    their labels, and the table (through the last level). None: nothing counted."""
    chart = leaders_kept(tournament, withheld=withheld)
    if chart is None:
        return None
    return {
        "first": chart.levels[0],
        "last": chart.levels[-1],
        "alt": leaders_title(chart.upto),
        "headers": leaders_headers(),
        "rows": leaders_rows(chart),
    }


def _leaders_svg(
    request: HttpRequest, pk: int, *, public: bool, dark: bool = False, screen: bool = False
) -> HttpResponse:
    """The leaders' picture, kept per event-log version (a count or a bust makes a new one), so
    a room of phones and screens playing back draws each level once."""
    try:
        tournament = _tournament(pk)
        upto = read_upto(request)
        withheld = public and names_withheld(
            status=tournament.status, starts_at=tournament.starts_at
        )
        size = SCREEN_SIZE if screen else PHONE_SIZE if public else PAGE_SIZE
        key = ".".join(
            str(part)
            for part in (
                "counts.graph",
                pk,
                board_version(pk),
                upto,
                int(withheld),
                int(dark),
                int(screen),
                int(public),
                get_language(),
            )
        )
        svg = cache.get(key)
        if svg is None:
            chart = leaders_kept(tournament, upto=upto, withheld=withheld)
            svg = _draw_leaders(chart, dark=dark, size=size)
            cache.set(key, svg, PUBLIC_SECONDS)
    except FloorError as exc:
        return _refused(request, exc)
    return svg_response(request, svg)


@require_safe
def leaders_public_svg(request: HttpRequest, pk: int) -> HttpResponse:
    """`/t/<id>/counts/leaders.svg`: the chip leaders; `?dark=1` for the dark public pages,
    `?screen=1` dark and large (the big screen)."""
    screen = request.GET.get("screen") == "1"
    dark = screen or request.GET.get("dark") == "1"
    return _leaders_svg(request, pk, public=True, dark=dark, screen=screen)


@floor_required
@require_safe
def leaders_console_svg(request: HttpRequest, pk: int) -> HttpResponse:
    return _leaders_svg(request, pk, public=False)


def _stack_svg(request: HttpRequest, pk: int, number: str, *, public: bool) -> HttpResponse:
    dark = public and request.GET.get("dark") == "1"
    try:
        tournament = _tournament(pk)
        entry = player_entry(tournament, number)
        name = entry.player.display_name
        if public and names_withheld(status=tournament.status, starts_at=tournament.starts_at):
            name = initials(name)
        chart = stack_graph(tournament, entry.pk)
        svg = _draw_stack(
            chart, name, entry.number, size=PHONE_SIZE if public else PAGE_SIZE, dark=dark
        )
    except FloorError as exc:
        return _refused(request, exc)
    return svg_response(request, svg)


@require_safe
def player_public_svg(request: HttpRequest, pk: int, number: str) -> HttpResponse:
    """`/t/<id>/counts/player/<number>.svg`: one player's stack, public name."""
    return _stack_svg(request, pk, number, public=True)


@floor_required
@require_safe
def player_console_svg(request: HttpRequest, pk: int, number: str) -> HttpResponse:
    return _stack_svg(request, pk, number, public=False)


@require_safe
def my_stack_svg(request: HttpRequest, token: str) -> HttpResponse:
    """`/s/<token>/chips.svg`: the player's own stack, behind their link (rate-limited as the
    my-seat page is)."""
    entry = entry_by_token(token) if allow(request, "my-seat", 120) else None
    if entry is None:
        return _refused(request, NotFound(_("This link is not valid.")))
    chart = stack_graph(entry.tournament, entry.pk)
    svg = _draw_stack(
        chart,
        entry.player.display_name,
        entry.number,
        size=PHONE_SIZE,
        dark=request.GET.get("dark") == "1",
    )
    return svg_response(request, svg)


def stack_figure(tournament: Tournament, entry: Entry, *, name: str) -> dict[str, Any]:
    """What a page needs to show one player's chart with its table (templates/charts/figure.html)."""
    chart = stack_graph(tournament, entry.pk)
    label = player_label(name, entry.number)
    return {
        "alt": _("Stack of %(player)s over the levels") % {"player": label},
        "headers": stack_headers(),
        "rows": stack_rows(chart) if chart else [],
        "empty": chart is None,
    }
