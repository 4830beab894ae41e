"""Celery tasks of the clock (full stack).

Every clock command, announcement pass and structure edit that gives a clock a next due instant
arms `clock_due` with that instant as its ETA (`arm`, called after the change commits), so a
level end is announced at its instant, not at the next beat. The task calls the same idempotent
announcer as everything else (the conditional update keeps each level exactly once), then arms
the clock's following level end. A stale task (the clock was paused or adjusted after it was
armed) finds nothing due and does nothing.

Only near-term instants are armed (`ARM_HORIZON`, and never more than half the Redis broker's
visibility timeout): an ETA task waits unacknowledged in the worker, and the broker hands it to
another worker once the visibility timeout passes, so a level of two hours armed at its start
would be delivered twice (harmless, but a hint of worse). `clocks_reschedule` (beat, every
minute) arms the level ends that come within the horizon. `clocks_tick` (beat, every
`TICK_SECONDS`) stays the safety net: it announces whatever is due (one query when nothing is)
in case an armed task was lost with a worker.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from celery import shared_task
from django.core.cache import cache
from django.utils import timezone

log = logging.getLogger(__name__)

# Seconds ahead a level end is armed at most; the minute's reschedule arms the later ones.
ARM_HORIZON = 300.0
# Beat's safety-net tick and the reschedule (config/celery.py schedules both).
TICK_SECONDS = 5.0
RESCHEDULE_SECONDS = 60.0
# A task that ran before its instant (clocks of two processes differ by a few ms) tries again.
EARLY_RETRIES = 3


def _eager() -> bool:
    return bool(clock_due.app.conf.task_always_eager)


def _horizon() -> float:
    options = clock_due.app.conf.broker_transport_options or {}
    return min(ARM_HORIZON, float(options.get("visibility_timeout", 3600)) / 2)


def _armed_key(clock_pk: int, when: datetime) -> str:
    return f"clocks.armed.{clock_pk}.{int(when.timestamp() * 1000)}"


def arm(clock_pk: int, when: datetime, now: datetime | None = None) -> bool:
    """Queue `clock_due` for the clock's due instant `when`, once per clock and instant however
    many commands or passes ask (a cache key taken with `add`). Returns whether it queued."""
    if _eager():
        return False  # nothing can wait for its instant (tests, a stack without a broker)
    now = now or timezone.now()
    ahead = (when - now).total_seconds()
    if ahead > _horizon():
        return False  # the minute's reschedule arms it nearer the time
    key = _armed_key(clock_pk, when)
    if not cache.add(key, 1, timeout=int(max(ahead, 0)) + 30):
        return False  # already armed for this instant
    try:
        clock_due.apply_async(args=(clock_pk,), eta=when)
    except Exception:  # the broker is down: beat's tick announces it when it is back
        cache.delete(key)
        log.exception("could not arm clock %s for %s", clock_pk, when.isoformat())
        return False
    return True


def arm_within(seconds: float, now: datetime | None = None) -> int:
    """Arm every running clock whose due instant comes within `seconds` (one query)."""
    from clocks.models import Clock
    from tournament.models import Status

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
    from clocks.models import Clock
    from clocks.services import clocks_announce_due
    from tournament.models import Status

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
    from clocks.services import clocks_announce_due

    made = clocks_announce_due()
    arm_within(2 * TICK_SECONDS)
    return made


@shared_task(name="clocks.tasks.clocks_reschedule", ignore_result=True, expires=50)
def clocks_reschedule() -> int:
    """Every minute: every running clock's due instant worked out again (a clock changed outside
    the services), and the level ends within the horizon armed."""
    from clocks.services import clocks_reschedule_all

    count = clocks_reschedule_all()
    arm_within(_horizon())
    return count
