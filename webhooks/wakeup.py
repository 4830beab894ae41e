"""Waking whatever sends the outbox, after rows were added to it (called after the commit).

In the embedded mode (FLOOR_TICKER=inprocess) the in-process sender (webhooks/worker.py) sleeps
on `woken` until the next due row and looks at once. In the full stack the Celery task
`deliveries_send` is sent by its name (webhooks/tasks.py imports the services, which call this);
beat's `webhooks-send` is the safety net for a lost task and sends the retries as they fall due.
Neither ever raises into the caller: a broker that is down leaves the rows to beat.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterable

from celery import current_app
from django.conf import settings

log = logging.getLogger(__name__)
woken = threading.Event()

SEND = "webhooks.tasks.deliveries_send"


def dispatch(ids: Iterable[int] | None = None) -> None:
    """Rows are waiting (these, or any that are due): send them soon, off this request."""
    woken.set()
    if settings.FLOOR_TICKER != "celery":
        return
    try:
        current_app.send_task(SEND, args=(list(ids) if ids is not None else None,))
    except Exception:  # the broker is down: beat's sweep sends them when it is back
        log.exception("could not queue the webhook deliveries")
