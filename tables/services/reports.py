"""Dealer reports (busts, floor calls) and how the floor resolves them."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from core import figures
from core.errors import Conflict, FloorError
from live.realtime import broadcast_on_commit, console_group
from tables.live import notify_tables
from tables.models import ReportKind, Table, TableReport, blinds_of
from tables.selectors import leaving_entries, leaving_seats
from tables.services.hands import _deal_next_hand
from tournament.events import Actor, event_record
from tournament.locks import lock_tournament
from tournament.models import Entry, EntryStatus, Tournament


@transaction.atomic
def report_bust(
    *,
    table: Table,
    seat: int,
    stack_at_hand_start: int | None,
    actor: Actor,
    entry_id: int | None = None,
) -> TableReport:
    """A dealer reports a bust in the hand being played; the floor confirms it (then it
    counts). The report keeps the hand: its number, its button and the hand-for-hand round, so
    that players out in the same hand are ranked together (bdpv 6.28) whenever the floor
    confirms them, and the next hand is dealt without the player.

    `entry_id`: the player the tablet showed in the seat. Another player there now, or nobody
    (the player was busted from the desk or moved while the tablet was offline), is a conflict
    that says what happened, not a bust of whoever sits there now."""
    lock_tournament(table.tournament_id)
    table = (
        Table.objects.select_for_update(no_key=True).select_related("tournament").get(pk=table.pk)
    )
    row = table.assignments.filter(seat=seat).first()
    if entry_id is not None and (row is None or row.entry_id != entry_id):
        raise Conflict(_gone_from_seat(table, seat, entry_id))
    if row is None:
        raise FloorError(_("Nobody sits in seat %(s)s.") % {"s": seat})
    tournament = table.tournament
    if stack_at_hand_start is not None and stack_at_hand_start > tournament.chips_in:
        raise FloorError(
            _("A stack of %(stack)s is more than the chips in play (%(chips)s).")
            % {
                "stack": figures.chips(stack_at_hand_start),
                "chips": figures.chips(tournament.chips_in),
            }
        )
    if TableReport.objects.filter(
        entry_id=row.entry_id, kind=ReportKind.BUST, resolved_at__isnull=True
    ).exists():
        raise FloorError(_("This bust has been reported already."))
    playing = table.assignments.exclude(entry_id__in=leaving_entries([table])).count()
    if playing <= 1:
        raise FloorError(_("The last player at the table cannot be out in this hand."))
    report = TableReport.objects.create(
        table=table,
        kind=ReportKind.BUST,
        entry_id=row.entry_id,
        seat=seat,
        stack_at_hand_start=stack_at_hand_start,
        hand_number=table.hand_number,
        button_seat=table.button_seat,
        h4h_round=tournament.h4h_round if tournament.hand_for_hand else None,
    )
    event_record(
        tournament=tournament,
        action="table.report_bust",
        actor=actor,
        payload={
            "table": table.number,
            "seat": seat,
            "entry": row.entry_id,
            "hand": table.hand_number,
            "stack": stack_at_hand_start,
        },
    )
    broadcast_on_commit(console_group(table.tournament_id), "report", {"table": table.number})
    notify_tables(table.tournament_id, [table.pk], console=False)
    return report


def _gone_from_seat(table: Table, seat: int, entry_id: int) -> str:
    """Why the player the tablet showed in `seat` cannot be reported out there."""
    entry = Entry.objects.select_related("player").filter(pk=entry_id).first()
    if entry is None or entry.tournament_id != table.tournament_id:
        return _("The player in seat %(s)s has changed. Look at the table again.") % {"s": seat}
    who = {"name": entry.player.display_name, "n": entry.number, "s": seat}
    if entry.status == EntryStatus.BUSTED:
        return _("%(name)s (#%(n)s) is out already: the floor recorded the bust.") % who
    return _("%(name)s (#%(n)s) no longer sits in seat %(s)s: the floor moved the player.") % who


@transaction.atomic
def report_not_applied(
    *,
    table: Table,
    what: str,
    reason: str,
    actor: Actor,
    seat: int | None = None,
    entry_id: int | None = None,
) -> TableReport:
    """An action a tablet kept while it was offline was refused when it arrived (`what`: the
    action in words, `reason`: the refusal): the floor sees it among the dealer reports, and
    in the event log, with its reason."""
    lock_tournament(table.tournament_id, only=("id",))
    note = f"{what}: {reason}"
    if (
        entry_id is not None
        and not Entry.objects.filter(pk=entry_id, tournament_id=table.tournament_id).exists()
    ):
        entry_id = None
    report = TableReport.objects.create(
        table=table,
        kind=ReportKind.CONFLICT,
        seat=seat,
        entry_id=entry_id,
        note=note[:200],
        hand_number=table.hand_number,
    )
    event_record(
        tournament=table.tournament,
        action="table.tablet_conflict",
        actor=actor,
        payload={"table": table.number, "seat": seat, "what": what, "reason": reason},
    )
    broadcast_on_commit(console_group(table.tournament_id), "report", {"table": table.number})
    return report


@transaction.atomic
def call_floor(*, table: Table, note: str, actor: Actor) -> TableReport:
    note = note.strip()[:200]
    lock_tournament(table.tournament_id, only=("id",))
    report = TableReport.objects.create(
        table=table, kind=ReportKind.FLOOR, note=note, hand_number=table.hand_number
    )
    event_record(
        tournament=table.tournament,
        action="table.call_floor",
        actor=actor,
        payload={"table": table.number, "note": note},
    )
    broadcast_on_commit(console_group(table.tournament_id), "report", {"table": table.number})
    return report


@dataclass
class Resolving:
    """A report being resolved (`report_resolve_begin`): the reports resolved with it and, for
    confirmed busts, the busts for the layer above to make (`actions.bust.report_resolve`)."""

    report: TableReport
    tournament: Tournament
    resolved: list[TableReport]
    resolution: str
    # Confirmed busts: entry, stack_at_hand_start, eliminated_by, hand_number, button_seat,
    # h4h_round (the fields of `tournament.services.eliminations.BustReport`).
    busts: list[dict[str, Any]] = field(default_factory=list)


def report_resolve_begin(
    *,
    report: TableReport,
    confirm: bool,
    eliminated_by: tuple[int, ...] | Mapping[int, tuple[int, ...]] = (),
    stacks: Mapping[int, int | None] | None = None,
) -> Resolving:
    """Lock a report to resolve and the reports of the same hand it confirms with it; writes
    nothing. Call inside the transaction of `actions.bust.report_resolve`, which makes the
    busts and then calls `report_resolve_finish`.

    Confirming one bust of a hand confirms every bust still waiting from the same hand (the
    same table and hand number, or the same hand-for-hand round), so they are ranked together
    as the ruleset says, whichever the floor clicked first; a bust confirmed later for a hand
    already recorded joins that hand's ranking (tournament/services/eliminations.py).
    `eliminated_by` and `stacks` may be given per report id (the floor confirming a hand's
    reports together types each one's eliminators and, where the dealer left it out, the stack
    at the start of the hand)."""
    # The tournament first, as every action on it; fully (`key`), as a confirmed bust locks it
    # (tournament/services/eliminations.py): taking the weaker lock now and the stronger one
    # later could wait for, and deadlock with, a transaction between the two.
    tournament_id = (
        TableReport.objects.filter(pk=report.pk)
        .values_list("table__tournament_id", flat=True)
        .get()
    )
    lock_tournament(tournament_id, key=True, only=("id",))
    report = (
        TableReport.objects.select_for_update(of=("self",))
        .select_related("table__tournament", "entry")
        .get(pk=report.pk)
    )
    if report.resolved_at is not None:
        raise FloorError(_("This report has been handled already."))
    tournament = report.table.tournament
    if report.kind != ReportKind.BUST or not confirm:
        resolution = "dismissed" if report.kind == ReportKind.BUST else "done"
        return Resolving(
            report=report, tournament=tournament, resolved=[report], resolution=resolution
        )
    resolved = _same_hand_reports(report)
    by = eliminated_by if isinstance(eliminated_by, Mapping) else {report.pk: eliminated_by}
    for r in resolved:
        typed = (stacks or {}).get(r.pk)
        if typed is not None:
            r.stack_at_hand_start = typed
    busts = [
        {
            "entry": r.entry,
            "stack_at_hand_start": r.stack_at_hand_start,
            "eliminated_by": by.get(r.pk, ()),
            "hand_number": r.hand_number,
            "button_seat": r.button_seat,
            "h4h_round": r.h4h_round,
        }
        for r in resolved
        if r.entry is not None
    ]
    return Resolving(
        report=report, tournament=tournament, resolved=resolved, resolution="confirmed", busts=busts
    )


def report_resolve_finish(resolving: Resolving, *, actor: Actor) -> TableReport:
    """Mark the reports resolved (the busts confirmed are made by then), deal the current hand
    again after a dismissed bust of the hand before, log it and tell the console and the
    table's tablets."""
    report, tournament, resolved = resolving.report, resolving.tournament, resolving.resolved
    now = timezone.now()
    for r in resolved:
        r.resolution = resolving.resolution
        r.resolved_at = now
    TableReport.objects.bulk_update(resolved, ["resolution", "resolved_at", "stack_at_hand_start"])
    if resolving.resolution == "dismissed" and report.hand_number < report.table.hand_number:
        _redeal_after_dismissal(report)
    event_record(
        tournament=tournament,
        action="table.report_resolve",
        actor=actor,
        payload={
            "report": report.pk,
            "reports": [r.pk for r in resolved],
            "resolution": resolving.resolution,
        },
    )
    broadcast_on_commit(console_group(tournament.pk), "report", {"resolved": report.pk})
    notify_tables(tournament.pk, [report.table_id], console=False)
    return report


