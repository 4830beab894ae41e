"""The console's counts page (`/console/t/<id>/counts/`): pick a table, enter every seated
player's count at once (blank: unchanged) or one player's count by number; the leaders."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from core import figures
from core.errors import FloorError
from core.inputs import CHIPS_MAX, whole_number, whole_number_or_none
from core.roles import floor_required
from counts.chart_views import leaders_figure, player_entry, stack_figure
from counts.selectors import LEADERS, chip_leaders, table_sheet, tables_of, tournament_field
from counts.services import count_record, table_counts_record
from tournament.events import Actor
from tournament.models import Entry
from tournament.views import console_context, get_tournament


def chips_typed(raw: str, *, number: int | None = None) -> int | None:
    """A count as typed: digits with optional thousands separators; blank: None."""
    text = raw.replace(".", "").replace(",", "").replace(" ", "").replace("\u202f", "").strip()
    if not text:
        return None
    if number is None:
        message = _("Enter the count as a whole number of chips.")
    else:
        message = _("Enter the count of #%(n)s as a whole number of chips.") % {"n": number}
    return whole_number(text, low=-CHIPS_MAX, high=CHIPS_MAX, message=message)


def _table_counts(request: HttpRequest, sheet: list[Any]) -> dict[int, int | None]:
    return {
        s.player.entry_id: chips_typed(
            request.POST.get(f"count_{s.player.entry_id}", ""), number=s.player.number
        )
        for s in sheet
    }


def _in_bb(chips: int, big_blind: int | None) -> float | None:
    return round(chips / big_blind, 1) if big_blind else None


@floor_required
def counts_console(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = get_tournament(pk)
    field = tournament_field(tournament)
    tables = tables_of(field)
    chosen = whole_number_or_none(request.GET.get("table") or request.POST.get("table") or "")
    if chosen not in tables:
        chosen = tables[0] if tables else None
    sheet = table_sheet(field, chosen) if chosen is not None else []
    refused = False
    if request.method == "POST":
        actor = Actor.from_request(request)
        try:
            if request.POST.get("form") == "player":
                number = whole_number(
                    request.POST.get("number", ""),
                    low=1,
                    message=_("Enter the player's number."),
                )
                entry = Entry.objects.filter(tournament=tournament, number=number).first()
                if entry is None:
                    raise FloorError(_("No player #%(n)s in this tournament.") % {"n": number})
                chips = chips_typed(request.POST.get("count", ""), number=number)
                if chips is None:
                    raise FloorError(_("Enter the count."))
                count_record(tournament=tournament, entry=entry, count=chips, actor=actor)
                messages.success(
                    request,
                    _("Count of #%(n)s recorded: %(c)s.")
                    % {"n": number, "c": figures.chips(chips)},
                )
            else:
                if chosen is None:
                    raise FloorError(_("No table has players yet."))
                recorded = table_counts_record(
                    tournament=tournament,
                    table_number=chosen,
                    counts=_table_counts(request, sheet),
                    actor=actor,
                )
                messages.success(
                    request,
                    ngettext(
                        "Table %(t)s: %(n)s count recorded.",
                        "Table %(t)s: %(n)s counts recorded.",
                        len(recorded.counts),
                    )
                    % {"t": chosen, "n": len(recorded.counts)},
                )
        except FloorError as exc:
            refused = True
            messages.error(request, str(exc))
        else:
            url = reverse("counts-console", args=[pk])
            return redirect(f"{url}?table={chosen}" if chosen is not None else url)
    player, missing = _player_chart(request, tournament)
    typed = request.POST if request.method == "POST" else {}
    rows = [{"stack": s, "typed": typed.get(f"count_{s.player.entry_id}", "")} for s in sheet]
    return render(
        request,
        "counts/console.html",
        console_context(
            tournament,
            "counts",
            field=field,
            average=field.average,
            average_bb=_in_bb(field.average.chips, field.big_blind),
            tables=tables,
            chosen=chosen,
            rows=rows,
            leaders=chip_leaders(tournament, LEADERS),
            typed=typed,
            graph=leaders_figure(tournament, withheld=False),
            player=player,
            player_typed=request.GET.get("player", ""),
        ),
        # refused: nothing recorded, the counts as typed; a chart of a player not there: 404
        status=400 if refused else 404 if missing else 200,
    )


def _player_chart(request: HttpRequest, tournament: Any) -> tuple[dict[str, Any] | None, bool]:
    """`?player=N`: that player's chart (display name); a number not in the tournament is said
    on the page (and answers 404)."""
    if not request.GET.get("player"):
        return None, False
    try:
        entry = player_entry(tournament, request.GET["player"])
    except FloorError as exc:
        messages.error(request, str(exc))
        return None, True
    return {
        "entry": entry,
        **stack_figure(tournament, entry, name=entry.player.display_name),
    }, False
