"""The console's "Other devices" page: the addresses (with QR codes) at which staff open the
console on a second device, players open their pages, and a TV or tablet is paired."""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from core.inputs import next_url
from core.links import public_base, public_url
from core.qr import qr_svg
from core.roles import director_required, floor_required
from tournament.models import Status, Tournament
from venue import replica
from venue.notices import copy_sentence, restored_dismiss


def _local_only(base: str) -> bool:
    host = base.split("//", 1)[-1].split("/", 1)[0].rsplit(":", 1)[0].strip("[]")
    return host in {"localhost", "127.0.0.1", "::1"}


@floor_required
def devices(request: HttpRequest) -> HttpResponse:
    base = public_base(request)
    console = public_url(reverse("console-home"), request)
    players = public_url(reverse("home"), request)
    live = Tournament.objects.filter(
        status__in=[Status.REGISTERING, Status.RUNNING, Status.FINAL_TABLE]
    ).order_by("starts_at")[:20]
    screens = [(t, public_url(reverse("bigscreen", args=[t.pk]), request)) for t in live]
    return render(
        request,
        "venue/devices.html",
        {
            "venue": settings.FLOOR_VENUE,
            # Named only while this machine answers to it (not with --no-mdns, nor when another
            # machine has the name).
            "venue_name": f"{settings.FLOOR_VENUE_NAME}.local"
            if settings.FLOOR_VENUE and settings.FLOOR_VENUE_ANNOUNCED
            else "",
            "also_at": settings.FLOOR_VENUE_LAN_URL,
            "local_only": _local_only(base),
            "console": console,
            "console_qr": qr_svg(console, scale=6),
            "players": players,
            "players_qr": qr_svg(players, scale=6),
            "screens": screens,
            # The copies of the database (docs/continuity.md), for directors.
            "copies": _copies() if settings.FLOOR_VENUE else None,
        },
    )


def _copies() -> dict[str, object] | None:
    status = replica.current()
    if status is None:
        return None
    return {"status": status, "sentence": copy_sentence(status), "warn": status.warn}


@require_POST
@director_required
def restored_dismiss_view(request: HttpRequest) -> HttpResponse:
    """A director has seen that the night was restored: the banner goes."""
    restored_dismiss(Path(settings.VAR_DIR), request.user.get_username())
    return redirect(next_url(request, default=reverse("console-home")))
