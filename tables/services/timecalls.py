"""Time calls on a player (tda-de 29, bdpv NL 12)."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone

from tables.live import notify_tables
from tables.models import Table, TimeCall
from tables.selectors import time_call_of
from tournament.events import Actor, event_record
from tournament.locks import lock_tournament


@transaction.atomic
def time_call_start(
    *, table: Table, seat: int | None, actor: Actor, now: datetime | None = None
) -> TimeCall:
    """A clock on a player: tda-de 29 (60 seconds, then a 10-second countdown), bdpv NL 12
    (one minute with a ten-second warning)."""
    lock_tournament(table.tournament_id, only=("id",))
    table = (
        Table.objects.select_for_update(of=("self",)).select_related("tournament").get(pk=table.pk)
    )
    now = now or timezone.now()
    seconds, countdown = time_call_of(table.tournament)
    TimeCall.objects.filter(table=table, cancelled_at__isnull=True).update(cancelled_at=now)
    call = TimeCall.objects.create(
        table=table, seat=seat, started_at=now, seconds=seconds, countdown=countdown
    )
    event_record(
        tournament=table.tournament,
        action="table.time_call",
        actor=actor,
        payload={"table": table.number, "seat": seat, "seconds": seconds, "countdown": countdown},
    )
    notify_tables(table.tournament_id, [table.pk], console=False)
    return call


@transaction.atomic
def time_call_cancel(*, table: Table, actor: Actor) -> None:
    lock_tournament(table.tournament_id, only=("id",))
    n = TimeCall.objects.filter(table=table, cancelled_at__isnull=True).update(
        cancelled_at=timezone.now()
    )
    if n:
        event_record(
            tournament=table.tournament,
            action="table.time_call_cancel",
            actor=actor,
            payload={"table": table.number},
        )
        notify_tables(table.tournament_id, [table.pk], console=False)
