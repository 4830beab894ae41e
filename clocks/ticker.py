"""The in-process ticker of the embedded mode: a daemon thread that calls the same idempotent
announcer Celery beat calls in the full stack."""

from __future__ import annotations

import logging
import threading
import time

from django.db import close_old_connections

log = logging.getLogger(__name__)
_started = threading.Event()


def tick_once() -> int:
    from clocks.services import clocks_announce_due

    close_old_connections()
    try:
        return clocks_announce_due()
    finally:
        close_old_connections()


def run_forever(interval: float = 0.25, stop: threading.Event | None = None) -> None:
    stop = stop or threading.Event()
    while not stop.is_set():
        try:
            tick_once()
        except Exception:  # keep ticking: a failed tick is retried on the next one
            log.exception("clock tick failed")
        stop.wait(interval)


def start_background_ticker(interval: float = 0.25) -> threading.Thread | None:
    """Start the ticker thread once per process."""
    if _started.is_set():
        return None
    _started.set()
    thread = threading.Thread(
        target=run_forever, args=(interval,), name="floor-ticker", daemon=True
    )
    thread.start()
    log.info("in-process clock ticker started (every %.2f s)", interval)
    time.sleep(0)
    return thread
