"""The spoken fallback's endpoint: `GET /t/<id>/announce.wav?kind=…&lang=…&<figures>`, public like
the big screen that asks for it (docs/clock.md "Spoken fallback")."""

from __future__ import annotations

import logging

from django.http import Http404, HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from clocks.announcement_audio import (
    AudioUnavailable,
    announcement_wav,
    announcement_words,
)
from clocks.domain.announcement_audio import (
    MAX_CHIPS,
    MAX_FIGURE,
    VOICES,
    FigureError,
    read_clip_request,
)
from clocks.domain.announcements import PLACEHOLDERS
from core.ratelimit import allow
from tournament.models import Tournament

logger = logging.getLogger(__name__)

# A level change brings up to five announcements, and a room's screens may share one address.
CLIPS_PER_MINUTE = 60
# The words of a kind only change when the venue edits them: a screen may keep a clip a while.
CLIP_MAX_AGE_S = 300


def _plain(text: str, status: int) -> HttpResponse:
    return HttpResponse(text, status=status, content_type="text/plain; charset=utf-8")


def figure_error_message(error: FigureError) -> str:
    """The words for a request that was refused (the offending name is cut short)."""
    name = error.name[:40]
    if error.code == "kind":
        return _("Unknown announcement: “%(name)s”.") % {"name": name}
    if error.code == "language":
        return _("No voice for the language “%(name)s” (known: %(known)s).") % {
            "name": name,
            "known": ", ".join(VOICES),
        }
    if error.code == "unknown":
        return _("“%(name)s” is not a figure of this announcement.") % {"name": name}
    if error.code == "twice":
        return _("“%(name)s” is given more than once.") % {"name": name}
    if error.code == "chips":
        return _("chips: up to %(n)s whole numbers separated by commas.") % {"n": MAX_CHIPS}
    return _("%(name)s: a whole number from 0 to %(max)s.") % {"name": name, "max": MAX_FIGURE}


@require_safe
def announcement_audio(request: HttpRequest, pk: int) -> HttpResponse:
    """An announcement's words as a WAV (espeak-ng): only a known kind and its whole-number
    figures are accepted, never words. 400 with the reason for anything else, 429 past the
    per-address limit, 503 when this server cannot speak (the screen keeps its caption)."""
    if not allow(request, "announce-wav", CLIPS_PER_MINUTE):
        return _plain(_("Too many announcement clips from this address. Wait a minute."), 429)
    try:
        kind, language, figures = read_clip_request(dict(request.GET.lists()))
    except FigureError as exc:
        known = ", ".join(PLACEHOLDERS.get(str(request.GET.get("kind")), ()))
        message = figure_error_message(exc)
        if exc.code == "unknown" and known:
            message += " " + _("Known: %(known)s.") % {"known": known}
        return _plain(message, 400)
    if not Tournament.objects.filter(pk=pk).exists():
        raise Http404(_("No such tournament."))
    words = announcement_words(kind, language, figures)
    try:
        clip = announcement_wav(language, words)
    except AudioUnavailable as exc:
        logger.warning("announcement audio unavailable: %s", exc)
        response = _plain(
            _("Spoken announcements are not available on this server: %(reason)s")
            % {"reason": exc},
            503,
        )
        response["Retry-After"] = "3600"
        return response
    response = HttpResponse(clip, content_type="audio/wav")
    response["Cache-Control"] = f"public, max-age={CLIP_MAX_AGE_S}"
    return response
