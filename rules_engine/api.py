"""Ruling API: the engine's suggestion for a situation, recorded rulings, penalties."""

from __future__ import annotations

import copy
from typing import Any

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import OpenApiExample, extend_schema, extend_schema_field
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from actions.penalties import penalty_give
from core.domain.limits import INT_MAX
from rules_engine import services as svc
from rules_engine.domain.interpret import Verbal
from rules_engine.domain.irregularities import MisdealCause, OotAction
from rules_engine.domain.irregularities import Street as IrregularStreet
from rules_engine.models import Penalty, PenaltyKind, Ruling
from tournament.api.permissions import IsFloor
from tournament.events import Actor
from tournament.models import Tournament


def _tournament(pk: int) -> Tournament:
    return get_object_or_404(Tournament, pk=pk)


def _count(**kwargs: Any) -> serializers.IntegerField:
    """Chips or an amount: a whole number a column holds ("²" and 2.5 are refused)."""
    return serializers.IntegerField(min_value=0, max_value=INT_MAX, required=False, **kwargs)


def _flag() -> serializers.BooleanField:
    return serializers.BooleanField(required=False)


@extend_schema_field(
    {
        "oneOf": [
            {"type": "string", "maxLength": 40},
            {"type": "array", "items": {"type": "integer"}, "maxItems": 10},
        ],
        "nullable": True,
    }
)
class _SeatsField(serializers.Field):
    """Seats as text ("2, 6, 8") or as a list; the ruling reads the numbers and words what
    does not fit (rules_engine/selectors.py)."""

    def __init__(self, what: Any, **kwargs: Any) -> None:
        self.what = what
        super().__init__(required=False, allow_null=True, **kwargs)

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, str) and len(data) <= 40:
            return data
        if (
            isinstance(data, list)
            and len(data) <= 10
            and all(
                (isinstance(s, int) and not isinstance(s, bool) and 0 < s <= 10)
                or (isinstance(s, str) and len(s) <= 3)
                for s in data
            )
        ):
            return data
        raise serializers.ValidationError(
            _("%(what)s: enter seat numbers, such as 2, 6, 8.") % {"what": self.what}
        )

    def to_representation(self, value: Any) -> Any:
        return value


class BetFactsSerializer(serializers.Serializer):
    current_bet = _count()
    in_front = _count()
    last_raise = _count(allow_null=True)
    stack = _count()
    big_blind = _count()
    verbal = serializers.ChoiceField(choices=[v.value for v in Verbal], required=False)
    amount = _count(allow_null=True)
    chips = serializers.ListField(child=_count(), max_length=100, required=False, allow_null=True)
    verbal_first = _flag()
    first_motion = serializers.ListField(
        child=_count(), max_length=100, required=False, allow_null=True
    )
    unclear_amount = _flag()
    pot = _count(allow_null=True)
    facing_all_in = _flag()
    expects_change = _flag()
    missed_raise = _flag()
    acted_since = _flag()


def _choice(values: Any) -> serializers.ChoiceField:
    return serializers.ChoiceField(choices=[str(v) for v in values], required=False)


class IrregularityFactsSerializer(serializers.Serializer):
    street = _choice(IrregularStreet)
    action = _choice(OotAction)
    action_changed = _flag()
    cause = _choice(MisdealCause)
    so_far = _choice(svc.SO_FAR)
    fourth_known = _flag()
    acted = _flag()
    button_short = _flag()
    betting_started = _flag()


class ShowdownFactsSerializer(serializers.Serializer):
    board = serializers.CharField(max_length=40, required=False)
    hands = serializers.CharField(max_length=2000, required=False)
    contributions = serializers.CharField(max_length=2000, required=False)
    button = serializers.IntegerField(min_value=1, max_value=10, required=False)
    table_seats = serializers.IntegerField(min_value=2, max_value=10, required=False)
    smallest_chip = serializers.IntegerField(
        min_value=1, max_value=INT_MAX, required=False, allow_null=True
    )


@extend_schema_field({"oneOf": [{"type": "integer"}, {"type": "string"}], "nullable": True})
class _SeatField(serializers.Field):
    """One seat as a number or as text (empty: none); the ruling reads it and words what does
    not fit."""

    def __init__(self, what: Any, **kwargs: Any) -> None:
        self.what = what
        super().__init__(required=False, allow_null=True, **kwargs)

    def to_internal_value(self, data: Any) -> Any:
        if (isinstance(data, int) and not isinstance(data, bool) and 0 <= data <= 10) or (
            isinstance(data, str)
            and len(data) <= 3
            and ((data.isascii() and data.isdigit()) or not data.strip())
        ):
            return data
        raise serializers.ValidationError(_("%(what)s: enter a number.") % {"what": self.what})

    def to_representation(self, value: Any) -> Any:
        return value


