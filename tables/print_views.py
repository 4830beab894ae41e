"""Printable seat cards, table cards and the alphabetical seat list (browser print styles, A4
and receipt width), and the public page of one table."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse

from tables.models import SeatAssignment, Table
from tournament.domain.collation import name_key
from tournament.inputs import whole_number_or_none
from tournament.public_selectors import initials, names_withheld
from tournament.qr import qr_svg
from tournament.roles import floor_required
from tournament.views import get_tournament


def _rows(tournament_pk: int, table: str | None) -> list[SeatAssignment]:
    rows = SeatAssignment.objects.filter(
        table__tournament_id=tournament_pk, table__is_open=True
    ).select_related("table", "entry__player")
    number = whole_number_or_none(table, low=1)
    if number is not None:
        rows = rows.filter(table__number=number)
    return list(rows.order_by("table__number", "seat"))


def _paper(request: HttpRequest) -> str:
    return "receipt" if request.GET.get("paper") == "receipt" else "a4"


@floor_required
def seat_cards(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = get_tournament(pk)
    cards = [
        {
            "row": r,
            "qr": qr_svg(
                request.build_absolute_uri(reverse("my-seat", args=[r.entry.public_token]))
            ),
        }
        for r in _rows(pk, request.GET.get("table"))
    ]
    return render(
        request,
        "tables/print_seat_cards.html",
        {"tournament": tournament, "cards": cards, "paper": _paper(request)},
    )


@floor_required
def table_cards(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = get_tournament(pk)
    tables = [
        {
            "table": t,
            "qr": qr_svg(request.build_absolute_uri(reverse("table-public", args=[pk, t.number]))),
        }
        for t in tournament.tables.filter(is_open=True).order_by("number")
    ]
    return render(
        request,
        "tables/print_table_cards.html",
        {"tournament": tournament, "tables": tables, "paper": _paper(request)},
    )


@floor_required
def seat_list(request: HttpRequest, pk: int) -> HttpResponse:
    """Alphabetical by display name, for the wall."""
    tournament = get_tournament(pk)
    rows = sorted(
        _rows(pk, None), key=lambda r: (name_key(r.entry.player.display_name), r.entry.number)
    )
    return render(
        request,
        "tables/print_seat_list.html",
        {"tournament": tournament, "rows": rows, "paper": _paper(request)},
    )


def table_public(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """Who sits at this table (display names only) and the live clock link."""
    table = get_object_or_404(
        Table.objects.select_related("tournament"), tournament_id=pk, number=number
    )
    if table.tournament.status == "planned":
        raise Http404
    rows = {r.seat: r for r in table.assignments.select_related("entry__player")}
    t = table.tournament
    withheld = names_withheld(status=t.status, starts_at=t.starts_at)  # docs/players.md
    names = {
        n: initials(r.entry.player.display_name) if withheld else r.entry.player.display_name
        for n, r in rows.items()
    }
    seats = [
        {"n": n, "row": rows.get(n), "name": names.get(n, "")} for n in range(1, table.seats + 1)
    ]
    return render(
        request,
        "public/table.html",
        {"tournament": table.tournament, "table": table, "seats": seats},
    )
