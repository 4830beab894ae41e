"""What a dealer tablet shows of its table: the seats with button and blinds, the level, a
running time call, hand-for-hand. Read by the tablet's page (tables/views.py) and by the live
message that replaces it when the table changes (tables/live.py)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import gettext as _

from clocks.selectors import clock_state_for
from core.ratelimit import allow
from rules_engine.selectors import sitting_out_of
from tables.domain.button import waiting_seats
from tables.domain.shotclock import cards_left
from tables.models import ReportKind, SeatAssignment, ShotClock, Table, TableReport, TimeCall
from tables.selectors import (
    cards_used_by_entry,
    shot_clock_payload,
    shot_clock_rules,
    time_call_of,
    time_call_payload,
)
from tournament.domain.levels import level_reached


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


@dataclass
class _TableRows:
    """The rows a tablet's view of each of several tables of one tournament shows, read
    together: a break or a balancing move changes up to ten tables at once, and their views are
    built one after the other on the builder thread (live/realtime.py), so one statement
    per kind of row for all of them instead of five a table."""

    seats: dict[int, dict[int, Any]]  # table id -> seat -> assignment (with entry and player)
    sits_out: dict[int, int]  # entry id -> hands left of a penalty
    reported: dict[int, set[int | None]]  # table id -> seats reported out, not yet confirmed
    calls: dict[int, TimeCall]  # table id -> its latest time call not cancelled
    shot_clocks: dict[int, ShotClock]
    cards_used: dict[int, int]  # entry id -> time-bank cards used


# A time call lasts its seconds and countdown (two small unsigned numbers, at most 18 hours
# together): a call started longer ago than this shows nothing, so older ones are not read.
_CALLS_SHOWN_WITHIN = timedelta(days=1)


def _table_rows(tables: Sequence[Table]) -> _TableRows:
    ids = [t.pk for t in tables]
    seats: dict[int, dict[int, Any]] = {pk: {} for pk in ids}
    for row in SeatAssignment.objects.filter(table_id__in=ids).select_related("entry__player"):
        seats[row.table_id][row.seat] = row
    entry_ids = [row.entry_id for rows in seats.values() for row in rows.values()]
    reported: dict[int, set[int | None]] = {pk: set() for pk in ids}
    for table_id, seat in TableReport.objects.filter(
        table_id__in=ids, kind=ReportKind.BUST, resolved_at__isnull=True
    ).values_list("table_id", "seat"):
        reported[table_id].add(seat)
    calls: dict[int, TimeCall] = {}
    for call in TimeCall.objects.filter(
        table_id__in=ids,
        cancelled_at__isnull=True,
        started_at__gte=timezone.now() - _CALLS_SHOWN_WITHIN,
    ).order_by("-started_at", "-pk"):
        calls.setdefault(call.table_id, call)  # the latest of each table
    shot_clock = tables[0].tournament.shot_clock
    return _TableRows(
        seats=seats,
        sits_out=sitting_out_of(entry_ids),
        reported=reported,
        calls=calls,
        shot_clocks=(
            {c.table_id: c for c in ShotClock.objects.filter(table_id__in=ids)}
            if shot_clock
            else {}
        ),
        cards_used=cards_used_by_entry(entry_ids) if shot_clock else {},
    )


def dealer_seats(table: Table, rows: _TableRows | None = None) -> list[dict[str, Any]]:
    """The tablet's seats: the marks, and who is reported out or sits out a penalty."""
    rows = rows or _table_rows([table])
    seats = seat_marks(table, rows.seats[table.pk])
    reported = rows.reported[table.pk]
    for s in seats:
        s["reported"] = s["n"] in reported
        s["sits_out"] = rows.sits_out.get(s["row"].entry_id, 0) if s["row"] else 0
    time_banks_of_seats(table, seats, rows.cards_used)
    return seats


def time_banks_of_seats(table: Table, seats: list[dict[str, Any]], used: dict[int, int]) -> None:
    """Mark each seated player's time-bank cards left (`cards_left`; None when the tournament
    plays without a shot clock). `used`: the cards used by entry (`cards_used_by_entry`)."""
    tournament = table.tournament
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


def dealer_context(table: Table) -> dict[str, Any]:
    """What the tablet's page shows."""
    return dealer_contexts([table])[table.pk]


def dealer_contexts(
    tables: Sequence[Table], clock: tuple[list[Any], Any] | None = None
) -> dict[int, dict[str, Any]]:
    """What the tablet's page shows, for each of `tables` (of one tournament, sharing one
    tournament object), read together. `clock`: the tournament's (levels, clock state), when
    read already."""
    if not tables:
        return {}
    tournament = tables[0].tournament
    levels, state = clock or tournament_clock(tournament)
    level = levels[state.level_index] if levels and state.started else None
    rows = _table_rows(tables)
    return {
        table.pk: _dealer_context(table, tournament, levels, state, level, rows) for table in tables
    }


def _dealer_context(
    table: Table,
    tournament: Any,
    levels: list[Any],
    state: Any,
    level: Any,
    rows: _TableRows,
) -> dict[str, Any]:
    seats = dealer_seats(table, rows)
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
        "time_call": time_call_payload(rows.calls.get(table.pk)),
        "shot_clock": shot_clock_payload(table, rows.shot_clocks.get(table.pk)),
        "time_seconds": time_call_of(tournament)[0],
        "h4h_waiting": tournament.hand_for_hand and table.h4h_done_round >= tournament.h4h_round,
        "players": len(occupied),
        "heads_up": blinds is not None and blinds.heads_up,
        "dead_button": blinds is not None and blinds.button not in occupied,
        "dead_sb": blinds is not None and blinds.small_blind not in occupied,
        "texts": _texts(),
    }


def _texts() -> dict[str, str]:
    return {
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
        **queue_texts(),
    }


def queue_texts() -> dict[str, str]:
    """The words of a tablet's queue of actions kept through a Wi-Fi drop
    (static/tables/tablet_queue.js), for the table's page and its chip counts page."""
    return {
        "qOffline": _(
            "No connection to the floor. What you tap is kept on this tablet and sent when the "
            "connection is back."
        ),
        "qOfflineOne": _(
            "No connection to the floor. 1 action is kept on this tablet and will be sent when "
            "the connection is back."
        ),
        "qOfflineMany": _(
            "No connection to the floor. %(n)s actions are kept on this tablet and will be sent "
            "in order when the connection is back."
        ),
        "qSendingOne": _("Sending 1 waiting action…"),
        "qSendingMany": _("Sending %(n)s waiting actions in order…"),
        "qWaiting": _("waiting to send"),
        "qSeatWaiting": _("out – waiting"),
        "qNotApplied": _("Not applied:"),
        "qFloorTold": _("The floor has been told."),
        "qDismiss": _("Remove"),
        "qRefused": _("The server refused this action (error %(n)s)."),
        "qHand": _("Hand %(h)s done"),
        "qBust": _("Seat %(s)s · %(name)s is out"),
        "qStack": _("stack %(stack)s"),
        "qTime": _("Clock called · seat %(s)s"),
        "qTimeBank": _("Time-bank card · seat %(s)s"),
        "q_floor": _("Call the floor"),
        "q_time_cancel": _("Clock call stopped"),
        "q_shot_start": _("Shot clock: start"),
        "q_shot_stop": _("Shot clock: stop"),
        "q_counts": _("Chip counts"),
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
        response = render(
            request,
            "tables/dealer_closed.html",
            {"table": table, "queue_texts": queue_texts()},
            status=410,
        )
        response["Cache-Control"] = "no-store"
        return response
    return table
