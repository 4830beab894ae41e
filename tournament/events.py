"""The event log: one home for writing it. Call inside the transaction that makes the change."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from django.core.serializers.json import DjangoJSONEncoder
from django.http import HttpRequest

from core.ratelimit import client_address
from eventlog.catalogue import check_action
from tournament.models import Event, Tournament


@dataclass(frozen=True)
class Actor:
    """Who acts: a logged-in user, a dealer tablet, the ticker or the system."""

    user: Any = None
    label: str = ""
    source: str = ""

    @classmethod
    def from_request(cls, request: HttpRequest, label: str = "") -> Actor:
        user = request.user if request.user.is_authenticated else None

        source = client_address(request)
        return cls(user=user, label=label or (user.get_username() if user else ""), source=source)

    @classmethod
    def system(cls, label: str = "system") -> Actor:
        return cls(user=None, label=label, source="")


def event_record(
    *, tournament: Tournament | None, action: str, actor: Actor, payload: dict[str, Any]
) -> Event:
    check_action(action)
    clean = json.loads(json.dumps(payload, cls=DjangoJSONEncoder))
    return Event.objects.create(
        tournament=tournament,
        action=action,
        actor=actor.user,
        actor_label=actor.label[:120],
        source=actor.source[:64],
        payload=clean,
    )
