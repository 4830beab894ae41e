"""API of the desk's corrections: void a registration, undo a correction (docs/desk.md)."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from actions import corrections as commands
from tournament.api.permissions import IsFloor
from tournament.correction_text import SENTENCES
from tournament.events import Actor
from tournament.models import Entry, Event, Tournament

INT_MAX = 2_147_483_647


class VoidSerializer(serializers.Serializer):
    move_to = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=1,
        max_value=INT_MAX,
        help_text="Entry number to book the voided entry's money on; empty: refund it.",
    )
    correct_payments = serializers.BooleanField(
        required=False,
        default=False,
        help_text="Go on although prizes already paid change: the payments stay on the books "
        "and the payout desk shows a correction.",
    )


class UndoSerializer(serializers.Serializer):
    correct_payments = serializers.BooleanField(required=False, default=False)


class CorrectionSerializer(serializers.ModelSerializer):
    sentence = serializers.SerializerMethodField()

    class Meta:
        model = Event
        fields = ["id", "at", "action", "sentence", "payload"]

    def get_sentence(self, event: Event) -> str:
        make = SENTENCES.get(event.action)
        return str(make(event.payload)) if make else event.action


def _actor(request: Request) -> Actor:
    return Actor.from_request(request._request)


class EntryVoid(APIView):
    """Void a wrong registration: no place, no prize, its seat freed, its money refunded or
    moved to another entry. Answers with the correction (its id undoes it)."""

    permission_classes = [IsFloor]

    @extend_schema(request=VoidSerializer, responses={201: CorrectionSerializer})
    def post(self, request: Request, pk: int, entry_id: int) -> Response:
        ser = VoidSerializer(data=request.data or {})
        ser.is_valid(raise_exception=True)
        data: dict[str, Any] = ser.validated_data
        entry = get_object_or_404(Entry, pk=entry_id, tournament_id=pk)
        event = commands.entry_void(
            entry=entry,
            actor=_actor(request),
            move_to=data.get("move_to"),
            correct_payments=data["correct_payments"],
        )
        return Response(CorrectionSerializer(event).data, status=201)


class CorrectionUndo(APIView):
    """Undo a correction, restoring the state before it; 400 with the reason when later
    changes make that impossible."""

    permission_classes = [IsFloor]

    @extend_schema(request=UndoSerializer, responses={201: CorrectionSerializer})
    def post(self, request: Request, pk: int, event_id: int) -> Response:
        ser = UndoSerializer(data=request.data or {})
        ser.is_valid(raise_exception=True)
        tournament = get_object_or_404(Tournament, pk=pk)
        event = commands.correction_undo(
            tournament=tournament,
            event_id=event_id,
            actor=_actor(request),
            correct_payments=ser.validated_data["correct_payments"],
        )
        return Response(CorrectionSerializer(event).data, status=201)
