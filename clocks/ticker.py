"""The in-process ticker of the embedded mode: a daemon thread that calls the same idempotent
announcer Celery beat calls in the full stack.

It does not poll: after each pass it sleeps until the soonest due instant of any running clock
(`Clock.next_due_at`, one indexed read) and is woken early when a command changes a schedule
(`wake`, called after the command's transaction commits). A level end is announced within a
few milliseconds of its instant, and an idle pass costs two queries whatever the number of
running clocks. Every `SAFETY_SECONDS` it works out every running clock's due instant again, in
case one was changed outside the services (an import, the admin): a slice of
`SAFETY_SLICE` clocks at a time, with a pass over what is due between two slices, so the net
over hundreds of clocks (a quarter of a second for 100 on a slow machine) does not hold back
the level ends that fall while it runs.
"""

from __future__ import annotations

import logging
import sys
import threading
import time
from datetime import datetime

from django.db import close_old_connections
from django.utils import timezone

from clocks.services import clocks_announce_due, clocks_reschedule_some, next_due
from clocks.wakeup import woken

log = logging.getLogger(__name__)
_started = threading.Event()

# Longest sleep without a due clock, and how often the safety net runs.
IDLE_SECONDS = 5.0
SAFETY_SECONDS = 60.0
SAFETY_SLICE = 10
SWITCH_INTERVAL = 0.001


def tick_once() -> int:
    close_old_connections()
    try:
        return clocks_announce_due()
    finally:
        close_old_connections()


def _next_due() -> datetime | None:
    close_old_connections()
    try:
        return next_due()
    finally:
        close_old_connections()


def _safety_net(after: int) -> int | None:
    """One slice of the safety net from the clock id `after`; the id to go on from, or None
    when the net is through."""
    close_old_connections()
    try:
        _count, last = clocks_reschedule_some(after=after, limit=SAFETY_SLICE)
        return last
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
    net_from: int | None = None  # where the safety net goes on, while it runs
    while not stop.is_set():
        woken.clear()
        try:
            if net_from is None and time.monotonic() - last_safety >= SAFETY_SECONDS:
                net_from, last_safety = 0, time.monotonic()
            if net_from is not None:
                net_from = _safety_net(net_from)
            tick_once()
            pause = sleep_for(_next_due(), timezone.now(), interval)
            if net_from is not None:
                pause = 0.0  # the next slice of the net, after what was due
        except Exception:  # keep ticking: a failed tick is retried on the next one
            log.exception("clock tick failed")
            net_from, pause = None, 1.0
        if pause > 0:
            woken.wait(pause)
        if stop.is_set():
            break


def share_the_interpreter() -> None:
    """Let the ticker thread in quickly beside busy request threads: Python hands the GIL over
    every 1 ms instead of 5. A pass makes a dozen queries, each of which gives the GIL up and
    waits to get it back; behind request threads busy with screens' polls that added up to a
    level end announced 160 ms late at p99 (100 clocks whose screens poll in one burst a
    second, bench.clock_many --lockstep; 39-45 ms with 1 ms), at the same CPU."""
    sys.setswitchinterval(SWITCH_INTERVAL)


def start_background_ticker(interval: float = IDLE_SECONDS) -> threading.Thread | None:
    """Start the ticker thread once per process."""
    if _started.is_set():
        return None
    _started.set()
    share_the_interpreter()
    thread = threading.Thread(
        target=run_forever, args=(interval,), name="floor-ticker", daemon=True
    )
    thread.start()
    log.info("in-process clock ticker started (sleeps until the next due level end)")
    time.sleep(0)
    return thread
