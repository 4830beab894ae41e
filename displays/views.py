"""The display manager's pages.

- `/display/`: what a screen opens once. It gets its token (a long-lived cookie) and shows a
  pairing code until a director pairs it; then it frames the views it is told to show.
- `/display/view/<n>/`: the n-th view of this screen (the cookie says which screen), framed by
  `/display/` only (same origin). The clock and the league standings are the existing big
  screens, extended with the display's layout; the other views are native.
- `/console/displays/…`: the list (floor), pairing and assigning (directors).
"""

from __future__ import annotations

import dataclasses
from typing import Any

from csp.decorators import csp_replace
from django.conf import settings
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.clickjacking import xframe_options_sameorigin
from django.views.decorators.http import require_POST, require_safe

from clocks import views as clock_views
from clocks.views import screen_config as clock_screen_config
from core.errors import FloorError
from core.ratelimit import allow
from core.roles import director_required, floor_required, is_director
from displays import selectors, services
from displays.domain.layouts import ARRANGEMENTS
from displays.domain.views import (
    DEFAULT_FIGURES,
    DEFAULT_SECONDS,
    MAX_LOBBY,
    MAX_STEPS,
    SECONDS_MAX,
    SECONDS_MIN,
    TOP_MAX,
    TOP_MIN,
    Figure,
    Kind,
    Layout,
    Step,
    columns,
    grid_of,
    step_from_dict,
)
from displays.layout_views import figure_label
from displays.models import Display
from leagues.models import Season
from leagues.screen_views import screen_config as league_screen_config
from tournament.events import Actor
from tournament.live import board_version
from tournament.models import Status, Tournament

COOKIE = "floor_display"
COOKIE_DAYS = 5 * 365
NEW_SCREENS_PER_HOUR = 60  # per client address: a room's screens often share one


def _frame_ancestors_self(view: Any) -> Any:
    """A view page may be framed by this installation's own /display/ page, nothing else."""
    return xframe_options_sameorigin(csp_replace({"frame-ancestors": ["'self'"]})(view))


# --- The screen -----------------------------------------------------------------------------


@never_cache
@require_safe
def display_screen(request: HttpRequest) -> HttpResponse:
    display = selectors.display_by_token(request.COOKIES.get(COOKIE))
    token = None
    if display is None:
        if not allow(request, "display-open", NEW_SCREENS_PER_HOUR, 3600):
            reason = _("Too many new screens from this address. Try again in an hour.")
            return render(request, "displays/refused.html", {"reason": reason}, status=429)
        try:
            display, token = services.display_open()
        except FloorError as exc:
            return render(request, "displays/refused.html", {"reason": str(exc)}, status=503)
    state = services.assignment_payload(display)
    response = render(
        request,
        "displays/screen.html",
        {
            "display": display,
            "code": display.code,
            "config": {
                "wsUrl": "/ws/display/",
                "state": state,
                "texts": {
                    "paired": _("Paired as “%(name)s”. Waiting for a view from the console."),
                    "offline": _("reconnecting…"),
                    "view": _("View"),
                },
            },
        },
    )
    if token is not None:
        response.set_cookie(
            COOKIE,
            token,
            max_age=COOKIE_DAYS * 86400,
            httponly=True,
            samesite="Lax",
            secure=getattr(settings, "SESSION_COOKIE_SECURE", False),
        )
    return response


@never_cache
@require_safe
@_frame_ancestors_self
def display_view(request: HttpRequest, index: int) -> HttpResponse:
    display = selectors.display_by_token(request.COOKIES.get(COOKIE))
    if display is None or not display.paired or index >= len(display.steps or []):
        raise Http404
    step = step_from_dict(display.steps[index])
    try:
        return _render_step(request, display, step)
    except (Tournament.DoesNotExist, Season.DoesNotExist, Http404):
        # Gone since it was assigned: no "ok" mark, so the screen keeps its last good view.
        return render(request, "displays/gone.html", status=410)


