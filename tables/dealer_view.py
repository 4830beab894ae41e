"""What a dealer tablet shows of its table: the seats with button and blinds, the level, a
running time call, hand-for-hand. Read by the tablet's page (tables/views.py) and by the live
message that replaces it when the table changes (tables/live.py)."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from clocks.selectors import clock_state_for
from rules_engine.selectors import sitting_out
from tables.domain.button import waiting_seats
from tables.domain.shotclock import cards_left
from tables.models import ReportKind, ShotClock, Table, TableReport, TimeCall
from tables.selectors import (
    cards_used_by_entry,
    shot_clock_payload,
    shot_clock_rules,
    time_call_of,
    time_call_payload,
)
from tournament.domain.levels import level_reached
from tournament.ratelimit import allow


def seat_marks(table: Table, rows: dict[int, Any]) -> list[dict[str, Any]]:
    """Every seat of `table` with its player row (`rows`: seat -> assignment) and the hand's
    marks: button, blinds, a dead button or small blind on an empty seat, and the empty seats
    between the blinds that a new player waits in (tda-de 7, 9). The one seat list of the
    seating chart's cards and the dealer tablet."""
    blinds = table.blinds()
    zone = waiting_seats(table.seats, blinds) if blinds else frozenset()
    out = []
    for n in range(1, table.seats + 1):
        r = rows.get(n)
        out.append(
            {
                "n": n,
                "row": r,
                "button": blinds is not None and n == blinds.button,
                "sb": blinds is not None and n == blinds.small_blind,
                "bb": blinds is not None and n == blinds.big_blind,
                "heads_up": blinds is not None and blinds.heads_up,
                "dead_button": blinds is not None and n == blinds.button and r is None,
                "dead_sb": blinds is not None and n == blinds.small_blind and r is None,
                "zone": r is None and n in zone,
            }
        )
    return out


def dealer_seats(table: Table) -> list[dict[str, Any]]:
    """The tablet's seats: the marks, and who is reported out or sits out a penalty."""
    rows = {r.seat: r for r in table.assignments.select_related("entry__player")}
    penalised = sitting_out(table)
    reported = set(
        TableReport.objects.filter(
            table=table, kind=ReportKind.BUST, resolved_at__isnull=True
        ).values_list("seat", flat=True)
    )
    seats = seat_marks(table, rows)
    for s in seats:
        s["reported"] = s["n"] in reported
        s["sits_out"] = penalised.get(s["row"].entry_id, 0) if s["row"] else 0
    time_banks_of_seats(table, seats)
    return seats


def time_banks_of_seats(table: Table, seats: list[dict[str, Any]]) -> None:
    """Mark each seated player's time-bank cards left (`cards_left`; None when the tournament
    plays without a shot clock)."""
    tournament = table.tournament
    used = (
        cards_used_by_entry(s["row"].entry_id for s in seats if s["row"])
        if tournament.shot_clock
        else {}
    )
    rules = shot_clock_rules(tournament)
    for s in seats:
        s["cards_left"] = (
            cards_left(rules, used.get(s["row"].entry_id, 0))
            if tournament.shot_clock and s["row"]
            else None
        )


def tournament_clock(tournament: Any) -> tuple[list[Any], Any]:
    """The tournament's levels and its clock's state now."""
    levels = list(tournament.structure.levels.all())
    return levels, clock_state_for(tournament, levels=levels)


def dealer_context(table: Table, clock: tuple[list[Any], Any] | None = None) -> dict[str, Any]:
    """What the tablet's page shows. `clock`: the tournament's (levels, clock state), when the
    caller renders several tables of one tournament at once (tables/live.py)."""
    tournament = table.tournament
    levels, state = clock or tournament_clock(tournament)
    level = levels[state.level_index] if levels and state.started else None
    call = TimeCall.objects.filter(table=table, cancelled_at__isnull=True).first()
    seats = dealer_seats(table)
    blinds = table.blinds()
    occupied = {s["n"] for s in seats if s["row"]}
    return {
        "table": table,
        "tournament": tournament,
        "seats": seats,
        "level": level,
        "level_started": state.started,
        "level_number": level_reached([lv.is_break for lv in levels], state.level_index),
        "new_level": state.started
        and table.hand_level >= 0
        and state.level_index != table.hand_level
        and level is not None
        and not level.is_break,
        "time_call": time_call_payload(call),
        "shot_clock": shot_clock_payload(
            table, ShotClock.objects.filter(table=table).first() if tournament.shot_clock else None
        ),
        "time_seconds": time_call_of(tournament)[0],
        "h4h_waiting": tournament.hand_for_hand and table.h4h_done_round >= tournament.h4h_round,
        "players": len(occupied),
        "heads_up": blinds is not None and blinds.heads_up,
        "dead_button": blinds is not None and blinds.button not in occupied,
        "dead_sb": blinds is not None and blinds.small_blind not in occupied,
        "texts": {
            "seat": _("Seat"),
            "live": _("live"),
            "offline": _("offline – retrying"),
            "revoked": _("This table link was revoked. Ask the floor for the new one."),
            "closed": _("This table was broken. Ask the floor where to go next."),
            # What the tablet writes itself when a level begins or hand-for-hand changes
            # (static/tables/dealer.js).
            "level": _("Level"),
            "breakWord": _("Break"),
            "ante": _("Ante"),
            "bbAnte": _("BB ante"),
            "newLevel": _("New level: %(sb)s/%(bb)s from the next hand."),
            "h4hPlay": _("Hand-for-hand: play one hand, then tap “Hand done”."),
            # The shot clock's line under its seconds (static/tables/dealer.js).
            "scRunning": _("Running"),
            "scWarning": _("Last 10 seconds"),
            "scTimeUp": _("Time is up"),
        },
    }


def tablet_table(request: HttpRequest, token: str) -> Table | HttpResponse:
    """The table a dealer tablet's link names, or the answer for a link that cannot be used:
    429 when the address asks too often, 404 for an unknown link, 410 (Gone) with words for a
    table that was broken, instead of a bare "not found"."""
    if not allow(request, "dealer", 600):
        return HttpResponse(_("Too many requests. Wait a moment."), status=429)
    table = Table.objects.select_related("tournament").filter(dealer_token=token).first()
    if table is None:
        raise Http404
    if not table.is_open:
        response = render(request, "tables/dealer_closed.html", {"table": table}, status=410)
        response["Cache-Control"] = "no-store"
        return response
    return table
