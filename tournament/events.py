"""The event log: one home for writing it. Call inside the transaction that makes the change."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from django.core.serializers.json import DjangoJSONEncoder
from django.db import connection, transaction
from django.http import HttpRequest

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
        from tournament.ratelimit import client_address

        source = client_address(request)
        return cls(user=user, label=label or (user.get_username() if user else ""), source=source)

    @classmethod
    def system(cls, label: str = "system") -> Actor:
        return cls(user=None, label=label, source="")


class _Bump:
    """The after-commit data-version bump of one tournament (recognizable in the queue)."""

    def __init__(self, tournament_id: int | None) -> None:
        self.tournament_id = tournament_id

    def __call__(self) -> None:
        from tournament.public_selectors import data_changed

        data_changed(self.tournament_id)


def _bump_pending(tournament_id: int | None) -> bool:
    """True when this transaction has queued the tournament's after-commit bump already (one
    is enough; a savepoint that rolls back takes its queued bump with it, so the next event
    queues it again)."""
    if not connection.in_atomic_block:
        return False
    return any(
        isinstance(queued[1], _Bump) and queued[1].tournament_id == tournament_id
        for queued in connection.run_on_commit
    )


def event_record(
    *, tournament: Tournament | None, action: str, actor: Actor, payload: dict[str, Any]
) -> Event:
    clean = json.loads(json.dumps(payload, cls=DjangoJSONEncoder))
    # Every change is logged here, so this is where readers' caches learn that data changed:
    # now (for readers in this transaction) and again after the commit (for everyone else).
    from tournament.public_selectors import data_changed

    tid = tournament.pk if tournament is not None else None
    data_changed(tid)
    if not _bump_pending(tid):
        transaction.on_commit(_Bump(tid))
    return Event.objects.create(
        tournament=tournament,
        action=action,
        actor=actor.user,
        actor_label=actor.label[:120],
        source=actor.source[:64],
        payload=clean,
    )
