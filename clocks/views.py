"""Clock pages: the public big screen and its JSON feed, the console controls."""

from __future__ import annotations

import time
from datetime import datetime
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST, require_safe

from clocks import announcement_audio
from clocks.announcements import clock_texts, late_until
from clocks.domain.announcement_audio import VOICES
from clocks.domain.announcements import FLOOR_KINDS, PLACEHOLDERS
from clocks.selectors import (
    ClockScreen,
    cached_clock_screen,
    clock_screen_parts,
    clock_state_for,
)
from clocks.services import clock_command, clock_payload
from core.errors import FloorError
from core.inputs import whole_number
from core.roles import floor_required
from displays.selectors import screen_layout  # the clock layout (docs/displays.md)
from tournament.domain.structure import MAX_LEVELS, MAX_MINUTES
from tournament.events import Actor
from tournament.live import level_rows, tournament_board
from tournament.models import Tournament
from tournament.views import console_context, get_tournament


def public_snapshot(tournament: Tournament) -> dict[str, Any]:
    """Everything the big screen shows; public data only."""
    screen = cached_clock_screen(tournament.pk, lambda: _screen(tournament))
    return _snapshot(screen, timezone.now())


def _snapshot(screen: ClockScreen, now: datetime) -> dict[str, Any]:
    """The kept screen data with the clock worked out for `now`."""
    clock = clock_payload(screen.tournament, screen.state(now), screen.levels, now)
    return {**screen.rest, "clock": clock}


def _screen(tournament: Tournament) -> ClockScreen:
    """The snapshot's parts that do not change with time, read from the database: the board
    (the same figures, with the same `version`, that live messages carry: tournament/live.py)
    and the levels."""
    rest: dict[str, Any] = {
        "name": tournament.name,
        "currency": tournament.currency,
        "clock": None,  # worked out per request (_snapshot)
        **tournament_board(tournament),
    }
    screen = clock_screen_parts(tournament, rest)
    rest["levels"] = level_rows(screen.levels)
    return screen


@never_cache
@require_safe
def server_time(request: HttpRequest) -> JsonResponse:
    return JsonResponse({"server_ms": time.time() * 1000})


@never_cache
def clock_json(request: HttpRequest, pk: int) -> JsonResponse:
    # Warm, a poll reads the cache only: no query, not even the tournament's row.
    screen = cached_clock_screen(pk, lambda: _screen(get_tournament(pk)))
    return JsonResponse(_snapshot(screen, timezone.now()))


def bigscreen(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = get_tournament(pk)
    speech = speech_config(tournament) if request.GET.get("sound") == "1" else None

    return render(
        request,
        "clocks/bigscreen.html",
        {
            "tournament": tournament,
            "config": screen_config(tournament),
            "speech": speech,
            "screen_layout": screen_layout(tournament),
        },
    )


def speech_config(tournament: Tournament) -> dict[str, Any]:
    """What a screen that speaks (`?sound=1`) needs: its language, the words of the clock's
    announcements (the floor's come with their message), when late registration ends, and
    where to fetch an announcement's audio when the browser has no voice (None where this
    server cannot speak: docs/clock.md "Spoken fallback")."""
    language = get_language() or "en"
    language = language.split("-")[0]
    return {
        "lang": language,
        "texts": clock_texts(language),
        # Closed by the floor already: nothing left to announce about it. Later changes come
        # with the live message `speech`.
        "lateUntil": late_until(tournament),
        "words": {"queued": _("%(n)s more")},
        "audioUrl": reverse("announcement-audio", args=[tournament.pk])
        if announcement_audio.espeak_path() and language in VOICES
        else None,
        "floorFigures": {kind: list(PLACEHOLDERS[kind]) for kind in FLOOR_KINDS},
    }


def screen_config(tournament: Tournament) -> dict[str, Any]:
    """The data and words a clock screen script needs, in the reader's language."""
    return {
        "snapshot": public_snapshot(tournament),
        "timeUrl": reverse("server-time"),
        "snapshotUrl": reverse("clock-json", args=[tournament.pk]),
        "wsUrl": f"/ws/t/{tournament.pk}/",
        "texts": {
            "level": _("Level"),
            "breakWord": _("Break"),
            "notStarted": _("Starting soon"),
            "paused": _("PAUSED"),
            "next": _("Next"),
            "ante": _("Ante"),
            "bbAnte": _("BB ante"),
            "min": _("min"),
            "lastLevel": _("Last level"),
            "colorUp": _("Colour-up"),
            "live": _("live"),
            "offline": _("reconnecting…"),
            "ended": _("Ended"),
            "over": _("Tournament over"),
            "winner": _("Winner"),
            "winners": _("Seat winners"),
            "finalResults": _("Final results"),
            "dealTag": _("Deal"),
            "seatWon": _("Won a seat"),
            "deal": _("Deal among %(n)s players (%(method)s): prizes as agreed."),
            "playedFor": _("The winner also took the %(amount)s left to play for."),
            "placesPaid": _("Places paid in all: %(n)s"),
        },
    }


@floor_required
def console_clock(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = get_tournament(pk)
    levels = list(tournament.structure.levels.all())
    state = clock_state_for(tournament, levels=levels)
    return render(
        request,
        "clocks/console.html",
        console_context(
            tournament, "clock", config=screen_config(tournament), state=state, levels=levels
        ),
    )


TIME_FORMAT = gettext_lazy("Enter the time as minutes:seconds, e.g. 12:30.")


@require_POST
@floor_required
def console_clock_command(request: HttpRequest, pk: int, kind: str) -> HttpResponse:
    tournament = get_tournament(pk)
    seconds = 0
    level = 0
    levels = list(tournament.structure.levels.all())
    state = clock_state_for(tournament, levels=levels)
    try:
        if kind == "plus":
            kind, seconds = "add", 60
        elif kind == "minus":
            kind, seconds = "add", -60
        elif kind == "next":
            kind, level = "jump", state.level_index + 1
        elif kind == "previous":
            kind, level = "jump", state.level_index - 1
        elif kind == "set_remaining":
            minutes, _sep, secs = request.POST.get("time", "").strip().partition(":")
            seconds = whole_number(minutes, high=MAX_MINUTES, message=TIME_FORMAT) * 60
            seconds += whole_number(secs or "0", high=59, message=TIME_FORMAT)
        elif kind == "jump":
            level = whole_number(request.POST.get("level"), low=1, high=MAX_LEVELS) - 1
        clock_command(
            tournament=tournament,
            kind=kind,
            seconds=seconds,
            level=level,
            actor=Actor.from_request(request),
        )
    except FloorError as exc:
        messages.error(request, str(exc))
    if getattr(request, "htmx", None):
        return HttpResponse(status=204)
    return redirect("console-clock", pk=pk)
