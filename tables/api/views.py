"""Seating API: draw, tables, seat lookup, balance plan and moves, breaks, final table, button
and hands. Floor role for everything (the layout names players)."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from actions.tables import hand_done
from tables import services as svc
from tables.api import serializers as s
from tables.domain.seating import Move
from tables.models import SeatAssignment, Table
from tournament.api.permissions import IsFloor
from tournament.events import Actor
from tournament.models import Entry, Tournament


def _tournament(pk: int) -> Tournament:
    return get_object_or_404(Tournament, pk=pk)


def _actor(request: Request) -> Actor:
    return Actor.from_request(request._request)


def _table_data(table: Table) -> dict[str, Any]:
    rows = list(table.assignments.select_related("entry__player"))
    return {
        "number": table.number,
        "seats": table.seats,
        "area": table.area,
        "is_open": table.is_open,
        "button": table.button_seat,
        "small_blind": table.small_blind_seat,
        "big_blind": table.big_blind_seat,
        "hand_number": table.hand_number,
        "players": [
            {
                "seat": r.seat,
                "entry": r.entry_id,
                "number": r.entry.number,
                "display_name": r.entry.player.display_name,
                "must_wait": r.must_wait,
            }
            for r in rows
        ],
    }


def _move_data(m: Move) -> dict[str, Any]:
    return {
        **asdict(m),
        "instruction": f"Table {m.from_table} seat {m.from_seat} → "
        f"Table {m.to_table} seat {m.to_seat}",
    }


class Tables(APIView):
    permission_classes = [IsFloor]

    @extend_schema(responses=s.TableSerializer(many=True), summary="Open tables with seats")
    def get(self, request: Request, pk: int) -> Response:
        t = _tournament(pk)
        tables = t.tables.filter(is_open=True).order_by("number")
        return Response([_table_data(x) for x in tables])


class Draw(APIView):
    permission_classes = [IsFloor]

    @extend_schema(request=s.DrawSerializer, responses={200: dict}, summary="Draw all seats")
    def post(self, request: Request, pk: int) -> Response:
        ser = s.DrawSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        n = svc.seats_draw(
            tournament=_tournament(pk), actor=_actor(request), redraw=ser.validated_data["redraw"]
        )
        return Response({"seated": n})


class Plan(APIView):
    permission_classes = [IsFloor]

    @extend_schema(responses=s.PlanSerializer, summary="Balancing plan for the room now")
    def get(self, request: Request, pk: int) -> Response:
        t = _tournament(pk)
        plan = svc.balance_plan(t)
        return Response(
            {
                "signature": plan.signature,
                "moves": [_move_data(m) for m in plan.moves],
                "holds": list(plan.holds),
                "suggest_break": svc.break_suggestion(t),
            }
        )


class PlanApply(APIView):
    permission_classes = [IsFloor]

    @extend_schema(
        request=s.ApplySerializer,
        responses=s.MoveSerializer(many=True),
        summary="Apply the plan with this signature (409 if the tables changed)",
    )
    def post(self, request: Request, pk: int) -> Response:
        ser = s.ApplySerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        moves = svc.balance_apply(
            tournament=_tournament(pk),
            signature=ser.validated_data["signature"],
            actor=_actor(request),
        )
        return Response([_move_data(m) for m in moves])


class Break(APIView):
    permission_classes = [IsFloor]

    @extend_schema(request=None, responses=s.MoveSerializer(many=True), summary="Break a table")
    def post(self, request: Request, pk: int, number: int) -> Response:
        moves = svc.table_break(tournament=_tournament(pk), number=number, actor=_actor(request))
        return Response([_move_data(m) for m in moves])


class FinalTable(APIView):
    permission_classes = [IsFloor]

    @extend_schema(
        request=None, responses=s.MoveSerializer(many=True), summary="Draw the final table"
    )
    def post(self, request: Request, pk: int) -> Response:
        moves = svc.final_table_draw(tournament=_tournament(pk), actor=_actor(request))
        return Response([_move_data(m) for m in moves])


class Button(APIView):
    permission_classes = [IsFloor]

    @extend_schema(
        request=s.ButtonSerializer, responses=s.TableSerializer, summary="Set the button"
    )
    def post(self, request: Request, pk: int, number: int) -> Response:
        ser = s.ButtonSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        table = get_object_or_404(Table, tournament_id=pk, number=number)
        table = svc.button_set(table=table, seat=ser.validated_data["seat"], actor=_actor(request))
        return Response(_table_data(table))


class Hand(APIView):
    permission_classes = [IsFloor]

    @extend_schema(request=s.HandSerializer, responses=s.TableSerializer, summary="Hand done")
    def post(self, request: Request, pk: int, number: int) -> Response:
        ser = s.HandSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        table = get_object_or_404(Table, tournament_id=pk, number=number, is_open=True)
        table = hand_done(
            table=table, actor=_actor(request), hand_number=ser.validated_data.get("hand_number")
        )
        return Response(_table_data(table))


class SeatLookup(APIView):
    permission_classes = [IsFloor]

    @extend_schema(responses=s.SeatLookupSerializer, summary="Where an entry sits")
    def get(self, request: Request, pk: int, entry_id: int) -> Response:
        entry = get_object_or_404(Entry, pk=entry_id, tournament_id=pk)
        row = SeatAssignment.objects.select_related("table").filter(entry=entry).first()
        return Response(
            {
                "entry": entry.pk,
                "number": entry.number,
                "status": entry.status,
                "table": row.table.number if row else None,
                "seat": row.seat if row else None,
                "area": row.table.area if row else None,
                "must_wait": row.must_wait if row else False,
            }
        )

    @extend_schema(
        request=s.MoveRequestSerializer,
        responses=s.SeatLookupSerializer,
        summary="Move an entry by hand",
    )
    def post(self, request: Request, pk: int, entry_id: int) -> Response:
        ser = s.MoveRequestSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        entry = get_object_or_404(Entry, pk=entry_id, tournament_id=pk)
        svc.seat_move(
            tournament=_tournament(pk),
            entry=entry,
            table_number=ser.validated_data["table"],
            seat=ser.validated_data["seat"],
            actor=_actor(request),
        )
        return self.get(request, pk, entry_id)