def _render_step(request: HttpRequest, display: Display, step: Step) -> HttpResponse:
    ctx: dict[str, Any] = {"display": display, "step": step, "page_seconds": selectors.PAGE_SECONDS}
    if step.kind == Kind.CLOCK:
        t = Tournament.objects.get(pk=step.tournament or 0)
        ctx |= {
            "tournament": t,
            "config": clock_screen_config(t),
            "screen_layout": selectors.screen_layout(t, step),
        }
        if step.sound:
            ctx["speech"] = _speech_config(t)
        return render(request, "displays/view_clock.html", ctx)
    if step.kind == Kind.STANDINGS:
        season = Season.objects.select_related("league").get(
            pk=step.season or 0, league__public=True
        )
        ctx |= {
            "season": season,
            "league": season.league,
            "config": league_screen_config(request, season),
        }
        return render(request, "displays/view_standings.html", ctx)
    if step.kind == Kind.LOBBY:
        cards = selectors.lobby_cards(step.tournaments)
        if not cards:
            raise Tournament.DoesNotExist
        ctx |= {"cards": cards, "lobby_config": _lobby_config(), "today": timezone.now()}
        return render(request, "displays/view_lobby.html", ctx)
    if step.kind == Kind.SLIDE:
        return render(request, "displays/view_slide.html", ctx)
    # Read before the view's rows: the view draws itself again when its socket's hello is newer
    # (static/displays/views.js).
    version = board_version(step.tournament or 0)
    t = Tournament.objects.get(pk=step.tournament or 0)
    ctx |= {"tournament": t, "version": version}
    if step.kind == Kind.SEATING:
        ctx["pages"] = [columns(p, selectors.SEATING_PAGE // 3) for p in selectors.seating_pages(t)]
    elif step.kind == Kind.TABLES:
        ctx["pages"] = [{"cards": p, "grid": grid_of(len(p))} for p in selectors.table_pages(t)]
    elif step.kind == Kind.PAYOUTS:
        head, pages = selectors.payout_pages(t)
        ctx["head"] = head
        ctx["pages"] = [columns(p, selectors.PAYOUTS_PAGE // 3) for p in pages]
    elif step.kind == Kind.LEADERS:
        ctx["pages"] = [
            columns(p, selectors.LEADERS_PAGE // 2)
            for p in selectors.chip_leader_pages(t, step.top)
        ]
        ctx["top"] = step.top
    else:
        ctx["pages"] = [columns(p, selectors.PAYOUTS_PAGE // 3) for p in selectors.result_pages(t)]
    return render(request, f"displays/view_{step.kind.value}.html", ctx)


def _speech_config(tournament: Tournament) -> dict[str, Any] | None:
    """The big screen's spoken announcements (its `?sound=1`), for a clock view chosen for
    sound; None while the clocks app has none."""
    speech = getattr(clock_views, "speech_config", None)
    return speech(tournament) if speech is not None else None


def _lobby_config() -> dict[str, Any]:
    return {
        "timeUrl": reverse("server-time"),
        "texts": {
            "level": _("Level"),
            "breakWord": _("Break"),
            "notStarted": _("Starting soon"),
            "paused": _("PAUSED"),
            "ended": _("Ended"),
            "ante": _("Ante"),
            "bbAnte": _("BB ante"),
            "status": {value: str(label) for value, label in Status.choices},
            # Registering with registration closed (a Day 2 once drawn): Tournament.status_text.
            "registrationClosed": _("Registration closed"),
        },
    }


# --- The console ----------------------------------------------------------------------------


@floor_required
def console_displays(request: HttpRequest) -> HttpResponse:
    """Every paired screen with what it shows and its problems; directors pair new ones."""
    if request.method == "POST":
        if not is_director(request.user):
            raise PermissionDenied
        try:
            display = services.display_pair(
                code=request.POST.get("code", ""),
                name=request.POST.get("name", ""),
                actor=Actor.from_request(request),
            )
        except FloorError as exc:
            messages.error(request, str(exc))
            return render(
                request,
                "displays/console.html",
                _list_context(request.POST),
                status=400,
            )
        messages.success(request, _("Screen “%(name)s” paired.") % {"name": display.name})
        return redirect("display-edit", display_id=display.pk)
    return render(request, "displays/console.html", _list_context({}))


def _list_context(typed: Any) -> dict[str, Any]:
    paired = list(Display.objects.filter(paired_at__isnull=False))
    waiting = Display.objects.filter(paired_at__isnull=True).count()
    return {
        "rows": selectors.display_rows(paired),
        "waiting": waiting,
        "typed": {"code": typed.get("code", ""), "name": typed.get("name", "")},
    }


@floor_required
def console_display(request: HttpRequest, display_id: int) -> HttpResponse:
    """One screen: what it shows (everyone on the floor); change it (directors)."""
    display = Display.objects.filter(pk=display_id, paired_at__isnull=False).first()
    if display is None:
        raise Http404(_("No such screen."))
    steps = [step_from_dict(s) for s in display.steps or []]
    status = 200
    if request.method == "POST":
        if not is_director(request.user):
            raise PermissionDenied
        steps = steps_from_form(request.POST)
        try:
            services.display_assign(
                display_id=display.pk, steps=steps, actor=Actor.from_request(request)
            )
        except FloorError as exc:
            messages.error(request, str(exc))
            status = 400
        else:
            messages.success(request, _("The screen shows the new view now."))
            return redirect("display-edit", display_id=display.pk)
    return render(
        request, "displays/edit.html", _edit_context(request, display, steps), status=status
    )


def _edit_context(request: HttpRequest, display: Display, steps: list[Step]) -> dict[str, Any]:
    rows: list[Step | None] = [*steps[:MAX_STEPS], *[None] * (MAX_STEPS - len(steps[:MAX_STEPS]))]
    tournaments = list(Tournament.objects.order_by("-starts_at")[:100])
    seasons = list(
        Season.objects.filter(league__public=True).select_related("league").order_by("-pk")[:50]
    )
    return {
        "display": display,
        "row": selectors.display_rows([display])[0],
        "steps": [{"n": i + 1, "step": s} for i, s in enumerate(rows)],
        "kinds": [(k.value, selectors.kind_label(k)) for k in Kind],
        "layouts": [(x.value, selectors.layout_label(x)) for x in (Layout.EVENT, *ARRANGEMENTS)],
        "figures": [(f.value, figure_label(f), f in DEFAULT_FIGURES) for f in Figure],
        "tournaments": tournaments,
        "seasons": seasons,
        "can_edit": is_director(request.user),
        "limits": {
            "low": SECONDS_MIN,
            "high": SECONDS_MAX,
            "lobby": MAX_LOBBY,
            "default": DEFAULT_SECONDS,
            "top_low": TOP_MIN,
            "top_high": TOP_MAX,
        },
    }


def steps_from_form(data: Any) -> list[Step]:
    """The steps a director filled in: step n's fields are named `s<n>-…`; a step without a
    kind is left out (so an empty form is an empty rotation, which the service refuses)."""
    steps = []
    for n in range(1, MAX_STEPS + 1):
        kind = data.get(f"s{n}-kind", "")
        if not kind:
            continue
        raw = {
            "kind": kind,
            "tournament": data.get(f"s{n}-tournament"),
            "tournaments": data.getlist(f"s{n}-tournaments"),
            "season": data.get(f"s{n}-season"),
            "layout": data.get(f"s{n}-layout"),
            "figures": data.getlist(f"s{n}-figures") or ["-"],
            "title": data.get(f"s{n}-title", ""),
            "text": data.get(f"s{n}-text", ""),
            "seconds": data.get(f"s{n}-seconds") or DEFAULT_SECONDS,
            "sound": data.get(f"s{n}-sound", ""),
            "top": data.get(f"s{n}-top"),
        }
        step = step_from_dict(raw)
        seconds = raw["seconds"]
        try:
            seconds = int(seconds)
        except (TypeError, ValueError):
            seconds = 0  # refused by the service with the range
        steps.append(dataclasses.replace(step, seconds=seconds))
    return steps


@require_POST
@director_required
def console_display_rename(request: HttpRequest, display_id: int) -> HttpResponse:
    try:
        services.display_rename(
            display_id=display_id,
            name=request.POST.get("name", ""),
            actor=Actor.from_request(request),
        )
        messages.success(request, _("Screen renamed."))
    except FloorError as exc:
        messages.error(request, str(exc))
    return redirect("display-edit", display_id=display_id)


@require_POST
@director_required
def console_display_remove(request: HttpRequest, display_id: int) -> HttpResponse:
    try:
        services.display_remove(display_id=display_id, actor=Actor.from_request(request))
        messages.success(request, _("Screen removed: it shows a new pairing code."))
    except FloorError as exc:
        messages.error(request, str(exc))
    return redirect(reverse("displays"))
