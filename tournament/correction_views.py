"""Console pages for corrections at the desk: one page per entry (void, another person, the
name's spelling, money on the wrong entry) and the undo of a correction."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.contrib import messages
from django.db.models import Max
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from actions import corrections as commands
from core.errors import FloorError
from core.inputs import search_text, whole_number_or_none
from core.roles import floor_required
from tournament.correction_text import SENTENCES
from tournament.domain.names import fold
from tournament.events import Actor
from tournament.forms import entry_numbers
from tournament.models import Entry, EntryStatus, Event, Player, Tournament
from tournament.selectors import name_query, players_by_name
from tournament.services import corrections
from tournament.views import console_context, get_tournament

ACTIONS = ("void", "person", "name", "money")


def _one_number(text: str | None) -> int | None:
    numbers = entry_numbers(text or "")
    if len(numbers) != 1:
        raise FloorError(_("Enter one entry number, such as 12."), field="to")
    return numbers[0]


def _apply(request: HttpRequest, entry: Entry, action: str) -> Event:
    actor = Actor.from_request(request)
    post = request.POST
    if action == "void":
        # An entry number typed but not meant (the money refunded instead) must still be one:
        # a mistyped number is refused rather than silently dropped.
        typed = (post.get("to") or "").strip()
        move_to = _one_number(typed) if post.get("money") == "move" or typed else None
        if post.get("money") != "move":
            move_to = None
        return commands.entry_void(
            entry=entry,
            actor=actor,
            move_to=move_to,
            correct_payments=post.get("correct_payments") == "1",
        )
    if action == "person":
        player_id = whole_number_or_none(post.get("player"), low=1)
        if player_id is not None:
            player = get_object_or_404(Player, pk=player_id)
            return corrections.entry_change_player(entry=entry, actor=actor, player=player)
        return corrections.entry_change_player(
            entry=entry,
            actor=actor,
            name=search_text(post.get("name"), longest=120),
            display_name=search_text(post.get("display_name"), longest=60),
        )
    if action == "name":
        return corrections.player_rename(
            player=entry.player,
            name=search_text(post.get("name"), longest=120),
            display_name=search_text(post.get("display_name"), longest=60),
            actor=actor,
            tournament=entry.tournament,
            number=entry.number,
        )
    purchase = get_object_or_404(
        entry.purchases.all(), pk=whole_number_or_none(post.get("purchase"), low=1) or 0
    )
    return corrections.purchase_move(
        purchase=purchase, to_number=_one_number(post.get("to")), actor=actor
    )


@floor_required
def entry_correct(request: HttpRequest, pk: int, entry_id: int) -> HttpResponse:
    tournament = get_tournament(pk)
    entry = get_object_or_404(
        Entry.objects.select_related("player", "seat__table"), pk=entry_id, tournament=tournament
    )
    action = request.POST.get("action", "")
    error: dict[str, Any] = {}
    status = 200
    if request.method == "POST" and action in ACTIONS:
        try:
            event = _apply(request, entry, action)
        except FloorError as exc:
            error = {"action": action, "message": str(exc), "paid": exc.code == "paid"}
            status = exc.status_code
        else:
            messages.success(request, SENTENCES[event.action](event.payload))
            return redirect(f"{reverse('desk', args=[pk])}?q={entry.number}")
    purchases = entry.purchases.order_by("pk")
    return render(
        request,
        "tournament/entry_correct.html",
        console_context(
            tournament,
            "desk",
            entry=entry,
            purchases=purchases,
            error=error,
            posted=request.POST if error else {},
            can_void=entry.status in (EntryStatus.ACTIVE, EntryStatus.ALTERNATE),
            history=corrections.recent_corrections(tournament, limit=5, entry=entry),
        ),
        status=status,
    )


@require_POST
@floor_required
def correction_undo(request: HttpRequest, pk: int, event_id: int) -> HttpResponse:
    tournament = get_tournament(pk)
    try:
        commands.correction_undo(
            tournament=tournament,
            event_id=event_id,
            actor=Actor.from_request(request),
            correct_payments=request.POST.get("correct_payments") == "1",
        )
    except FloorError as exc:
        if exc.code == "paid":
            return render(
                request,
                "tournament/correction_undo_paid.html",
                console_context(tournament, "desk", reason=str(exc), event_id=event_id),
            )
        messages.error(request, str(exc))
    else:
        messages.success(request, _("Correction undone."))
    return redirect("desk", pk=pk)


# --- Who is who at the desk ---------------------------------------------------------------


def desk_same_name(tournament: Tournament, name: str) -> list[Player]:
    """Known players whose full name is spelt like `name` (case, accents and umlauts folded):
    registering a new player under it asks first. Each carries what the desk shows."""
    key = fold(name)
    if len(key) < 2:
        return []
    found = [
        p
        for p in players_by_name(Player.objects.filter(name_query(name)), 20)
        if fold(p.name) == key
    ]
    return players_known(tournament, found[:5])


def players_known(tournament: Tournament, players: Iterable[Player]) -> list[Player]:
    """Mark each player with what tells them apart at the desk: their latest entry in this
    tournament (`here`, with its number and status), whether registering them now is a re-entry
    (`reentry`), and the date of their latest other tournament (`last_played`)."""
    players = list(players)
    if not players:
        return players
    ids = [p.pk for p in players]
    here: dict[int, Entry] = {}
    busted: set[int] = set()
    for e in tournament.entries.filter(player_id__in=ids).order_by("number"):
        here[e.player_id] = e
        if e.status == EntryStatus.BUSTED:
            busted.add(e.player_id)
    last = dict(
        Entry.objects.filter(player_id__in=ids)
        .exclude(tournament=tournament)
        .values("player_id")
        .annotate(m=Max("tournament__starts_at"))
        .values_list("player_id", "m")
    )
    for p in players:
        entry = here.get(p.pk)
        p.here = entry  # type: ignore[attr-defined]
        live = entry is not None and entry.status in (EntryStatus.ACTIVE, EntryStatus.ALTERNATE)
        p.reentry = p.pk in busted and not live  # type: ignore[attr-defined]
        p.last_played = last.get(p.pk)  # type: ignore[attr-defined]
    return players
