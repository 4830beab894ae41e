"""Waking whatever announces level ends, after a command changed a clock's schedule.

The clock's commands and the announcer (clocks/services.py) call `wake` after their transaction
commits. In the embedded mode the in-process ticker (clocks/ticker.py) sleeps on `woken` until
the next due instant and looks again at once. In the full stack the clock's next due instant
gets the Celery task `clock_due` with that instant as its ETA (`arm`): the task is sent by its
name, since the task module (clocks/tasks.py) calls the services that call this one (and a web
process never imports it).

Only near-term instants are armed (`ARM_HORIZON`, and never more than half the Redis broker's
visibility timeout): an ETA task waits unacknowledged in the worker, and the broker hands it to
another worker once the visibility timeout passes, so a level of two hours armed at its start
would be delivered twice (clocks/tasks.py).
"""

from __future__ import annotations

import logging
import threading
from datetime import datetime

from celery import current_app
from django.conf import settings
from django.core.cache import cache
from django.utils import timezone

log = logging.getLogger(__name__)
woken = threading.Event()

# The task that announces a clock's due level end (clocks/tasks.py).
CLOCK_DUE = "clocks.tasks.clock_due"
# Seconds ahead a level end is armed at most; the minute's reschedule arms the later ones.
ARM_HORIZON = 300.0


def wake(clock_pk: int | None = None, when: datetime | None = None) -> None:
    """A clock's schedule changed (called after the command's transaction commits): the
    embedded ticker looks again now; in the full stack the clock's next due instant gets a
    Celery task with that ETA (clocks/tasks.py)."""
    woken.set()
    if clock_pk is not None and when is not None and settings.FLOOR_TICKER == "celery":
        arm(clock_pk, when)


def _eager() -> bool:
    return bool(current_app.conf.task_always_eager)


def horizon() -> float:
    options = current_app.conf.broker_transport_options or {}
    return min(ARM_HORIZON, float(options.get("visibility_timeout", 3600)) / 2)


def _armed_key(clock_pk: int, when: datetime) -> str:
    return f"clocks.armed.{clock_pk}.{int(when.timestamp() * 1000)}"


def _send(clock_pk: int, when: datetime) -> None:
    current_app.send_task(CLOCK_DUE, args=(clock_pk,), eta=when)


def arm(clock_pk: int, when: datetime, now: datetime | None = None) -> bool:
    """Queue `clock_due` for the clock's due instant `when`, once per clock and instant however
    many commands or passes ask (a cache key taken with `add`). Returns whether it queued."""
    if _eager():
        return False  # nothing can wait for its instant (tests, a stack without a broker)
    now = now or timezone.now()
    ahead = (when - now).total_seconds()
    if ahead > horizon():
        return False  # the minute's reschedule arms it nearer the time
    key = _armed_key(clock_pk, when)
    if not cache.add(key, 1, timeout=int(max(ahead, 0)) + 30):
        return False  # already armed for this instant
    try:
        _send(clock_pk, when)
    except Exception:  # the broker is down: beat's tick announces it when it is back
        cache.delete(key)
        log.exception("could not arm clock %s for %s", clock_pk, when.isoformat())
        return False
    return True
