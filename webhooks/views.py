"""The directors' webhook pages (docs/webhooks.md): the endpoints, a new one (its secret shown
on the answer to its creation and never again), pause, resume, delete, a test message, and
each endpoint's deliveries with their answers."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from core.errors import FloorError
from core.inputs import whole_number_or_none
from core.roles import director_required
from tournament.models import Tournament
from webhooks import services
from webhooks.domain.rules import SUBSCRIBABLE, Kind, secret_hint
from webhooks.models import Delivery, Endpoint

DELIVERIES_SHOWN = 50


def kind_label(kind: str) -> str:
    labels: dict[str, str] = {
        Kind.LEVEL_STARTED: _("A level started"),
        Kind.PLAYER_OUT: _("A player is out (place and prize)"),
        Kind.PLAYER_OUT_UNDONE: _("A bust was undone"),
        Kind.TOURNAMENT_FINISHED: _("The tournament finished (results)"),
        Kind.CHIPS_PUBLISHED: _("Chip counts published"),
        Kind.TEST: _("Test message"),
    }
    return labels.get(kind, kind)


def state_label(delivery: Delivery) -> str:
    return {
        Delivery.PENDING: _("waiting") if delivery.attempts == 0 else _("will try again"),
        Delivery.DELIVERED: _("delivered"),
        Delivery.FAILED: _("failed"),
    }.get(delivery.state, delivery.state)


def _tournaments() -> list[Tournament]:
    return list(Tournament.objects.order_by("-starts_at")[:100])


def _tournament_from(value: str) -> Tournament | None:
    value = (value or "").strip()
    if not value:
        return None
    pk = whole_number_or_none(value, low=1)
    if pk is None:
        raise FloorError(_("Choose a tournament from the list."), field="tournament")
    tournament = Tournament.objects.filter(pk=pk).first()
    if tournament is None:
        raise FloorError(_("Choose a tournament from the list."), field="tournament")
    return tournament


def _list_context(typed: dict[str, Any], error: FloorError | None = None) -> dict[str, Any]:
    endpoints = list(Endpoint.objects.select_related("tournament").order_by("pk"))
    return {
        "endpoints": [
            {"e": e, "kinds": [kind_label(k) for k in e.kinds], "hint": secret_hint(e.secret)}
            for e in endpoints
        ],
        "kinds": [(str(k), kind_label(k)) for k in SUBSCRIBABLE],
        "tournaments": _tournaments(),
        "typed": typed,
        "error": error,
    }


@never_cache
@director_required
def endpoints(request: HttpRequest) -> HttpResponse:
    """The list, and a new endpoint: the answer to its creation shows its secret, once."""
    if request.method == "POST":
        post = request.POST
        typed: dict[str, Any] = {
            "url": post.get("url", "")[:600],
            "kinds": post.getlist("kinds")[:10],
            "tournament": post.get("tournament", "")[:20],
            "description": post.get("description", "")[:200],
        }
        try:
            endpoint, secret = services.endpoint_create(
                url=typed["url"],
                kinds=typed["kinds"],
                tournament=_tournament_from(typed["tournament"]),
                description=typed["description"],
                user=request.user,
            )
        except FloorError as exc:
            return render(request, "webhooks/endpoints.html", _list_context(typed, exc), status=400)
        response = render(
            request,
            "webhooks/created.html",
            {
                "endpoint": endpoint,
                "secret": secret,
                "kinds": [kind_label(k) for k in endpoint.kinds],
            },
            status=201,
        )
        response["Cache-Control"] = "no-store"
        return response
    if request.method not in ("GET", "HEAD"):
        return HttpResponse(status=405)
    return render(
        request,
        "webhooks/endpoints.html",
        _list_context({"url": "", "kinds": [str(k) for k in SUBSCRIBABLE], "tournament": ""}),
    )


def _endpoint(pk: int) -> Endpoint:
    endpoint = Endpoint.objects.select_related("tournament").filter(pk=pk).first()
    if endpoint is None:
        raise Http404(_("No such webhook endpoint."))
    return endpoint


def _endpoint_page(
    request: HttpRequest, e: Endpoint, *, status: int = 200, error: str = ""
) -> HttpResponse:
    deliveries = list(e.deliveries.order_by("-pk")[:DELIVERIES_SHOWN])
    return render(
        request,
        "webhooks/endpoint.html",
        {
            "e": e,
            "hint": secret_hint(e.secret),
            "kinds": [kind_label(k) for k in e.kinds],
            "deliveries": [
                {"d": d, "kind": kind_label(d.kind), "state": state_label(d)} for d in deliveries
            ],
            "total": e.deliveries.count(),
            "error": error,
        },
        status=status,
    )


@never_cache
@director_required
def endpoint(request: HttpRequest, pk: int) -> HttpResponse:
    """One endpoint and its latest deliveries, with each answer's status and start."""
    if request.method not in ("GET", "HEAD"):
        return HttpResponse(status=405)
    return _endpoint_page(request, _endpoint(pk))


@director_required
@require_POST
def endpoint_active(request: HttpRequest, pk: int) -> HttpResponse:
    e = _endpoint(pk)
    active = request.POST.get("active", "")
    if active not in ("0", "1"):
        return _endpoint_page(request, e, status=400, error=_("Choose pause or resume."))
    services.endpoint_set_active(pk=e.pk, active=active == "1")
    messages.success(
        request,
        _("The endpoint gets events again.") if active == "1" else _("The endpoint is paused."),
    )
    return redirect("webhook", pk=pk)


@director_required
@require_POST
def endpoint_ping(request: HttpRequest, pk: int) -> HttpResponse:
    services.ping(pk=_endpoint(pk).pk)
    messages.success(request, _("A test message is on its way: reload to see its answer below."))
    return redirect("webhook", pk=pk)


@director_required
@require_POST
def endpoint_delete(request: HttpRequest, pk: int) -> HttpResponse:
    e = _endpoint(pk)
    if request.POST.get("confirm") != "yes":
        return _endpoint_page(
            request, e, status=400, error=_("Tick the box to confirm the deletion.")
        )
    services.endpoint_delete(pk=e.pk)
    messages.success(request, _("Endpoint %(url)s deleted.") % {"url": e.url})
    return redirect("webhooks")