class ShowOrderFactsSerializer(serializers.Serializer):
    seats = _SeatsField(gettext_lazy("Seats still in the hand"))
    button = _SeatField(gettext_lazy("Button seat"))
    table_seats = _SeatField(gettext_lazy("Seats at the table"))
    aggressor = _SeatField(gettext_lazy("Last bet or raise on the last betting round: seat"))
    all_in = _SeatsField(gettext_lazy("All-in seats"))


# The facts each situation reads, typed: a word where a number belongs, or a list or an
# object where one value belongs, is a 400 naming the fact, before the engine reads them.
FACTS: dict[str, type[serializers.Serializer]] = {
    svc.SITUATION_BET: BetFactsSerializer,
    svc.SITUATION_SHOWDOWN: ShowdownFactsSerializer,
    svc.SITUATION_SHOW_ORDER: ShowOrderFactsSerializer,
    **{
        s: IrregularityFactsSerializer
        for s in svc.SITUATION_KEYS
        if s not in (svc.SITUATION_BET, svc.SITUATION_SHOWDOWN, svc.SITUATION_SHOW_ORDER)
    },
}


def _every_fact() -> type[serializers.Serializer]:
    """Every fact any situation reads, for the schema: a client (and the API fuzzer) sees each
    fact's type. Each situation reads its own (`FACTS`)."""
    fields: dict[str, Any] = {}
    for typed in (
        BetFactsSerializer,
        IrregularityFactsSerializer,
        ShowdownFactsSerializer,
        ShowOrderFactsSerializer,
    ):
        for name, f in typed._declared_fields.items():
            fields.setdefault(name, copy.deepcopy(f))
    return type("FactsSerializer", (serializers.Serializer,), fields)


FactsSerializer = _every_fact()


@extend_schema_field(FactsSerializer)
class _FactsField(serializers.DictField):
    pass


class SituationSerializer(serializers.Serializer):
    situation = serializers.ChoiceField(choices=list(svc.SITUATION_KEYS))
    facts = _FactsField(
        help_text="The facts of the situation; see docs/rules_engine.md for each situation."
    )

    def validate_facts(self, facts: dict[str, Any]) -> dict[str, Any]:
        # Stored as JSON, which PostgreSQL refuses with a NUL character in any key or text.
        if _has_nul(facts):
            raise serializers.ValidationError(
                _("The facts contain a character that is not allowed.")
            )
        return facts

    def validate(self, data: dict[str, Any]) -> dict[str, Any]:
        typed = FACTS[data["situation"]](data=data["facts"])
        if not typed.is_valid():
            raise serializers.ValidationError({"facts": typed.errors})
        return {**data, "facts": dict(typed.validated_data)}


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
    citation = serializers.CharField(
        help_text="The rule with the ruleset's version in force, e.g. “tda-de 1.0 · 49”."
    )
    title = serializers.CharField()
    summary = serializers.CharField()


class SuggestionSerializer(serializers.Serializer):
    situation = serializers.CharField()
    ruleset = serializers.CharField()
    ruleset_version = serializers.CharField(
        help_text="The version of the ruleset the tournament plays under."
    )
    text = serializers.CharField()
    steps = serializers.ListField(child=serializers.CharField())
    rules = CitedSerializer(many=True)
    result = serializers.DictField()


class RecordSerializer(SituationSerializer):
    follows = serializers.BooleanField(default=True)
    decision = serializers.CharField(max_length=300, required=False, allow_blank=True)
    reason = serializers.CharField(max_length=300, required=False, allow_blank=True)
    table = serializers.IntegerField(
        min_value=1, max_value=INT_MAX, required=False, allow_null=True
    )
    hand = serializers.IntegerField(min_value=1, max_value=INT_MAX, required=False, allow_null=True)
    players = serializers.CharField(max_length=120, required=False, allow_blank=True)


class RulingSerializer(serializers.ModelSerializer):
    citations = serializers.ListField(
        child=serializers.CharField(),
        read_only=True,
        help_text="The rules cited with the version ruled under, e.g. “tda-de 1.0 · 49”.",
    )

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
            "ruleset",
            "ruleset_version",
            "citations",
            "decision",
            "follows_suggestion",
            "reason",
            "decided_by",
            "decided_at",
        ]


