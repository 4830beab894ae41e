"""Celery tasks of the clock (full stack).

Every clock command, announcement pass and structure edit that gives a clock a next due instant
arms `clock_due` with that instant as its ETA (`clocks.wakeup.arm`, called after the change
commits), so a level end is announced at its instant, not at the next beat. The task calls the
same idempotent announcer as everything else (the conditional update keeps each level exactly
once), then arms the clock's following level end. A stale task (the clock was paused or adjusted
after it was armed) finds nothing due and does nothing.

Only near-term instants are armed (`clocks.wakeup.ARM_HORIZON`, and never more than half the
Redis broker's visibility timeout): an ETA task waits unacknowledged in the worker, and the
broker hands it to another worker once the visibility timeout passes, so a level of two hours
armed at its start would be delivered twice (harmless, but a hint of worse).
`clocks_reschedule` (beat, every minute) arms the level ends that come within the horizon.
`clocks_tick` (beat, every `TICK_SECONDS`) stays the safety net: it announces whatever is due
(one query when nothing is) in case an armed task was lost with a worker.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from celery import shared_task
from django.utils import timezone

from clocks.models import Clock
from clocks.services import clocks_announce_due, clocks_reschedule_all
from clocks.wakeup import arm, horizon
from tournament.models import Status

log = logging.getLogger(__name__)

# Beat's safety-net tick and the reschedule (config/celery.py schedules both).
TICK_SECONDS = 5.0
RESCHEDULE_SECONDS = 60.0
# A task that ran before its instant (clocks of two processes differ by a few ms) tries again.
EARLY_RETRIES = 3


def arm_within(seconds: float, now: datetime | None = None) -> int:
    """Arm every running clock whose due instant comes within `seconds` (one query)."""
    now = now or timezone.now()
    rows = Clock.objects.filter(
        tournament__status__in=[Status.RUNNING, Status.FINAL_TABLE],
        next_due_at__isnull=False,
        next_due_at__lte=now + timedelta(seconds=seconds),
    ).values_list("pk", "next_due_at")
    return sum(arm(pk, when, now) for pk, when in rows if when is not None)


@shared_task(name="clocks.tasks.clock_due", ignore_result=True)
def clock_due(clock_pk: int, retry: int = 0) -> int:
    """A clock's armed instant has come: announce what is due, then arm its next level end."""
    made = clocks_announce_due()
    when = (
        Clock.objects.filter(
            pk=clock_pk, tournament__status__in=[Status.RUNNING, Status.FINAL_TABLE]
        )
        .values_list("next_due_at", flat=True)
        .first()
    )
    if when is None:
        return made  # paused, stopped, on its last level or gone: a stale task does nothing
    now = timezone.now()
    if when <= now + timedelta(milliseconds=50):
        # Still due: the task ran a little before the instant. Once more, at the instant.
        if retry < EARLY_RETRIES:
            eta = max(when, now) + timedelta(milliseconds=10)
            clock_due.apply_async(args=(clock_pk, retry + 1), eta=eta)
        return made
    arm(clock_pk, when, now)
    return made


@shared_task(name="clocks.tasks.clocks_tick", ignore_result=True, expires=TICK_SECONDS)
def clocks_tick() -> int:
    """The safety net: announce whatever is due and arm what comes before the next tick."""
    made = clocks_announce_due()
    arm_within(2 * TICK_SECONDS)
    return made


@shared_task(name="clocks.tasks.clocks_reschedule", ignore_result=True, expires=50)
def clocks_reschedule() -> int:
    """Every minute: every running clock's due instant worked out again (a clock changed outside
    the services), and the level ends within the horizon armed."""
    count = clocks_reschedule_all()
    arm_within(horizon())
    return count
