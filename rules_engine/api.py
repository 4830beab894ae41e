"""Ruling API: the engine's suggestion for a situation, recorded rulings, penalties."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from rules_engine import services as svc
from rules_engine.models import Penalty, PenaltyKind, Ruling
from tournament.api.permissions import IsFloor
from tournament.events import Actor
from tournament.models import Tournament


def _tournament(pk: int) -> Tournament:
    return get_object_or_404(Tournament, pk=pk)


class SituationSerializer(serializers.Serializer):
    situation = serializers.ChoiceField(choices=list(svc.SITUATION_KEYS))
    facts = serializers.DictField(
        help_text="The facts of the situation; see docs/rules_engine.md for each situation."
    )

    def validate_facts(self, facts: dict[str, Any]) -> dict[str, Any]:
        # Stored as JSON, which PostgreSQL refuses with a NUL character in any key or text.
        if _has_nul(facts):
            raise serializers.ValidationError(
                _("The facts contain a character that is not allowed.")
            )
        return facts


def _has_nul(value: Any) -> bool:
    if isinstance(value, str):
        return "\x00" in value
    if isinstance(value, dict):
        return any(_has_nul(k) or _has_nul(v) for k, v in value.items())
    if isinstance(value, list):
        return any(_has_nul(v) for v in value)
    return False


class CitedSerializer(serializers.Serializer):
    id = serializers.CharField()
    title = serializers.CharField()
    summary = serializers.CharField()


class SuggestionSerializer(serializers.Serializer):
    situation = serializers.CharField()
    ruleset = serializers.CharField()
    text = serializers.CharField()
    steps = serializers.ListField(child=serializers.CharField())
    rules = CitedSerializer(many=True)
    result = serializers.DictField()


class RecordSerializer(SituationSerializer):
    follows = serializers.BooleanField(default=True)
    decision = serializers.CharField(max_length=300, required=False, allow_blank=True)
    reason = serializers.CharField(max_length=300, required=False, allow_blank=True)
    table = serializers.IntegerField(min_value=1, required=False, allow_null=True)
    hand = serializers.IntegerField(min_value=1, required=False, allow_null=True)
    players = serializers.CharField(max_length=120, required=False, allow_blank=True)


class RulingSerializer(serializers.ModelSerializer):
    class Meta:
        model = Ruling
        fields = [
            "id",
            "situation",
            "table",
            "hand",
            "players",
            "facts",
            "suggested",
            "rules",
            "decision",
            "follows_suggestion",
            "reason",
            "decided_by",
            "decided_at",
        ]


def _suggest(t: Tournament, data: dict[str, Any]) -> dict[str, Any]:
    out = svc.suggestion(data["situation"], dict(data["facts"]), t.ruleset)
    return {
        "situation": data["situation"],
        "ruleset": t.ruleset,
        **out,
        "rules": svc.cited(out["rules"]),
    }


class RulingSuggest(APIView):
    permission_classes = [IsFloor]

    @extend_schema(
        request=SituationSerializer,
        responses=SuggestionSerializer,
        examples=[
            OpenApiExample(
                "Oversized chip",
                value={
                    "situation": "bet_interpretation",
                    "facts": {
                        "current_bet": 400,
                        "in_front": 0,
                        "last_raise": 400,
                        "stack": 20000,
                        "big_blind": 200,
                        "verbal": "none",
                        "chips": [5000],
                    },
                },
                request_only=True,
            ),
            OpenApiExample(
                "Misdeal",
                value={
                    "situation": "misdeal",
                    "facts": {"cause": "first_card_wrong_seat", "so_far": "two_no_chips"},
                },
                request_only=True,
            ),
        ],
    )
    def post(self, request: Request, pk: int) -> Response:
        t = _tournament(pk)
        ser = SituationSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        return Response(_suggest(t, ser.validated_data))


class Rulings(APIView):
    permission_classes = [IsFloor]

    @extend_schema(responses=RulingSerializer(many=True))
    def get(self, request: Request, pk: int) -> Response:
        t = _tournament(pk)
        qs = svc.rulings_search(t, request.query_params.get("q", ""))
        return Response(RulingSerializer(qs[:500], many=True).data)

    @extend_schema(request=RecordSerializer, responses={201: RulingSerializer})
    def post(self, request: Request, pk: int) -> Response:
        t = _tournament(pk)
        ser = RecordSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        d = ser.validated_data
        suggested = _suggest(t, d)
        follows = d["follows"]
        ruling = svc.ruling_record(
            tournament=t,
            situation=d["situation"],
            facts=dict(d["facts"]),
            suggested=suggested["result"],
            rules=[r["id"] for r in suggested["rules"]],
            decision=suggested["text"] or _("As suggested.") if follows else d.get("decision", ""),
            follows=follows,
            reason=d.get("reason", ""),
            actor=Actor.from_request(request._request),
            table=d.get("table"),
            hand=d.get("hand"),
            players=d.get("players", ""),
        )
        return Response(RulingSerializer(ruling).data, status=201)


class PenaltyInSerializer(serializers.Serializer):
    entry_number = serializers.IntegerField(min_value=1)
    kind = serializers.ChoiceField(choices=PenaltyKind.choices)
    count = serializers.IntegerField(min_value=0, max_value=20, default=0)
    reason = serializers.CharField(max_length=200)


class PenaltySerializer(serializers.ModelSerializer):
    entry_number = serializers.IntegerField(source="entry.number", read_only=True)

    class Meta:
        model = Penalty
        fields = [
            "id",
            "entry_number",
            "kind",
            "count",
            "hands",
            "hands_left",
            "table",
            "reason",
            "rule",
            "given_by",
            "given_at",
        ]


class Penalties(APIView):
    permission_classes = [IsFloor]

    @extend_schema(responses=PenaltySerializer(many=True))
    def get(self, request: Request, pk: int) -> Response:
        t = _tournament(pk)
        qs = Penalty.objects.filter(tournament=t).select_related("entry")[:500]
        return Response(PenaltySerializer(qs, many=True).data)

    @extend_schema(request=PenaltyInSerializer, responses={201: PenaltySerializer})
    def post(self, request: Request, pk: int) -> Response:
        t = _tournament(pk)
        ser = PenaltyInSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        d = ser.validated_data
        penalty = svc.penalty_give(
            tournament=t,
            number=d["entry_number"],
            kind=d["kind"],
            count=d["count"],
            reason=d["reason"],
            actor=Actor.from_request(request._request),
        )
        return Response(PenaltySerializer(penalty).data, status=201)
