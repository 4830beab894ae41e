"""The webhooks' API (directors only): the same as the pages (docs/webhooks.md).

- `GET /api/webhooks/`, `POST /api/webhooks/` (`url`, `kinds`, `tournament` or null,
  `description`): 201 with the endpoint and its `secret`, the only answer that carries it.
- `GET`, `PATCH` (`active`), `DELETE /api/webhooks/<id>/`.
- `POST /api/webhooks/<id>/test/`: a test message queued (202).
- `GET /api/webhooks/<id>/deliveries/`: the latest 50 with state, attempts, answer.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.errors import FloorError, NotFound
from tournament.api.permissions import IsDirector
from tournament.models import Tournament
from webhooks import services
from webhooks.domain.rules import SUBSCRIBABLE, URL_MAX, secret_hint
from webhooks.models import Delivery, Endpoint

DELIVERIES_SHOWN = 50


class EndpointSerializer(serializers.ModelSerializer[Endpoint]):
    secret_hint = serializers.SerializerMethodField()

    class Meta:
        model = Endpoint
        fields = ["id", "url", "tournament", "kinds", "description", "active", "secret_hint"]
        read_only_fields = fields

    def get_secret_hint(self, e: Endpoint) -> str:
        return secret_hint(e.secret)


class EndpointCreateSerializer(serializers.Serializer[Any]):
    url = serializers.CharField(max_length=URL_MAX + 100)
    kinds = serializers.ListField(
        child=serializers.ChoiceField(choices=[str(k) for k in SUBSCRIBABLE]), max_length=10
    )
    tournament = serializers.IntegerField(
        required=False, allow_null=True, min_value=1, max_value=2**62
    )
    description = serializers.CharField(
        required=False, allow_blank=True, max_length=services.DESCRIPTION_MAX
    )


class EndpointCreatedSerializer(EndpointSerializer):
    secret = serializers.CharField()

    class Meta(EndpointSerializer.Meta):
        fields = [*EndpointSerializer.Meta.fields, "secret"]
        read_only_fields = fields


class ActiveSerializer(serializers.Serializer[Any]):
    active = serializers.BooleanField()


class DeliverySerializer(serializers.ModelSerializer[Delivery]):
    class Meta:
        model = Delivery
        fields = [
            "id",
            "kind",
            "message_id",
            "state",
            "attempts",
            "next_attempt_at",
            "last_attempt_at",
            "last_status",
            "last_answer",
            "last_error",
            "delivered_at",
            "created_at",
        ]
        read_only_fields = fields


def _endpoint(pk: int) -> Endpoint:
    endpoint = Endpoint.objects.filter(pk=pk).first()
    if endpoint is None:
        raise NotFound(services.refusal_missing())
    return endpoint


class EndpointList(APIView):
    permission_classes = [IsDirector]

    @extend_schema(responses=EndpointSerializer(many=True))
    def get(self, request: Request) -> Response:
        return Response(EndpointSerializer(Endpoint.objects.order_by("pk")[:500], many=True).data)

    @extend_schema(request=EndpointCreateSerializer, responses={201: EndpointCreatedSerializer})
    def post(self, request: Request) -> Response:
        ser = EndpointCreateSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        data = ser.validated_data
        tournament = None
        if data.get("tournament") is not None:
            tournament = Tournament.objects.filter(pk=data["tournament"]).first()
            if tournament is None:
                raise FloorError(services.refusal_tournament(), field="tournament")
        endpoint, secret = services.endpoint_create(
            url=data["url"],
            kinds=data["kinds"],
            tournament=tournament,
            description=data.get("description", ""),
            user=request.user,
        )
        body = {**EndpointSerializer(endpoint).data, "secret": secret}
        answer = Response(body, status=status.HTTP_201_CREATED)
        answer["Cache-Control"] = "no-store"
        return answer


class EndpointDetail(APIView):
    permission_classes = [IsDirector]

    @extend_schema(responses=EndpointSerializer)
    def get(self, request: Request, pk: int) -> Response:
        return Response(EndpointSerializer(_endpoint(pk)).data)

    @extend_schema(request=ActiveSerializer, responses=EndpointSerializer)
    def patch(self, request: Request, pk: int) -> Response:
        endpoint = _endpoint(pk)
        ser = ActiveSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        endpoint = services.endpoint_set_active(pk=endpoint.pk, active=ser.validated_data["active"])
        return Response(EndpointSerializer(endpoint).data)

    @extend_schema(responses={204: None})
    def delete(self, request: Request, pk: int) -> Response:
        services.endpoint_delete(pk=_endpoint(pk).pk)
        return Response(status=status.HTTP_204_NO_CONTENT)


class EndpointTest(APIView):
    permission_classes = [IsDirector]

    @extend_schema(request=None, responses={202: DeliverySerializer})
    def post(self, request: Request, pk: int) -> Response:
        delivery = services.ping(pk=_endpoint(pk).pk)
        return Response(DeliverySerializer(delivery).data, status=status.HTTP_202_ACCEPTED)


class EndpointDeliveries(APIView):
    permission_classes = [IsDirector]

    @extend_schema(responses=DeliverySerializer(many=True))
    def get(self, request: Request, pk: int) -> Response:
        rows = _endpoint(pk).deliveries.order_by("-pk")[:DELIVERIES_SHOWN]
        return Response(DeliverySerializer(rows, many=True).data)
