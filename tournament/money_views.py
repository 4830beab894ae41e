"""Deal calculator and the payout desk (console)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from core.csvexport import csv_response
from core.errors import FloorError
from core.inputs import CHIPS_MAX, amount, whole_number, whole_number_or_none
from core.roles import floor_required
from tournament.events import Actor
from tournament.models import DealShare, Entry, Status
from tournament.selectors import tournament_numbers
from tournament.services import deals as svc
from tournament.signals import deal_stacks_wanted
from tournament.views import console_context, get_tournament


def _known_stacks(tournament: Any, entries: list[Entry]) -> dict[int, int]:
    known: dict[int, int] = {}
    ids = [e.pk for e in entries]
    for _receiver, answer in deal_stacks_wanted.send(
        sender=None, tournament=tournament, entry_ids=ids
    ):
        if isinstance(answer, dict):
            known.update(answer)
    return known


def _read(
    request: HttpRequest, entries: list[Entry]
) -> tuple[svc.DealInput, dict[int, int], list[int]]:
    post = request.POST
    stacks: dict[int, int] = {}
    custom: dict[int, int] = {}
    for e in entries:
        raw = post.get(f"stack_{e.pk}", "").replace(".", "").replace(",", "").strip()
        stacks[e.pk] = whole_number(
            raw,
            high=CHIPS_MAX,
            message=_("Enter every stack as a whole number of chips (#%(n)s).") % {"n": e.number},
        )
        typed = post.get(f"custom_{e.pk}", "").strip()
        if typed:
            custom[e.pk] = amount(typed)
    unit = amount(post.get("unit") or "1")
    play_for = amount(post.get("play_for") or "0")
    chips_raw = post.get("chips_in_play", "").replace(".", "").replace(",", "").strip()
    chips = whole_number_or_none(chips_raw, high=CHIPS_MAX)
    consents = [e.pk for e in entries if post.get(f"agree_{e.pk}") == "on"]
    return (
        svc.DealInput(stacks=stacks, unit=max(unit, 1), play_for=play_for, chips_in_play=chips),
        custom,
        consents,
    )


@floor_required
def deal(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = get_tournament(pk)
    existing = tournament.deals.prefetch_related("shares__entry__player").first()
    left = tournament.players_left  # kept by the database (tournament/counters.py)
    # A deal is worked out by 2 to 10 players of a running tournament: the page lists them
    # only then (not the whole field of a 30,000-entry event).
    possible = (
        existing is None
        and 2 <= left <= svc.MAX_DEAL_PLAYERS
        and tournament.status
        in (
            Status.RUNNING,
            Status.FINAL_TABLE,
        )
    )
    entries = svc.players_left(tournament) if possible else []
    # Stacks filled in from the latest chip counts when the page is first opened.
    known = _known_stacks(tournament, entries) if entries and request.method != "POST" else {}
    context: dict[str, Any] = {
        "entries": entries,
        "possible": possible,
        "left": left,
        "max_players": svc.MAX_DEAL_PLAYERS,
        "existing": existing,
        "prizes": svc.open_prizes(tournament) if possible else [],
        "chips_in_play": tournament_numbers(tournament).chips_in_play,
        "posted": request.POST,
        "counted_stacks": len(known),
        "rows": [
            {
                "entry": e,
                "stack": request.POST.get(f"stack_{e.pk}", known.get(e.pk, "")),
                "custom": request.POST.get(f"custom_{e.pk}", ""),
                "agreed": request.POST.get(f"agree_{e.pk}") == "on",
            }
            for e in entries
        ],
    }
    if request.method == "POST" and possible:
        try:
            data, custom, consents = _read(request, entries)
            rows, proposals = svc.deal_proposals(tournament, data, custom or None)
        except FloorError as exc:
            messages.error(request, str(exc))
        else:
            total = sum(data.stacks.values()) or 1
            amounts = {
                e.pk: {m: p.amounts[i] for m, p in proposals.items()} for i, e in enumerate(rows)
            }
            context["table"] = True
            context["proposals"] = proposals
            context["data"] = data
            context["rows"] = [
                {
                    **row,
                    "amounts": amounts[row["entry"].pk],
                    "pct": number_format(100 * data.stacks[row["entry"].pk] / total, 1),
                }
                for row in context["rows"]
            ]
            if request.POST.get("action") == "record":
                try:
                    svc.deal_record(
                        tournament=tournament,
                        data=data,
                        method=request.POST.get("method", ""),
                        consents=consents,
                        custom=custom or None,
                        actor=Actor.from_request(request),
                    )
                except FloorError as exc:
                    messages.error(request, str(exc))
                else:
                    messages.success(request, _("The deal is recorded; the prizes follow it."))
                    return redirect("deal", pk=pk)
    return render(
        request, "tournament/deal.html", console_context(tournament, "payouts", **context)
    )


@floor_required
def payout_desk(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = get_tournament(pk)
    rows = svc.owed(tournament)
    if request.GET.get("format") == "csv":
        header = [
            "place",
            "number",
            "name",
            "prize_cents",
            "bounties_cents",
            "owed_cents",
            "paid_cents",
            "open_cents",
            "paid_at",
            "paid_by",
        ]
        return csv_response(
            f"payouts-{tournament.pk}.csv",
            header,
            (
                [
                    e.place or "",
                    e.number,
                    e.player.name,
                    e.owed - e.bounties_won,  # type: ignore[attr-defined]
                    e.bounties_won,
                    e.owed,  # type: ignore[attr-defined]
                    e.paid_amount,
                    e.open,  # type: ignore[attr-defined]
                    e.paid_at.isoformat() if e.paid_at else "",
                    e.paid_by,
                ]
                for e in rows
            ),
        )
    context = console_context(
        tournament,
        "payouts",
        rows=rows,
        totals=svc.desk_totals(tournament),
        deal=tournament.deals.first(),
    )
    return render(request, "tournament/payout_desk.html", context)


@floor_required
@require_POST
def payout_paid(request: HttpRequest, pk: int, entry_id: int) -> HttpResponse:
    tournament = get_tournament(pk)
    try:
        entry = svc.prize_paid(
            tournament=tournament,
            entry_id=entry_id,
            actor=Actor.from_request(request),
            method=request.POST.get("method", ""),
        )
        messages.success(request, _("#%(n)s paid.") % {"n": entry.number})
    except FloorError as exc:
        messages.error(request, str(exc))
    return redirect("payout-desk", pk=pk)


@floor_required
@require_POST
def payout_collected(request: HttpRequest, pk: int, entry_id: int) -> HttpResponse:
    tournament = get_tournament(pk)
    try:
        entry = svc.payment_collected(
            tournament=tournament,
            entry_id=entry_id,
            actor=Actor.from_request(request),
            method=request.POST.get("method", ""),
        )
        messages.success(request, _("Money collected back from #%(n)s.") % {"n": entry.number})
    except FloorError as exc:
        messages.error(request, str(exc))
    return redirect("payout-desk", pk=pk)


@floor_required
def payout_receipt(request: HttpRequest, pk: int, entry_id: int) -> HttpResponse:
    tournament = get_tournament(pk)
    entry = get_object_or_404(
        Entry.objects.select_related("player"),
        pk=entry_id,
        tournament=tournament,
        paid_amount__gt=0,
    )
    share = DealShare.objects.select_related("deal").filter(entry=entry).first()
    return render(
        request,
        "tournament/payout_receipt.html",
        {"tournament": tournament, "entry": entry, "share": share},
    )
