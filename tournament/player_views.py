"""Console pages about people: the players list, one player's page and its edit form, the
likely duplicates, and (directors) merging two records, the export and erasure of a person's
data and the club's settings (docs/players.md). A person's history with league points and the
public profile are in actions/views.py (they read the leagues too)."""

from __future__ import annotations

import json

from django.contrib import messages
from django.db.models import Count, Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from core.errors import FloorError
from core.inputs import search_text
from core.roles import director_required, floor_required, is_director
from tournament.events import Actor
from tournament.models import Club, Player
from tournament.people_forms import ClubForm, PersonForm
from tournament.people_selectors import duplicates_found
from tournament.selectors import name_query, players_by_name
from tournament.services import people, privacy


@floor_required
def players(request: HttpRequest) -> HttpResponse:
    """Names and numbers of entries for everyone; directors also see who read contact data."""
    query = search_text(request.GET.get("q"))
    found = Player.objects.annotate(entry_count=Count("entries"))
    if query:
        found = found.filter(name_query(query) | Q(membership_number=query))
    audit = privacy.contact_reads() if is_director(request.user) else []
    return render(
        request,
        "tournament/players_all.html",
        {"players": players_by_name(found, 100), "query": query, "audit": audit},
    )


@floor_required
def player_detail(request: HttpRequest, player_id: int) -> HttpResponse:
    """One person and their entries; contact data, export and erasure for directors only."""
    player = get_object_or_404(Player, pk=player_id)
    entries = player.entries.select_related("tournament").order_by("-id")
    return render(
        request,
        "tournament/player.html",
        {"player": player, "entries": entries, "club": Club.current()},
    )


@floor_required
def player_edit(request: HttpRequest, player_id: int) -> HttpResponse:
    """Edit a person's record: names, membership number, accessible seat; directors also the
    year of birth and the contact data (those fields are not even in a floor account's form)."""
    player = get_object_or_404(Player, pk=player_id)
    director = is_director(request.user)
    form = PersonForm(request.POST or None, director=director, player=player)
    if request.method == "POST" and form.is_valid():
        try:
            changed = people.player_update(
                player=player, changes=form.changes(), actor=Actor.from_request(request)
            )
        except FloorError as exc:
            form.add_error(exc.field if exc.field in form.fields else None, str(exc))
        else:
            if changed:
                messages.success(request, _("The record was saved."))
            else:
                messages.info(request, _("Nothing was changed."))
            return redirect("player-detail", player_id=player.pk)
    return render(
        request,
        "tournament/player_edit.html",
        {"player": player, "form": form},
        status=400 if request.method == "POST" else 200,  # reached here: refused
    )


@floor_required
def duplicates(request: HttpRequest) -> HttpResponse:
    """Groups of records that look like one person; directors merge them from here."""
    return render(request, "tournament/player_duplicates.html", {"groups": duplicates_found()})


def _other_record(request: HttpRequest, player: Player) -> Player | None:
    raw = (request.POST.get("other") or request.GET.get("other") or "").strip().lstrip("#")
    if not raw:
        return None
    if not (raw.isascii() and raw.isdigit()) or len(raw) > 12:
        raise Http404
    other = Player.objects.filter(pk=int(raw)).first()
    if other is None:
        raise Http404
    return other


@director_required
def player_merge_view(request: HttpRequest, player_id: int) -> HttpResponse:
    """Two records side by side (`?other=<id>`), the director picks the one to keep; POST
    merges. Without `other`: a form asking for the other record's number."""
    player = get_object_or_404(Player, pk=player_id)
    other = _other_record(request, player)
    refusal = people.merge_refusal(player, other) if other is not None else None
    refused = request.method == "POST"  # a POST that merges redirects; any other is refused
    if request.method == "POST" and other is None:
        messages.error(request, _("Choose the record to keep."))
    if request.method == "POST" and other is not None:
        keep = request.POST.get("keep")
        if keep not in (str(player.pk), str(other.pk)):
            messages.error(request, _("Choose the record to keep."))
        else:
            kept, merged = (player, other) if keep == str(player.pk) else (other, player)
            try:
                result = people.player_merge(
                    kept=kept, other=merged, actor=Actor.from_request(request)
                )
            except FloorError as exc:
                messages.error(request, str(exc))
            else:
                messages.success(
                    request,
                    ngettext(
                        "Record #%(merged)s was merged into this one: %(n)s entry moved.",
                        "Record #%(merged)s was merged into this one: %(n)s entries moved.",
                        result.entries_moved,
                    )
                    % {"merged": result.merged_id, "n": result.entries_moved},
                )
                return redirect("player-detail", player_id=result.kept.pk)
    records = [player, other] if other is not None else [player]
    for p in records:
        p.entry_count = p.entries.count()  # type: ignore[attr-defined]
    return render(
        request,
        "tournament/player_merge.html",
        {"player": player, "other": other, "records": records, "refusal": refusal},
        status=400 if refused else 200,
    )


@director_required
def club_settings(request: HttpRequest) -> HttpResponse:
    """The club's name and whether players' public profiles are shown."""
    club = Club.current()
    form = ClubForm(
        request.POST or None, initial={"name": club.name, "public_profiles": club.public_profiles}
    )
    if request.method == "POST" and form.is_valid():
        try:
            people.club_update(
                name=form.cleaned_data["name"],
                public_profiles=form.cleaned_data["public_profiles"],
                actor=Actor.from_request(request),
            )
        except FloorError as exc:
            form.add_error(exc.field if exc.field in form.fields else None, str(exc))
        else:
            messages.success(request, _("The club's settings were saved."))
            return redirect("club-settings")
    return render(request, "tournament/club.html", {"form": form, "club": club})


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