def _suggest(t: Tournament, data: dict[str, Any]) -> dict[str, Any]:
    version = svc.tournament_version(t)
    out = svc.suggestion(data["situation"], dict(data["facts"]), t.ruleset, version)
    return {
        "situation": data["situation"],
        "ruleset": t.ruleset,
        "ruleset_version": version,
        **out,
        "rules": svc.cited(out["rules"], version),
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


def _seat(**kwargs: Any) -> serializers.IntegerField:
    return serializers.IntegerField(min_value=1, max_value=10, **kwargs)


class ShowOrderInSerializer(serializers.Serializer):
    seats = serializers.ListField(
        child=_seat(),
        min_length=2,
        max_length=10,
        help_text="Seats still holding cards when the betting is over.",
    )
    button = _seat(help_text="The button seat (it may be empty).")
    table_seats = serializers.IntegerField(
        min_value=2,
        max_value=10,
        required=False,
        help_text="Seats at the table; the tournament's seats per table when left out.",
    )
    aggressor = _seat(
        required=False,
        allow_null=True,
        help_text="The seat that made the last bet or raise on the last betting round; "
        "null when nobody bet on it.",
    )
    all_in = serializers.ListField(
        child=_seat(),
        required=False,
        max_length=10,
        help_text="The seats in the hand that are all-in.",
    )

    def validate(self, data: dict[str, Any]) -> dict[str, Any]:
        seats = data["seats"]
        if len(set(seats)) != len(seats):
            raise serializers.ValidationError({"seats": _("A seat is listed twice.")})
        aggressor = data.get("aggressor")
        if aggressor is not None and aggressor not in seats:
            raise serializers.ValidationError(
                {"aggressor": _("The last bet or raise must come from a seat in the hand.")}
            )
        if set(data.get("all_in") or ()) - set(seats):
            raise serializers.ValidationError(
                {"all_in": _("An all-in seat must be a seat in the hand.")}
            )
        return data


class ShowOrderResultSerializer(serializers.Serializer):
    order = serializers.ListField(
        child=serializers.IntegerField(), help_text="Every seat, in the order they show."
    )
    first = serializers.IntegerField()
    first_because = serializers.ChoiceField(choices=["last_aggressor", "first_left_of_button"])
    face_up = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="Hands turned face up at once, whatever the order (all-in).",
    )
    all_face_up = serializers.BooleanField()
    all_in = serializers.ListField(child=serializers.IntegerField())
    floor_sets_order = serializers.BooleanField(
        help_text="The ruleset names no order here; the order is a suggestion."
    )
    rules = serializers.ListField(child=serializers.CharField())


class ShowOrderSerializer(SuggestionSerializer):
    result = ShowOrderResultSerializer()  # type: ignore[assignment]


class RulingShowOrder(APIView):
    """Who shows first at the showdown, under the tournament's ruleset (tda-de 16-17,
    bdpv 2.5.5, 6.27). The same ruling as `rulings/suggest/` with the situation `show_order`,
    with typed facts. Nothing is stored."""

    permission_classes = [IsFloor]

    @extend_schema(
        request=ShowOrderInSerializer,
        responses=ShowOrderSerializer,
        examples=[
            OpenApiExample(
                "Bet on the river",
                value={"seats": [2, 6, 8], "button": 4, "table_seats": 9, "aggressor": 8},
                request_only=True,
            ),
            OpenApiExample(
                "Checked down, one player all-in",
                value={"seats": [2, 6, 8], "button": 4, "aggressor": None, "all_in": [6]},
                request_only=True,
            ),
        ],
    )
    def post(self, request: Request, pk: int) -> Response:
        t = _tournament(pk)
        ser = ShowOrderInSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        facts = {"table_seats": t.seats_per_table, "all_in": [], **ser.validated_data}
        return Response(_suggest(t, {"situation": svc.SITUATION_SHOW_ORDER, "facts": facts}))


class PenaltyInSerializer(serializers.Serializer):
    entry_number = serializers.IntegerField(min_value=1, max_value=INT_MAX)
    kind = serializers.ChoiceField(choices=PenaltyKind.choices)
    count = serializers.IntegerField(min_value=0, max_value=20, default=0)
    reason = serializers.CharField(max_length=200)


class PenaltySerializer(serializers.ModelSerializer):
    entry_number = serializers.IntegerField(source="entry.number", read_only=True)
    citation = serializers.CharField(
        read_only=True, help_text="The rule with the version in force, e.g. “tda-de 1.0 · 69”."
    )

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
            "ruleset_version",
            "citation",
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
        penalty = penalty_give(
            tournament=t,
            number=d["entry_number"],
            kind=d["kind"],
            count=d["count"],
            reason=d["reason"],
            actor=Actor.from_request(request._request),
        )
        return Response(PenaltySerializer(penalty).data, status=201)
