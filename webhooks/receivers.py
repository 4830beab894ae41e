"""The event log's rows become outbox rows, whoever wrote them (docs/architecture.md, signals).

A row whose action may make a webhook (payloads.ACTIONS: a level started, a bust, the status
set to finished, chip counts) asks, once the transaction that wrote it committed, for its
outbox rows (services.deliveries_enqueue) and wakes the sender. Nothing happens inside the
transaction of the action: no query, no lock, so a bust is neither slowed nor failed by a
webhook, and an error here is logged and swallowed. Rows rolled back make no webhook.
"""

from __future__ import annotations

import logging
from typing import Any

from django.db import transaction
from django.db.models.signals import post_save
from django.dispatch import receiver

from tournament.models import Event
from webhooks import payloads, services
from webhooks.wakeup import dispatch

log = logging.getLogger(__name__)


def enqueue_committed(
    event_id: int, action: str, payload: dict[str, Any], tournament_id: int
) -> None:
    try:
        made = services.deliveries_enqueue(
            event_id, action=action, payload=payload, tournament_id=tournament_id
        )
    except Exception:
        log.exception("webhooks for event %s not queued", event_id)
        return
    if made:
        dispatch(made)


@receiver(post_save, sender=Event, dispatch_uid="webhooks.outbox")
def outbox_after_commit(*, instance: Event, created: bool, **_: Any) -> None:
    if created and instance.action in payloads.ACTIONS and instance.tournament_id is not None:
        row = (instance.pk, instance.action, instance.payload, instance.tournament_id)
        transaction.on_commit(lambda: enqueue_committed(*row), robust=True)
