"""The console's start page on a phone: the clock with its controls, what the floor has to do
now (balance, break a table, hand-for-hand, colour-up) and the last busts (docs/desk.md)."""

from __future__ import annotations

from dataclasses import dataclass

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _

from clocks.selectors import clock_state_for, numbered
from clocks.views import screen_config
from core.roles import floor_required
from tables.selectors import balance_plan, break_suggestion
from tournament.models import Entry, EntryStatus, Level, Tournament
from tournament.views import console_context, get_tournament

LAST_BUSTS = 5


@dataclass(frozen=True)
class DueItem:
    """One thing the floor has to do now, and the page that does it."""

    kind: str  # balance, break, h4h, colour_up
    text: str
    url: str


def due_now(tournament: Tournament, levels: list[Level], level_index: int | None) -> list[DueItem]:
    """What is due in the room now. The colour-up counts when the level after the playing
    one (`level_index`, None before the clock starts) removes chips."""
    items: list[DueItem] = []
    seating = reverse("seating", args=[tournament.pk])
    if tournament.tables.filter(is_open=True).exists():
        moves = len(balance_plan(tournament).moves)
        if moves:
            items.append(
                DueItem("balance", _("Balance the tables: %(n)s move(s)") % {"n": moves}, seating)
            )
        table = break_suggestion(tournament)
        if table is not None:
            items.append(DueItem("break", _("Break table %(n)s") % {"n": table}, seating))
    if tournament.hand_for_hand:
        items.append(DueItem("h4h", _("Hand-for-hand is on"), seating))
    if level_index is None or level_index + 1 >= len(levels):
        return items
    following = levels[level_index + 1]
    if following.color_up:
        items.append(
            DueItem(
                "colour_up",
                _("Colour-up at the start of the next level"),
                reverse("colour-up", args=[tournament.pk]),
            )
        )
    return items


@floor_required
def phone_start(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = get_tournament(pk)
    levels = numbered(list(tournament.structure.levels.all()))
    state = clock_state_for(tournament, levels=levels)
    level = levels[state.level_index] if levels and state.level_index < len(levels) else None
    busts = (
        Entry.objects.filter(tournament=tournament, status=EntryStatus.BUSTED)
        .select_related("player")
        .order_by("-busted_at", "-pk")[:LAST_BUSTS]
    )
    return render(
        request,
        "actions/phone.html",
        console_context(
            tournament,
            "phone",
            state=state,
            level=level,
            due=due_now(tournament, levels, state.level_index if state.started else None),
            busts=list(busts),
            config=screen_config(tournament),
        ),
    )
