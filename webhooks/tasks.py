"""Celery tasks of the webhooks (full stack): send the outbox's due rows.

`deliveries_send` is queued by name after rows commit (webhooks/wakeup.py) and by beat every
`SWEEP_SECONDS` (config/settings/base.py CELERY_BEAT_SCHEDULE `webhooks-send`): the retries fall
due on their schedule and beat sends them within that many seconds; a task lost with a worker
costs the same. Two workers never send one row at once (services._claim). `deliveries_prune`
(beat, hourly) removes delivered and failed rows after 30 days.
"""

from __future__ import annotations

from celery import shared_task

from webhooks import services

SWEEP_SECONDS = 15.0


@shared_task(name="webhooks.tasks.deliveries_send", ignore_result=True)
def deliveries_send(ids: list[int] | None = None) -> int:
    return services.deliveries_send(ids)


@shared_task(name="webhooks.tasks.deliveries_prune", ignore_result=True)
def deliveries_prune() -> int:
    return services.deliveries_prune()
