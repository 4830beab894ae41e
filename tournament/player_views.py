"""Console pages about people: the players list, one player's page, and (directors) the
export and erasure of a person's data (docs/players.md)."""

from __future__ import annotations

import json

from django.contrib import messages
from django.db.models import Count
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournament.errors import FloorError
from tournament.events import Actor
from tournament.inputs import search_text
from tournament.models import Player
from tournament.roles import director_required, floor_required, is_director
from tournament.selectors import name_query
from tournament.services import privacy


@floor_required
def players(request: HttpRequest) -> HttpResponse:
    """Names and numbers of entries for everyone; directors also see who read contact data."""
    query = search_text(request.GET.get("q"))
    found = Player.objects.annotate(entry_count=Count("entries")).order_by("name")
    if query:
        found = found.filter(name_query(query))
    audit = privacy.contact_reads() if is_director(request.user) else []
    return render(
        request,
        "tournament/players_all.html",
        {"players": found[:100], "query": query, "audit": audit},
    )


@floor_required
def player_detail(request: HttpRequest, player_id: int) -> HttpResponse:
    """One person and their entries; contact data, export and erasure for directors only."""
    player = get_object_or_404(Player, pk=player_id)
    entries = player.entries.select_related("tournament").order_by("-id")
    return render(request, "tournament/player.html", {"player": player, "entries": entries})


@director_required
def player_export_view(request: HttpRequest, player_id: int) -> HttpResponse:
    player = get_object_or_404(Player, pk=player_id)
    data = privacy.player_export(player=player, actor=Actor.from_request(request))
    response = HttpResponse(
        json.dumps(data, ensure_ascii=False, indent=1),
        content_type="application/json; charset=utf-8",
    )
    response["Content-Disposition"] = f'attachment; filename="player-{player.pk}.json"'
    return response


@director_required
@require_POST
def player_erase_view(request: HttpRequest, player_id: int) -> HttpResponse:
    player = get_object_or_404(Player, pk=player_id)
    if request.POST.get("confirm") != "erase":
        messages.error(request, _("Tick the box to confirm the erasure."))
        return redirect("player-detail", player_id=player.pk)
    try:
        privacy.player_erase(player=player, actor=Actor.from_request(request))
    except FloorError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, _("The player's data was erased; results stay."))
    return redirect("player-detail", player_id=player.pk)
