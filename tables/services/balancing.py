"""Balancing the room, breaking tables and the final table draw."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from core.errors import Conflict, FloorError
from tables.domain.seating import (
    BustPending,
    Move,
    SeatingError,
    apply_moves,
    pairs_together,
    plan_break_lazy,
    plan_final_table,
)
from tables.live import tablets_close
from tables.models import Table
from tables.selectors import (
    balance_plan,
    leaving_entries,
    open_tables,
    rows_by_table,
    table_loader,
    table_state,
    with_head_counts,
)
from tables.services.moves import _apply, _close_table
from tables.services.shotclock import time_banks_reset
from tables.words import seating_reason
from tournament.events import Actor, event_record
from tournament.locks import lock_tournament
from tournament.models import Status, Tournament


@transaction.atomic
def balance_apply(*, tournament: Tournament, signature: str, actor: Actor) -> list[Move]:
    """Apply the balancing plan the floor saw. If the tables changed since (`signature` no
    longer matches), nothing is applied and the floor sees the new plan."""
    tournament = lock_tournament(tournament.pk)
    plan = balance_plan(tournament)
    if plan.signature != signature:
        raise Conflict(
            _("The tables changed since this plan was made. Here is the new plan."),
            code="stale_plan",
        )
    if not plan.moves:
        raise FloorError(_("The tables are balanced; there is nothing to move."))
    together = {"together": [list(p) for p in plan.together]} if plan.together else None
    _apply(tournament, plan.moves, actor, action="seats.balance", payload=together)
    return list(plan.moves)


@transaction.atomic
def table_break(*, tournament: Tournament, number: int, actor: Actor) -> list[Move]:
    """Break table `number` (tda-de 9): its players are redrawn at random into open seats."""
    # The same lock as every seat change; a break needs nothing else from the row.
    tournament = lock_tournament(tournament.pk, only=("id",))
    pairs: set[tuple[int, int]] = set()  # filled by the loader with the tables it reads
    ids: dict[int, int] = {}  # and their primary keys
    load = table_loader(tournament, pairs, ids)
    try:
        moves = with_head_counts(
            tournament, lambda head: plan_break_lazy(head, load, number, keep_apart=pairs)
        )
    except BustPending as exc:
        raise FloorError(
            _("A bust reported at table %(n)s is not settled yet: confirm or dismiss it first.")
            % {"n": number}
        ) from exc
    except SeatingError as exc:
        raise FloorError(
            _("This table cannot be broken: %(reason)s") % {"reason": seating_reason(exc)}
        ) from exc
    # The plan read the broken table first (an open table: else SeatingError above).
    tablets_close([ids[number]])
    # One statement moves the players and closes the table; one event names both.
    if moves:
        payload: dict[str, Any] = {"table": number}
        if pairs:
            # The loader read these tables for the plan already: no further query.
            reached = load({number} | {m.to_table for m in moves}).values()
            together = pairs_together(
                apply_moves(list(reached), moves), pairs, {m.entry for m in moves}
            )
            if together:
                payload["together"] = [list(p) for p in together]
        _apply(tournament, moves, actor, action="seats.break", payload=payload, close=number)
    else:
        _close_table(tournament, number)
        event_record(
            tournament=tournament, action="table.close", actor=actor, payload={"table": number}
        )
    return list(moves)


@transaction.atomic
def final_table_draw(
    *, tournament: Tournament, actor: Actor, table_number: int | None = None
) -> list[Move]:
    """Random redraw of everyone left at the final table (tda-de 11); other tables close."""
    tournament = lock_tournament(tournament.pk)
    tables = open_tables(tournament)
    if not tables:
        raise FloorError(_("No tables are open."))
    rows = rows_by_table(tables)
    leaving = leaving_entries(tables)
    states = [table_state(t, rows.get(t.pk, []), leaving) for t in tables]
    left = sum(s.count for s in states)
    # tda-de 11: a full table of the event's size, never more than ten.
    size = min(tournament.final_table_size or tournament.seats_per_table, 10)
    if left > size:
        if left - len(leaving) <= size:
            raise FloorError(
                ngettext(
                    "A reported bust is not settled yet; confirm or dismiss it, then draw the "
                    "final table.",
                    "%(n)s reported busts are not settled yet; confirm or dismiss them, then "
                    "draw the final table.",
                    len(leaving),
                )
                % {"n": len(leaving)}
            )
        raise FloorError(
            _("%(left)s players are left; the final table seats %(size)s.")
            % {"left": left, "size": size}
        )
    number = table_number or min(t.number for t in tables)
    final = next((t for t in tables if t.number == number), None)
    if final is None:
        raise FloorError(_("Table %(n)s is not open.") % {"n": number})
    if final.seats < size:
        final.seats = size
        final.save(update_fields=["seats"])
    moves = plan_final_table(states, number, size)
    _apply(tournament, moves, actor, action="seats.final")
    tablets_close(t.pk for t in tables if t.pk != final.pk)
    Table.objects.filter(tournament=tournament).exclude(pk=final.pk).update(
        is_open=False, closed_at=timezone.now()
    )
    final.set_blinds(None)
    final.save(update_fields=["button_seat", "small_blind_seat", "big_blind_seat"])
    if tournament.status == Status.RUNNING:
        tournament.status = Status.FINAL_TABLE
        tournament.save(update_fields=["status"])
        event_record(
            tournament=tournament,
            action="tournament.status",
            actor=actor,
            payload={"from": Status.RUNNING, "to": Status.FINAL_TABLE},
        )
    # The time-bank cards come back at the final table when the tournament says so.
    time_banks_reset(tournament=tournament, occasion="final_table", actor=actor)
    return list(moves)
