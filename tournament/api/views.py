"""The REST API: the same services as the pages."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.exceptions import PermissionDenied
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from actions import registration as registering
from actions import tournaments as commands
from actions.bust import BustReport, bust_undo_last, entries_bust
from clocks.selectors import numbered
from core.errors import FloorError
from core.inputs import search_text
from core.roles import is_director
from tournament.api import serializers as s
from tournament.api.permissions import (
    IsDirector,
    IsDirectorForWrites,
    IsFloor,
    IsFloorOrReadOnlyPublic,
)
from tournament.domain.structure import LevelSpec
from tournament.events import Actor
from tournament.models import ChipSet, Entry, Player, Structure, Tournament
from tournament.selectors import entries_found, name_query, payout_amounts, tournament_numbers
from tournament.services import (
    payouts,
    people,
    privacy,
    registration,
    tournaments,
)


def _tournament(pk: int) -> Tournament:
    return get_object_or_404(Tournament.objects.select_related("structure"), pk=pk)


def _actor(request: Request) -> Actor:
    return Actor.from_request(request._request)


class TournamentList(APIView):
    permission_classes = [IsDirectorForWrites]

    @extend_schema(responses=s.TournamentSerializer(many=True))
    def get(self, request: Request) -> Response:
        return Response(s.TournamentSerializer(Tournament.objects.all()[:500], many=True).data)

    @extend_schema(request=s.TournamentCreateSerializer, responses={201: s.TournamentSerializer})
    def post(self, request: Request) -> Response:
        ser = s.TournamentCreateSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        data = dict(ser.validated_data)
        structure = Structure.objects.filter(pk=data.pop("structure"), is_template=True).first()
        chip_set = ChipSet.objects.filter(pk=data.pop("chip_set")).first()
        if structure is None or chip_set is None:
            raise FloorError(_("Unknown structure template or chip set."))
        t = tournaments.tournament_create(
            actor=_actor(request), structure=structure, chip_set=chip_set, **data
        )
        return Response(s.TournamentSerializer(t).data, status=status.HTTP_201_CREATED)


class TournamentDetail(APIView):
    permission_classes = [IsDirectorForWrites]

    @extend_schema(responses=s.TournamentSerializer)
    def get(self, request: Request, pk: int) -> Response:
        return Response(s.TournamentSerializer(_tournament(pk)).data)

    @extend_schema(request=s.TournamentSerializer, responses=s.TournamentSerializer)
    def patch(self, request: Request, pk: int) -> Response:
        t = _tournament(pk)
        ser = s.TournamentSerializer(t, data=request.data, partial=True)
        ser.is_valid(raise_exception=True)
        t = tournaments.tournament_update(tournament=t, actor=_actor(request), **ser.validated_data)
        return Response(s.TournamentSerializer(t).data)


class TournamentNumbers(APIView):
    permission_classes = [IsFloorOrReadOnlyPublic]

    @extend_schema(responses=s.NumbersSerializer)
    def get(self, request: Request, pk: int) -> Response:
        return Response(s.NumbersSerializer(tournament_numbers(_tournament(pk))).data)


class TournamentStatus(APIView):
    permission_classes = [IsDirectorForWrites]

    @extend_schema(request=s.StatusSerializer, responses=s.TournamentSerializer)
    def post(self, request: Request, pk: int) -> Response:
        ser = s.StatusSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        t = commands.tournament_status_set(
            tournament=_tournament(pk), status=ser.validated_data["status"], actor=_actor(request)
        )
        return Response(s.TournamentSerializer(t).data)


class TournamentReopen(APIView):
    """A director takes a finished tournament back into play (to undo its last bust)."""

    permission_classes = [IsDirectorForWrites]

    @extend_schema(request=s.ReopenSerializer, responses=s.TournamentSerializer)
    def post(self, request: Request, pk: int) -> Response:
        ser = s.ReopenSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        t = commands.tournament_reopen(
            tournament=_tournament(pk), actor=_actor(request), reason=ser.validated_data["reason"]
        )
        return Response(s.TournamentSerializer(t).data)


class Levels(APIView):
    permission_classes = [IsFloorOrReadOnlyPublic]

    @extend_schema(responses=s.LevelSerializer(many=True))
    def get(self, request: Request, pk: int) -> Response:
        levels = numbered(list(_tournament(pk).structure.levels.all()))
        return Response(s.LevelSerializer(levels, many=True).data)

    @extend_schema(
        request=s.LevelInputSerializer(many=True), responses=s.LevelSerializer(many=True)
    )
    def put(self, request: Request, pk: int) -> Response:
        ser = s.LevelInputSerializer(data=request.data, many=True)
        ser.is_valid(raise_exception=True)
        levels = [
            LevelSpec(
                small_blind=d["small_blind"],
                big_blind=d["big_blind"],
                ante=d["ante"],
                big_blind_ante=d["big_blind_ante"],
                minutes=d["minutes"],
                is_break=d["is_break"],
                color_up=tuple(d["color_up"]),
            )
            for d in ser.validated_data
        ]
        t = _tournament(pk)
        commands.structure_replace_levels(tournament=t, levels=levels, actor=_actor(request))
        rows = numbered(list(t.structure.levels.all()))
        return Response(s.LevelSerializer(rows, many=True).data)


class Entries(APIView):
    permission_classes = [IsFloor]

    @extend_schema(responses=s.EntrySerializer(many=True))
    def get(self, request: Request, pk: int) -> Response:
        entries = entries_found(_tournament(pk), request.query_params.get("q", ""), 1000)
        return Response(s.EntrySerializer(entries, many=True).data)

    @extend_schema(
        request=s.RegisterSerializer,
        parameters=[
            OpenApiParameter(
                "Idempotency-Key",
                str,
                OpenApiParameter.HEADER,
                required=False,
                description=(
                    "A one-time key for this registration (1 to 100 printable ASCII characters, "
                    "such as a UUID). Sent again with the same request (a retry after a "
                    "timeout), it registers nothing new and answers with the entry the first "
                    "request made, the same status and body, and the header "
                    "`Idempotent-Replayed: true`. The same key with another player or name is "
                    "refused (400, code `key_reused`). Keys are kept per tournament."
                ),
            )
        ],
        responses={201: s.EntrySerializer},
    )
    def post(self, request: Request, pk: int) -> Response:
        t = _tournament(pk)
        ser = s.RegisterSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        data = ser.validated_data
        actor = _actor(request)
        key = registration.registration_key(request.headers.get("Idempotency-Key"))
        if data.get("player"):
            player = Player.objects.filter(pk=data["player"]).first()
            if player is None:
                raise FloorError(_("Unknown player."), field="player")
            entry = registering.entry_register(
                tournament=t,
                player=player,
                actor=actor,
                idempotency_key=key,
                method=data["payment_method"],
            )
        else:
            entry = registering.player_register(
                tournament=t,
                name=data["name"],
                display_name=data.get("display_name", ""),
                email=data.get("email", ""),
                phone=data.get("phone", ""),
                actor=actor,
                idempotency_key=key,
                method=data["payment_method"],
            )
        replayed = bool(getattr(entry, "replayed", False))
        entry = Entry.objects.select_related("player", "seat__table").get(pk=entry.pk)
        response = Response(s.EntrySerializer(entry).data, status=status.HTTP_201_CREATED)
        if key:
            response["Idempotent-Replayed"] = "true" if replayed else "false"
        return response


def _entry(pk: int, entry_id: int) -> Entry:
    return get_object_or_404(Entry.objects.select_related("player"), pk=entry_id, tournament_id=pk)


class EntryPurchase(APIView):
    permission_classes = [IsFloor]

    @extend_schema(request=s.PurchaseSerializer, responses={201: s.EntrySerializer})
    def post(self, request: Request, pk: int, entry_id: int) -> Response:
        ser = s.PurchaseSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        entry = _entry(pk, entry_id)
        registration.entry_purchase(
            entry=entry,
            kind=ser.validated_data["kind"],
            actor=_actor(request),
            method=ser.validated_data["payment_method"],
        )
        return Response(s.EntrySerializer(entry).data, status=status.HTTP_201_CREATED)


class EntryUnregister(APIView):
    permission_classes = [IsFloor]

    @extend_schema(request=None, responses=s.EntrySerializer)
    def post(self, request: Request, pk: int, entry_id: int) -> Response:
        entry = registering.entry_unregister(entry=_entry(pk, entry_id), actor=_actor(request))
        return Response(s.EntrySerializer(entry).data)


class Busts(APIView):
    permission_classes = [IsFloor]

    @extend_schema(request=s.BustSerializer, responses=s.EntrySerializer(many=True))
    def post(self, request: Request, pk: int) -> Response:
        t = _tournament(pk)
        ser = s.BustSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        items: list[dict[str, Any]] = ser.validated_data["busts"]
        found = {e.pk: e for e in t.entries.filter(pk__in=[i["entry"] for i in items])}
        reports = []
        for item in items:
            entry = found.get(item["entry"])
            if entry is None:
                raise FloorError(
                    _("Entry %(id)s is not in this tournament.") % {"id": item["entry"]}
                )
            reports.append(
                BustReport(
                    entry=entry,
                    stack_at_hand_start=item.get("stack_at_hand_start"),
                    eliminated_by=tuple(item.get("eliminated_by") or ()),
                )
            )
        out = entries_bust(tournament=t, busts=reports, actor=_actor(request))
        return Response(s.EntrySerializer(out, many=True).data)


class BustUndo(APIView):
    permission_classes = [IsFloor]

    @extend_schema(request=s.BustUndoSerializer, responses=s.EntrySerializer(many=True))
    def post(self, request: Request, pk: int) -> Response:
        ser = s.BustUndoSerializer(data=request.data or {})
        ser.is_valid(raise_exception=True)
        out = bust_undo_last(
            tournament=_tournament(pk),
            actor=_actor(request),
            correct_payments=ser.validated_data.get("correct_payments", False),
        )
        return Response(s.EntrySerializer(out, many=True).data)


class RegistrationClose(APIView):
    """Close registration: the field, and with it every finishing place, becomes final."""

    permission_classes = [IsFloor]

    @extend_schema(request=None, responses=s.TournamentSerializer)
    def post(self, request: Request, pk: int) -> Response:
        t = registration.registration_close(tournament=_tournament(pk), actor=_actor(request))
        return Response(s.TournamentSerializer(t).data)


class Payouts(APIView):
    permission_classes = [IsDirectorForWrites]

    @extend_schema(responses=s.PayoutsSerializer)
    def get(self, request: Request, pk: int) -> Response:
        return Response({"amounts": payout_amounts(_tournament(pk))})

    @extend_schema(request=s.PayoutsSerializer, responses=s.PayoutsSerializer)
    def put(self, request: Request, pk: int) -> Response:
        ser = s.PayoutsSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        t = _tournament(pk)
        payouts.payouts_set(
            tournament=t, amounts=ser.validated_data["amounts"], actor=_actor(request)
        )
        return Response({"amounts": payout_amounts(t)})


class Events(APIView):
    permission_classes = [IsFloor]

    @extend_schema(responses=s.EventSerializer(many=True))
    def get(self, request: Request, pk: int) -> Response:
        events = _tournament(pk).events.order_by("-id")[:1000]
        return Response(s.EventSerializer(events, many=True).data)


class Players(APIView):
    permission_classes = [IsFloor]

    @extend_schema(responses=s.PlayerSerializer(many=True))
    def get(self, request: Request) -> Response:
        q = search_text(request.query_params.get("q"))
        players = Player.objects.all()
        if q:
            players = players.filter(name_query(q))
        data = s.PlayerSerializer(players[:200], many=True, context={"request": request}).data
        if is_director(request.user):  # a bulk read of contact data: recorded
            privacy.contact_read_record(
                actor=_actor(request), what="api.players", count=len(data), query=q
            )
        return Response(data)

    @extend_schema(request=s.PlayerSerializer, responses={201: s.PlayerSerializer})
    def post(self, request: Request) -> Response:
        ser = s.PlayerSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        data = dict(ser.validated_data)
        record = {
            f: data.pop(f) for f in ("membership_number", "country", "birth_year") if f in data
        }
        with transaction.atomic():
            player = registration.player_create(actor=_actor(request), **data)
            if record:
                people.player_update(player=player, changes=record, actor=_actor(request))
                player.refresh_from_db()
        return Response(
            s.PlayerSerializer(player, context={"request": request}).data,
            status=status.HTTP_201_CREATED,
        )


class PlayerDetail(APIView):
    """One person's record (docs/players.md). Floor accounts change the names and the
    membership number; the year of birth and contact data are for directors, as on the
    console."""

    permission_classes = [IsFloor]

    @extend_schema(responses=s.PlayerSerializer)
    def get(self, request: Request, player_id: int) -> Response:
        player = get_object_or_404(Player, pk=player_id)
        return Response(s.PlayerSerializer(player, context={"request": request}).data)

    @extend_schema(request=s.PlayerSerializer, responses=s.PlayerSerializer)
    def patch(self, request: Request, player_id: int) -> Response:
        player = get_object_or_404(Player, pk=player_id)
        ser = s.PlayerSerializer(player, data=request.data, partial=True)
        ser.is_valid(raise_exception=True)
        changes = dict(ser.validated_data)
        if not is_director(request.user) and set(changes) & set(people.DIRECTOR_FIELDS):
            raise PermissionDenied(_("The year of birth and contact data are for directors."))
        people.player_update(player=player, changes=changes, actor=_actor(request))
        player.refresh_from_db()
        return Response(s.PlayerSerializer(player, context={"request": request}).data)


class PlayerExport(APIView):
    """One person's data as JSON (record, entries, results, payments). Directors only."""

    permission_classes = [IsDirector]

    @extend_schema(responses={200: dict})
    def get(self, request: Request, player_id: int) -> Response:
        player = get_object_or_404(Player, pk=player_id)
        return Response(privacy.player_export(player=player, actor=_actor(request)))


class PlayerErase(APIView):
    """Anonymise a person; results stay. Directors only."""

    permission_classes = [IsDirector]

    @extend_schema(request=None, responses={200: s.PlayerSerializer})
    def post(self, request: Request, player_id: int) -> Response:
        player = get_object_or_404(Player, pk=player_id)
        player = privacy.player_erase(player=player, actor=_actor(request))
        return Response(s.PlayerSerializer(player, context={"request": request}).data)
