"""The in-process ticker of the embedded mode: a daemon thread that calls the same idempotent
announcer Celery beat calls in the full stack.

It does not poll: after each pass it sleeps until the soonest due instant of any running clock
(`Clock.next_due_at`, one indexed read) and is woken early when a command changes a schedule
(`wake`, called after the command's transaction commits). A level end is announced within a
few milliseconds of its instant, and an idle pass costs two queries whatever the number of
running clocks. Every `SAFETY_SECONDS` it works out every running clock's due instant again, in
case one was changed outside the services (an import, the admin).
"""

from __future__ import annotations

import logging
import threading
import time
from datetime import datetime

from django.conf import settings
from django.db import close_old_connections
from django.utils import timezone

log = logging.getLogger(__name__)
_started = threading.Event()
_wake = threading.Event()

# Longest sleep without a due clock, and how often the safety net runs.
IDLE_SECONDS = 5.0
SAFETY_SECONDS = 60.0


def wake(clock_pk: int | None = None, when: datetime | None = None) -> None:
    """A clock's schedule changed (called after the command's transaction commits): the
    embedded ticker looks again now; in the full stack the clock's next due instant gets a
    Celery task with that ETA (clocks/tasks.py)."""
    _wake.set()
    if clock_pk is not None and when is not None and settings.FLOOR_TICKER == "celery":
        from clocks.tasks import arm

        arm(clock_pk, when)


def tick_once() -> int:
    from clocks.services import clocks_announce_due

    close_old_connections()
    try:
        return clocks_announce_due()
    finally:
        close_old_connections()


def _next_due() -> datetime | None:
    from clocks.services import next_due

    close_old_connections()
    try:
        return next_due()
    finally:
        close_old_connections()


def _safety_net() -> None:
    from clocks.services import clocks_reschedule_all

    close_old_connections()
    try:
        clocks_reschedule_all()
    finally:
        close_old_connections()


def sleep_for(due: datetime | None, now: datetime, idle: float = IDLE_SECONDS) -> float:
    """How long to sleep: until the due instant (never negative), at most `idle`."""
    if due is None:
        return idle
    return max(0.0, min(idle, (due - now).total_seconds()))


def run_forever(interval: float = IDLE_SECONDS, stop: threading.Event | None = None) -> None:
    stop = stop or threading.Event()
    last_safety = 0.0
    while not stop.is_set():
        _wake.clear()
        try:
            if time.monotonic() - last_safety >= SAFETY_SECONDS:
                _safety_net()
                last_safety = time.monotonic()
            tick_once()
            pause = sleep_for(_next_due(), timezone.now(), interval)
        except Exception:  # keep ticking: a failed tick is retried on the next one
            log.exception("clock tick failed")
            pause = 1.0
        if pause > 0:
            _wake.wait(pause)
        if stop.is_set():
            break


def start_background_ticker(interval: float = IDLE_SECONDS) -> threading.Thread | None:
    """Start the ticker thread once per process."""
    if _started.is_set():
        return None
    _started.set()
    thread = threading.Thread(
        target=run_forever, args=(interval,), name="floor-ticker", daemon=True
    )
    thread.start()
    log.info("in-process clock ticker started (sleeps until the next due level end)")
    time.sleep(0)
    return thread
