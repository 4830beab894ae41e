"""The cage: the cash ledger of a tournament and of a day, its reconciliation, CSV for the books,
and a director's corrections (docs/ledger.md)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date
from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from core.csvexport import csv_response
from core.domain.money import MoneyError, parse_money
from core.errors import FloorError
from core.inputs import whole_number_or_none
from core.roles import director_required, floor_required, is_director
from tournament.domain.ledger import METHODS, PURCHASE_METHODS, REAL
from tournament.events import Actor
from tournament.ledger_selectors import (
    DayCage,
    EventCage,
    TournamentCage,
    day_cages,
    day_tournaments,
    event_cage,
    ledger_lines,
    tournament_cage,
)
from tournament.models import LedgerLine, PaymentMethod
from tournament.services import ledger as svc
from tournament.views import console_context, get_tournament

LINE_HEADER = [
    "line",
    "at",
    "tournament",
    "entry",
    "player",
    "kind",
    "method",
    "amount_cents",
    "players_money_cents",
    "fees_cents",
    "corrects_line",
    "reason",
    "recorded_by",
    "currency",
]


def _line_rows(lines: Iterable[LedgerLine]) -> Iterable[list[object]]:
    for line in lines:
        entry = line.entry
        yield [
            line.pk,
            timezone.localtime(line.at).isoformat(timespec="seconds"),
            line.tournament.name,
            entry.number if entry else "",
            entry.player.name if entry else "",
            line.kind,
            line.method,
            line.amount,
            line.prizes,
            line.fees,
            line.corrects_id or "",
            line.note,
            line.recorded_by,
            line.tournament.currency,
        ]


SUMMARY_HEADER = [
    "tournament",
    "currency",
    *[f"in_{m}_cents" for m in METHODS],
    *[f"out_{m}_cents" for m in METHODS],
    "held_real_money_cents",
    "fees_cents",
    "staff_fee_withheld_cents",
    "house_contribution_cents",
    "overlay_cents",
    "house_paid_entries_cents",
    "cash_differences_cents",
    "house_keeps_cents",
    "prize_pool_cents",
    "bounties_cents",
    "paid_out_cents",
    "still_owed_cents",
    "unexplained_cents",
    "carried_to_day2_cents",
    "carried_in_from_flights_cents",
]


def _summary_row(
    name: str, currency: str, cage: TournamentCage | DayCage | EventCage
) -> list[object]:
    """One row of the summary CSV. A flight has no pool of its own (0): its players' money is
    in `carried_to_day2`, and the Day 2 counts it in `carried_in_from_flights` and its pool."""
    report, house = cage.report, cage.house
    pool: object = ""
    bounties: object = ""
    if isinstance(cage, TournamentCage):
        pool = cage.pool.total if cage.pool is not None else 0
        bounties = cage.bounty_pool
    elif isinstance(cage, EventCage) and cage.pool is not None:
        pool = cage.pool.total
    return [
        name,
        currency,
        *[report.taken[m] + report.corrected[m] for m in METHODS],
        *[report.paid[m] for m in METHODS],
        report.held_total,
        house.fees,
        house.withheld,
        house.house_contribution,
        house.overlay,
        house.house_paid_entries,
        house.cash_differences,
        house.total,
        pool,
        bounties,
        report.paid_out,
        cage.still_owed,
        cage.unexplained,
        cage.reckoning.carried_out,
        cage.reckoning.carried_in,
    ]


def _methods_table(cage: TournamentCage | DayCage) -> list[dict[str, Any]]:
    labels = dict(PaymentMethod.choices)
    rows = []
    for m in METHODS:
        r = cage.report
        if not (r.taken[m] or r.paid[m] or r.corrected[m]):
            continue
        rows.append(
            {
                "method": labels[m],
                "taken": r.taken[m],
                "paid": r.paid[m],
                "corrected": r.corrected[m],
                "held": r.taken[m] - r.paid[m] + r.corrected[m],
                "real": m in REAL,
            }
        )
    return rows


@floor_required
def cage(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = get_tournament(pk)
    event = event_cage(tournament)
    if event is not None:
        view = next(p for p in event.parts if p.tournament.pk == tournament.pk)
    else:
        view = tournament_cage(tournament)
    fmt = request.GET.get("format")
    if fmt == "csv":
        return csv_response(
            f"ledger-{tournament.pk}.csv", LINE_HEADER, _line_rows(ledger_lines([tournament.pk]))
        )
    if fmt == "summary":
        if event is not None and tournament.pooled:
            # The Day 2's summary is the event's: each flight, the Day 2, and the whole event.
            rows = [_summary_row(p.tournament.name, tournament.currency, p) for p in event.parts]
            rows.append(_summary_row(_("Event total"), tournament.currency, event))
        else:
            rows = [_summary_row(tournament.name, tournament.currency, view)]
        return csv_response(f"cage-{tournament.pk}.csv", SUMMARY_HEADER, rows)
    lines = ledger_lines([tournament.pk])
    context = console_context(
        tournament,
        "payouts",
        cage=view,
        event=event,
        methods=_methods_table(view),
        corrected_any=any(view.report.corrected.values()),
        lines=lines[-100:][::-1],
        lines_total=len(lines),
        day=timezone.localtime(tournament.starts_at).date(),
        can_correct=is_director(request.user),
        correctable=[line for line in lines[::-1] if line.amount and not line.corrects_id][:100],
        purchase_methods=[
            (m, label) for m, label in PaymentMethod.choices if m in PURCHASE_METHODS
        ],
    )
    return render(request, "tournament/cage.html", context)


def _day(text: str | None) -> date:
    if not text:
        return timezone.localdate()
    try:
        return date.fromisoformat(text)
    except ValueError as exc:
        raise Http404("no such day") from exc


@floor_required
def cage_day(request: HttpRequest) -> HttpResponse:
    day = _day(request.GET.get("day"))
    days = day_cages(day)
    fmt = request.GET.get("format")
    if fmt == "csv":
        ids = [t.pk for t in day_tournaments(day)]
        return csv_response(
            f"ledger-{day.isoformat()}.csv", LINE_HEADER, _line_rows(ledger_lines(ids))
        )
    if fmt == "summary":
        rows: list[list[object]] = []
        for d in days:
            rows.extend(_summary_row(c.tournament.name, d.currency, c) for c in d.tournaments)
            rows.append(_summary_row(_("Day total"), d.currency, d))
        return csv_response(f"cage-{day.isoformat()}.csv", SUMMARY_HEADER, rows)
    return render(
        request,
        "tournament/cage_day.html",
        {
            "day": day,
            "days": [
                {
                    "cage": d,
                    "methods": _methods_table(d),
                    "corrected_any": any(d.report.corrected.values()),
                }
                for d in days
            ],
            "previous": day.fromordinal(day.toordinal() - 1),
            "next": day.fromordinal(day.toordinal() + 1),
        },
    )


@director_required
@require_POST
def cage_method_change(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = get_tournament(pk)
    try:
        svc.method_change(
            tournament=tournament,
            line_id=whole_number_or_none(request.POST.get("line"), low=1) or 0,
            method=request.POST.get("method", ""),
            reason=request.POST.get("reason", ""),
            actor=Actor.from_request(request),
        )
    except FloorError as exc:
        return _refused(request, pk, str(exc))
    messages.success(request, _("The payment method is corrected by two new ledger lines."))
    return redirect("cage", pk=pk)


def _refused(request: HttpRequest, pk: int, message: str) -> HttpResponse:
    """A refused correction: the cage page with the reason, answered 400; nothing written."""
    messages.error(request, message)
    response = cage(request, pk)
    response.status_code = 400
    return response


@director_required
@require_POST
def cage_difference(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = get_tournament(pk)
    text = (request.POST.get("amount") or "").strip()
    sign = -1 if text.startswith(("-", "−")) else 1
    try:
        amount = sign * parse_money(text.lstrip("+-−").strip())
    except MoneyError:
        return _refused(request, pk, _("Enter an amount such as 5 or -12.50."))
    try:
        svc.cash_difference(
            tournament=tournament,
            amount=amount,
            method=request.POST.get("method", ""),
            reason=request.POST.get("reason", ""),
            actor=Actor.from_request(request),
        )
    except FloorError as exc:
        return _refused(request, pk, str(exc))
    messages.success(request, _("The counted difference is in the ledger."))
    return redirect("cage", pk=pk)