def _same_hand_reports(report: TableReport) -> list[TableReport]:
    """The waiting bust reports of the report's hand, the report first (locked)."""
    same = TableReport.objects.select_for_update(of=("self",)).select_related("entry", "table")
    same = same.filter(kind=ReportKind.BUST, resolved_at__isnull=True).exclude(pk=report.pk)
    if report.h4h_round is not None:
        same = same.filter(
            table__tournament_id=report.table.tournament_id, h4h_round=report.h4h_round
        )
    else:
        same = same.filter(table_id=report.table_id, hand_number=report.hand_number, h4h_round=None)
    return [report, *same.order_by("id")]


def _redeal_after_dismissal(report: TableReport) -> None:
    """A bust reported in the hand before the current one turned out wrong: the player is still
    in, so the current hand's positions are worked out again from the hand before it with the
    player dealt in (only while that hand is still the table's latest)."""
    table = Table.objects.select_for_update(no_key=True).get(pk=report.table_id)
    if report.hand_number != table.hand_number - 1 or table.previous_big_blind_seat is None:
        return
    previous = blinds_of(
        table.previous_button_seat, table.previous_small_blind_seat, table.previous_big_blind_seat
    )
    rows = list(table.assignments.select_for_update())
    still_out = leaving_seats(table, rows, up_to_hand=report.hand_number)
    _deal_next_hand(table, rows, previous, still_out)
    table.save(update_fields=["button_seat", "small_blind_seat", "big_blind_seat"])
