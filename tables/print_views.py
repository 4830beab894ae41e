"""Printable seat cards, table cards and the alphabetical seat list (browser print styles, A4
and receipt width), and the public page of one table."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache

from core.inputs import whole_number_or_none
from core.links import public_url
from core.qr import qr_svg
from core.roles import floor_required
from tables.models import SeatAssignment, Table
from tables.selectors import public_table_view
from tournament.domain.collation import name_key
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
            "qr": qr_svg(public_url(reverse("my-seat", args=[r.entry.public_token]), request)),
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
            "qr": qr_svg(public_url(reverse("table-public", args=[pk, t.number]), request)),
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
    """Who sits at this table (display names only) and the live clock link. The page follows
    its table live (static/tables/table_public.js): the seats come on its socket."""
    table = _public_table(pk, number)
    view = public_table_view(table)
    live = {
        "json": reverse("table-public-json", args=[pk, number]),
        "ws": f"/ws/t/{pk}/table/{number}/",
        "version": view["version"],
        "empty": _("empty"),
    }
    return render(
        request,
        "public/table.html",
        {"tournament": table.tournament, "table": table, "seats": view["seats"], "live": live},
    )


@never_cache
def table_public_json(request: HttpRequest, pk: int, number: int) -> JsonResponse:
    """The public table page's snapshot, taken when its socket (re)connects."""
    return JsonResponse(dict(public_table_view(_public_table(pk, number))))


def _public_table(pk: int, number: int) -> Table:
    table = get_object_or_404(
        Table.objects.select_related("tournament"), tournament_id=pk, number=number
    )
    if table.tournament.status == "planned":
        raise Http404
    return table
