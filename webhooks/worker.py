"""The in-process sender of the embedded mode: a daemon thread that sends the outbox's due rows,
the same function Celery runs in the full stack (services.deliveries_send).

It sleeps until the soonest due row (one indexed read) and is woken when rows are added
(`wakeup.dispatch`, after their commit). An endpoint that is slow holds this thread for at most
its timeouts (connect and read, 5 s each), never a request: the floor's actions only add rows.
"""

from __future__ import annotations

import logging
import threading
import time

from django.db import close_old_connections
from django.utils import timezone

from webhooks import services
from webhooks.wakeup import woken

log = logging.getLogger(__name__)
_started = threading.Event()
IDLE_SECONDS = 30.0
PRUNE_SECONDS = 3600.0
_pruned = {"at": 0.0}


def send_once() -> float:
    """One pass: what is due sent; returns the seconds to sleep until the next due row."""
    close_old_connections()
    try:
        services.deliveries_send()
        if time.monotonic() - _pruned["at"] >= PRUNE_SECONDS:
            _pruned["at"] = time.monotonic()
            services.deliveries_prune()
        due = services.next_due_at()
    finally:
        close_old_connections()
    if due is None:
        return IDLE_SECONDS
    return max(0.0, min(IDLE_SECONDS, (due - timezone.now()).total_seconds()))


def run_forever(stop: threading.Event | None = None) -> None:
    stop = stop or threading.Event()
    while not stop.is_set():
        woken.clear()
        try:
            pause = send_once()
        except Exception:  # the database was away: try again shortly
            log.exception("webhook sender pass failed")
            pause = 5.0
        if pause > 0:
            woken.wait(pause)


def start_sender() -> threading.Thread | None:
    """Start the sender thread once per process (the embedded server, floor_serve)."""
    if _started.is_set():
        return None
    _started.set()
    thread = threading.Thread(target=run_forever, name="floor-webhooks", daemon=True)
    thread.start()
    log.info("in-process webhook sender started")
    return thread
