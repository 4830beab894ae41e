"""The clock layout editor (directors) and what the big screens load of a layout: its colours as
a stylesheet (the policy allows no style attribute: docs/csp.md) and its logo.

- `/console/t/<id>/layout/`: a tournament's layout; `/console/displays/layout/`: the venue's.
- `/clock-layouts/<pk>.css`, `/clock-layouts/<pk>/logo`: public (the big screen is public),
  cached for a year under the `?v=` of the layout's version.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from core.errors import FloorError
from core.roles import director_required
from displays import layout_services
from displays.domain.layouts import (
    ARRANGEMENTS,
    DEFAULT_ACCENT,
    DEFAULT_BACKGROUND,
    LARGE_MIN,
    LOGO_MAX_BYTES,
    TEXT_MIN,
    LayoutRefused,
    order_of,
    theme_of,
)
from displays.domain.views import DEFAULT_FIGURES, Figure
from displays.models import ClockLayout
from displays.selectors import layout_label, saved_layout
from tournament.events import Actor
from tournament.models import Club, Tournament
from tournament.views import get_tournament

YEAR = 365 * 86400


def figure_label(figure: Figure) -> str:
    return {
        Figure.PLAYERS: _("Players left"),
        Figure.AVERAGE: _("Average stack"),
        Figure.BREAK: _("Next break in"),
        Figure.POOL: _("Prize pool"),
        Figure.ENTRIES: _("Entries"),
        Figure.LEADERS: _("Chip leaders (when counts exist)"),
    }[figure]


@director_required
def tournament_layout(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = get_tournament(pk)
    if request.method == "POST" and request.POST.get("reset"):
        layout_services.clock_layout_reset(tournament=tournament, actor=Actor.from_request(request))
        messages.success(request, _("The tournament uses the venue's layout again."))
        return redirect("clock-layout", pk=tournament.pk)
    return _editor(request, tournament)


@director_required
def venue_layout(request: HttpRequest) -> HttpResponse:
    return _editor(request, None)


def _editor(request: HttpRequest, tournament: Tournament | None) -> HttpResponse:
    own = (
        ClockLayout.objects.filter(tournament=tournament).first()
        if tournament
        else ClockLayout.objects.filter(club=Club.current()).first()
    )
    shown_from = own or (saved_layout(tournament) if tournament else None)
    status = 200
    if request.method == "POST":
        upload = request.FILES.get("logo")
        if upload is not None and upload.size and upload.size > LOGO_MAX_BYTES:
            data: bytes | None = b"\0" * (LOGO_MAX_BYTES + 1)  # refused with the size
        else:
            data = upload.read() if upload is not None else None
        ordered = _typed_order(request.POST)
        try:
            layout_services.clock_layout_save(
                tournament=tournament,
                arrangement=request.POST.get("arrangement", ""),
                figures=ordered,
                background=request.POST.get("background", ""),
                accent=request.POST.get("accent", ""),
                logo=data or None,
                remove_logo=bool(request.POST.get("remove_logo")),
                actor=Actor.from_request(request),
            )
        except FloorError as exc:
            messages.error(request, str(exc))
            status = 400
        else:
            messages.success(request, _("Layout saved: the screens show it now."))
            return redirect(request.path)
    ctx = _context(tournament, own, shown_from, request.POST if status == 400 else None)
    return render(request, "displays/layout.html", ctx, status=status)


def _typed_order(data: Any) -> list[str]:
    """The ticked figures, by the place typed for each (ties: in the form's order)."""
    figures = data.getlist("figures")
    return sorted(figures, key=lambda f: (_int(data.get(f"pos-{f}")), figures.index(f)))


def _int(value: Any) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return 99


def _context(
    tournament: Tournament | None,
    own: ClockLayout | None,
    shown: ClockLayout | None,
    typed: Any,
) -> dict[str, Any]:
    saved_figures = [
        Figure(f) for f in (shown.figures if shown else []) if f in Figure._value2member_map_
    ]
    if shown is None:
        saved_figures = list(DEFAULT_FIGURES)
    arrangement = shown.arrangement if shown else "standard"
    background = shown.background if shown else DEFAULT_BACKGROUND
    accent = shown.accent if shown else DEFAULT_ACCENT
    if typed is not None:  # refused: show what was typed
        arrangement = typed.get("arrangement", arrangement)
        background = typed.get("background", background)
        accent = typed.get("accent", accent)
        saved_figures = [Figure(f) for f in _typed_order(typed) if f in Figure._value2member_map_]
    rows = [
        {"value": f.value, "label": figure_label(f), "shown": f in saved_figures, "n": i + 1}
        for i, f in enumerate(order_of(saved_figures))
    ]
    try:
        theme = theme_of(background, accent)
    except LayoutRefused:
        theme = None
    logo_url = ""
    if shown is not None and shown.has_logo:
        logo_url = reverse("clock-layout-logo", args=[shown.pk]) + f"?v={shown.version}"
    return {
        "tournament": tournament,
        "own": own,
        "inherited": tournament is not None and own is None and shown is not None,
        "arrangements": [(a.value, layout_label(a)) for a in ARRANGEMENTS],
        "arrangement": arrangement,
        "rows": rows,
        "positions": range(1, len(rows) + 1),
        "background": background,
        "accent": accent,
        "theme": theme,
        "logo_url": logo_url,
        "has_logo": shown is not None and shown.has_logo,
        "logo_kb": LOGO_MAX_BYTES // 1024,
        "limits": {"text": TEXT_MIN, "large": LARGE_MIN},
        "words": {
            "ok": _("Readable: white text %(text)s:1, accent %(accent)s:1."),
            "bad_text": _(
                "Too light for white text: %(text)s:1, at least %(need)s:1 is needed. "
                "Saving will be refused."
            ),
            "bad_accent": _(
                "The accent is too close to the background: %(accent)s:1, at least %(need)s:1 "
                "is needed. Saving will be refused."
            ),
        },
        "big_screen": reverse("bigscreen", args=[tournament.pk]) if tournament else "",
        "preview": {
            "name": tournament.name if tournament else _("Sunday Deepstack"),
            "venue": (tournament.venue if tournament else "") or "",
        },
    }


@require_safe
def layout_css(request: HttpRequest, pk: int) -> HttpResponse:
    """The layout's colours as CSS custom properties (static/displays/layouts.css uses them).
    Every value is a checked #rrggbb."""
    row = ClockLayout.objects.filter(pk=pk).first()
    if row is None:
        raise Http404
    try:
        theme = theme_of(row.background, row.accent)
    except LayoutRefused:
        theme = theme_of(DEFAULT_BACKGROUND, DEFAULT_ACCENT)
    lines = "\n".join(f"  {name}: {value};" for name, value in theme.as_css_variables().items())
    body = f"body.dl-themed {{\n{lines}\n}}\n"
    response = HttpResponse(body, content_type="text/css; charset=utf-8")
    response["Cache-Control"] = f"public, max-age={YEAR}, immutable"
    return response


@require_safe
def layout_logo(request: HttpRequest, pk: int) -> HttpResponse:
    row = ClockLayout.objects.filter(pk=pk).exclude(logo_type="").first()
    if row is None or row.logo is None:
        raise Http404
    response = HttpResponse(bytes(row.logo), content_type=row.logo_type)
    response["Cache-Control"] = f"public, max-age={YEAR}, immutable"
    response["X-Content-Type-Options"] = "nosniff"
    response["Content-Security-Policy"] = "default-src 'none'; sandbox"
    return response
