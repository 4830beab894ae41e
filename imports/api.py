"""`POST /api/imports/td/`: The Tournament Director's files (multipart, field `files`, one or
more), for directors. `preview=1` reads them and says what an import would do, writing nothing;
without it they are imported in one transaction (one refused: none is), each counted for the
league and season its file names (`counts_for`: found by the TD3 ids or made; the file's points
formula and what became of it, with the construct Floor cannot express named). `matches`: a
JSON object {TD3 player UUID: person id} confirming likely duplicates."""

from __future__ import annotations

import json
from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.parsers import MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from actions.imports import (
    FormulaOutcome,
    SeasonLink,
    formula_lines,
    td3_files_import,
    td3_season_plan,
)
from core.errors import FloorError
from imports.domain.td3 import Td3File
from imports.services import Preview, td3_preview, td3_read
from tournament.api.permissions import IsDirector
from tournament.events import Actor

MAX_FILES = 200


def uploaded(request: Any) -> list[tuple[str, Td3File]]:
    """The uploaded files read (refused with the file's name and the reason)."""
    files = request.FILES.getlist("files") or request.FILES.getlist("file")
    if not files:
        raise FloorError(_("Choose one or more .tdt files."), field="files")
    if len(files) > MAX_FILES:
        raise FloorError(_("At most %(n)s files at once.") % {"n": MAX_FILES}, field="files")
    return [(f.name or "?", td3_read(f.read(), f.name or "?")) for f in files]


def matches_of(raw: Any) -> dict[str, int]:
    """{TD3 uuid: person id} from a JSON object, or refused."""
    if raw in (None, ""):
        return {}
    try:
        value = json.loads(raw) if isinstance(raw, str) else raw
    except ValueError:
        value = None
    if not isinstance(value, dict) or not all(
        isinstance(k, str) and isinstance(v, int) and not isinstance(v, bool)
        for k, v in value.items()
    ):
        raise FloorError(_("matches: an object of TD3 player ids and person ids."), field="matches")
    return value


def formula_data(f: FormulaOutcome) -> dict[str, Any]:
    return {
        "fate": f.fate.value,
        "td3": f.td3,
        "floor": f.floor,
        "reason": f.reason,
        "words": formula_lines(f),
    }


def season_data(link: SeasonLink | None) -> dict[str, Any] | None:
    """The league and season a file counts for (ids None: made by the import), and its formula."""
    if link is None:
        return None
    return {
        "league": {
            "id": link.league.pk if link.league else None,
            "name": link.league_name,
            "created": link.league_created,
            "namesake_here": link.namesake,
        },
        "season": {
            "id": link.season.pk if link.season else None,
            "name": link.season_name,
            "created": link.season_created,
        },
        "formula": formula_data(link.formula),
        "words": link.lines(),
    }


def preview_data(p: Preview) -> dict[str, Any]:
    f = p.file
    names = {x.uuid: x.shown_name for x in f.players}
    winner = next((x for x in f.finishes if x.place == 1), None)
    return {
        "file": p.file_name,
        "uuid": f.tournament.uuid,
        "title": f.tournament.title,
        "version": f.tournament.version,
        "started_at": f.tournament.started_at,
        "league": f.tournament.league_name,
        "season": f.tournament.season_name,
        "players": len(f.players),
        "entries": len(f.entries),
        "winner": names.get(winner.player_uuid, "") if winner else "",
        "known": len(p.known),
        "new_people": p.new_people,
        "already_imported": p.already is not None,
        "counts_for": season_data(td3_season_plan(f)),
        "likely": [
            {
                "td3_uuid": x.td3_uuid,
                "td3_name": x.td3_name,
                "player": x.player.pk,
                "player_name": x.player.name,
                "reasons": [r.value for r in x.reasons],
            }
            for x in p.likely
        ],
    }


class TdImport(APIView):
    permission_classes = [IsDirector]
    parser_classes = [MultiPartParser]

    @extend_schema(
        request={"multipart/form-data": {"type": "object"}},
        responses={200: dict, 201: dict},
        description=__doc__,
    )
    def post(self, request: Request) -> Response:
        files = uploaded(request._request)
        if request.data.get("preview") in ("1", "true", "yes"):
            previews = [td3_preview(file, name) for name, file in files]
            return Response({"files": [preview_data(p) for p in previews]})
        done = td3_files_import(
            files,
            actor=Actor.from_request(request._request),
            matches=matches_of(request.data.get("matches")),
        )
        return Response(
            {
                "tournaments": [
                    {
                        "id": d.tournament.pk,
                        "name": d.tournament.name,
                        "file": d.file_name,
                        "counts_for": season_data(d.link),
                    }
                    for d in done
                ]
            },
            status=status.HTTP_201_CREATED,
        )
