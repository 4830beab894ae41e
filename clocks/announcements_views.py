"""The console's announcements page: the venue's texts per language, a preview, what the clock
will announce next, and the test button for the tournament's screens (directors)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clocks.announcements import (
    EXAMPLE,
    EXAMPLE_FOR,
    LABELS,
    announcement_test,
    announcement_texts,
    announcement_texts_save,
    default_text,
    languages,
    late_until,
    text_error_message,
)
from clocks.domain.announcements import (
    CLOCK_KINDS,
    PLACEHOLDERS,
    Look,
    Row,
    TextError,
    check_text,
    upcoming,
)
from clocks.domain.announcements import (
    render as fill,
)
from clocks.selectors import clock_state_for
from core.errors import FloorError
from core.roles import director_required
from tournament.events import Actor
from tournament.live import level_rows
from tournament.views import console_context, get_tournament

UPCOMING_HORIZON_MS = 3 * 3600 * 1000
UPCOMING_SHOWN = 8


def _language(request: HttpRequest) -> str:
    asked = request.POST.get("language") or request.GET.get("lang") or ""
    if asked in languages():
        return asked
    current = (get_language() or "en").split("-")[0]
    return current if current in languages() else languages()[0]


def _rows(language: str, texts: dict[str, str], posted: dict[str, str] | None) -> list[Any]:
    rows = []
    for kind in PLACEHOLDERS:
        text = posted[kind] if posted is not None and kind in posted else texts[kind]
        default = default_text(kind, language)
        try:
            example = {**EXAMPLE, **EXAMPLE_FOR.get(kind, {})}
            preview = fill(check_text(kind, text) if text.strip() else default, example)
            error = ""
        except TextError as exc:
            preview, error = "", text_error_message(kind, exc)
        rows.append(
            {
                "kind": kind,
                "label": LABELS[kind],
                "text": text,
                "default": default,
                "own": text.strip() not in ("", default),
                "placeholders": ["{" + p + "}" for p in PLACEHOLDERS[kind]],
                "preview": preview,
                "error": error,
                "from_clock": kind in CLOCK_KINDS,
            }
        )
    return rows


def _coming(tournament: Any, language: str, texts: dict[str, str]) -> list[dict[str, Any]]:
    """The clock's next announcements if it runs on, in this language's words."""
    levels = list(tournament.structure.levels.all())
    state = clock_state_for(tournament, levels=levels)
    if not state.started or not state.running or not levels:
        return []
    rows = [
        Row(
            number=r["number"],
            is_break=r["is_break"],
            minutes=r["minutes"],
            small_blind=r["small_blind"],
            big_blind=r["big_blind"],
            ante=r["ante"],
            big_blind_ante=r["big_blind_ante"],
            color_up=tuple(r["color_up"]),
            after_level=r["after_level"],
        )
        for r in level_rows(levels)
    ]
    look = Look(state.level_index, int(state.remaining * 1000), True)
    until = late_until(tournament)
    now = timezone.localtime()
    out = []
    for ms, due in upcoming(rows, look, until, UPCOMING_HORIZON_MS)[:UPCOMING_SHOWN]:
        out.append(
            {
                "at": now + timedelta(milliseconds=ms),
                "label": LABELS[due.kind],
                "text": fill(texts[due.kind], due.params),
            }
        )
    return out


@director_required
def announcements_page(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = get_tournament(pk)
    language = _language(request)
    texts = announcement_texts(language)
    posted: dict[str, str] | None = None
    status = 200
    if request.method == "POST":
        posted = {k: request.POST.get(f"text-{k}", "")[:2000] for k in PLACEHOLDERS}
        posted = {k: v for k, v in posted.items() if f"text-{k}" in request.POST}
        if "preview" not in request.POST:
            try:
                changed = announcement_texts_save(
                    language=language, texts=posted, actor=Actor.from_request(request)
                )
            except FloorError as exc:
                messages.error(request, str(exc))
                status = 400
            else:
                if changed:
                    messages.success(request, _("The announcement texts were saved."))
                else:
                    messages.info(request, _("Nothing changed."))
                url = reverse("announcements", args=[pk])
                return redirect(f"{url}?lang={language}")
    context = console_context(
        tournament,
        "clock",
        language=language,
        language_choices=[(code, code.upper()) for code in languages()],
        rows=_rows(language, texts, posted),
        coming=_coming(tournament, language, texts),
        previewing=posted is not None,
    )
    return render(request, "clocks/announcements.html", context, status=status)


@require_POST
@director_required
def announcements_test(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = get_tournament(pk)
    announcement_test(tournament=tournament, actor=Actor.from_request(request))
    messages.success(
        request, _("A test announcement was sent to this tournament's screens that speak.")
    )
    return redirect("announcements", pk=pk)
