"""The console's import of The Tournament Director's files, for directors: upload one or many
`.tdt` files, see what each holds and who looks like a record already here, confirm."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods

from actions.imports import lines_of, td3_files_import, td3_season_plan
from core.errors import FloorError
from core.roles import director_required
from imports.domain.td3 import Td3File
from imports.services import (
    files_held,
    files_hold,
    files_release,
    td3_preview,
    td3_read,
)
from tournament.events import Actor

MAX_FILES = 200
TEMPLATE = "imports/td_import.html"


def _read(files: list[tuple[str, bytes]]) -> list[tuple[str, Td3File]]:
    return [(name, td3_read(data, name)) for name, data in files]


def _matches(request: HttpRequest, files: list[tuple[str, Td3File]]) -> dict[str, int]:
    """The likely duplicates the director ticked as the same person: `uuid:person id`."""
    out: dict[str, int] = {}
    for value in request.POST.getlist("match"):
        uuid, _sep, pk = value.partition(":")
        if uuid and pk.isdigit():
            out[uuid] = int(pk)
    return out


def _preview_page(
    request: HttpRequest, batch: str, files: list[tuple[str, Td3File]]
) -> HttpResponse:
    previews = [td3_preview(file, name) for name, file in files]
    rows: list[dict[str, Any]] = []
    for p in previews:
        names = {x.uuid: x.shown_name for x in p.file.players}
        winner = next((f for f in p.file.finishes if f.place == 1), None)
        rows.append(
            {
                "p": p,
                "t": p.file.tournament,
                "winner": names.get(winner.player_uuid, "") if winner else "",
                "season": td3_season_plan(p.file),
            }
        )
    refused = [r for r in rows if r["p"].already is not None]
    return render(request, TEMPLATE, {"batch": batch, "rows": rows, "refused": refused})


@director_required
@require_http_methods(["GET", "POST"])
def td_import(request: HttpRequest) -> HttpResponse:
    if request.method == "GET":
        return render(request, TEMPLATE, {})
    if request.POST.get("batch"):
        return _confirm(request, request.POST["batch"])
    uploads = request.FILES.getlist("files")
    if not uploads:
        return render(request, TEMPLATE, {"error": _("Choose one or more .tdt files.")}, status=400)
    if len(uploads) > MAX_FILES:
        error = _("At most %(n)s files at once.") % {"n": MAX_FILES}
        return render(request, TEMPLATE, {"error": error}, status=400)
    raw = [(u.name or "?", u.read()) for u in uploads]
    try:
        files = _read(raw)
    except FloorError as exc:
        return render(request, TEMPLATE, {"error": str(exc)}, status=400)
    batch = files_hold(raw, user=request.user)
    return _preview_page(request, batch, files)


def _confirm(request: HttpRequest, batch: str) -> HttpResponse:
    raw = files_held(batch, user=request.user)
    if not raw:
        error = _("The uploaded files are no longer here (kept for a day). Upload them again.")
        return render(request, TEMPLATE, {"error": error}, status=400)
    files = _read(raw)
    try:
        done = td3_files_import(
            files, actor=Actor.from_request(request), matches=_matches(request, files)
        )
    except FloorError as exc:
        messages.error(request, str(exc))
        return _preview_page(request, batch, files)
    files_release(batch)
    messages.success(
        request,
        ngettext("%(n)s tournament imported.", "%(n)s tournaments imported.", len(done))
        % {"n": len(done)},
    )
    for line in lines_of(done):
        messages.info(request, line)
    if len(done) == 1:
        return redirect("tournament-overview", pk=done[0].tournament.pk)
    return redirect("console-home")
