"""Group names and broadcasting: the one home of both.

Every group name is built here and nowhere else. Messages are sent after the transaction that
made the change commits, so no screen ever sees a change that was rolled back.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import os
import threading
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.core.serializers.json import DjangoJSONEncoder
from django.db import transaction

log = logging.getLogger(__name__)


def tournament_group(tournament_id: int) -> str:
    return f"tournament.{tournament_id}"


def table_group(table_id: int) -> str:
    return f"table.{table_id}"


def entry_group(entry_id: int) -> str:
    return f"entry.{entry_id}"


def console_group(tournament_id: int) -> str:
    return f"console.{tournament_id}"


def user_group(user_id: int) -> str:
    """Every console socket of one staff account; told to close when the account is disabled or
    loses its role."""
    return f"user.{user_id}"


def dealer_group(token: str) -> str:
    """Every tablet holding this dealer token; told to close when the token is revoked."""
    digest = hashlib.sha256(token.encode()).hexdigest()[:24]
    return f"dealer.{digest}"


_loop: asyncio.AbstractEventLoop | None = None
_loop_lock = threading.Lock()


def _broadcast_loop() -> asyncio.AbstractEventLoop:
    """One long-lived event loop per process for broadcasts made outside a web request (the
    ticker, Celery, commands): it keeps its Redis connections instead of opening new ones for
    every message."""
    global _loop
    with _loop_lock:
        if _loop is None:
            _loop = asyncio.new_event_loop()
            threading.Thread(target=_loop.run_forever, name="floor-broadcast", daemon=True).start()
        return _loop


def _in_web_request_thread() -> bool:
    """True inside a sync view run by the ASGI server: async_to_sync then uses the server's own
    loop and connections, which is the fastest path."""
    from asgiref.sync import SyncToAsync

    return getattr(SyncToAsync.threadlocal, "main_event_loop_pid", None) == os.getpid()


def _send(group: str, message: dict[str, Any]) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            networked = "redis" in type(layer).__module__
            if networked and not _in_web_request_thread():
                future = asyncio.run_coroutine_threadsafe(
                    layer.group_send(group, message), _broadcast_loop()
                )
                future.result(timeout=5)
            else:
                async_to_sync(layer.group_send)(group, message)
        else:
            # Called from a thread that runs an event loop: send from a helper thread.
            worker = threading.Thread(
                target=async_to_sync(layer.group_send), args=(group, message), daemon=True
            )
            worker.start()
            worker.join(timeout=5)
    except Exception:  # a dead channel layer must not break the floor's action
        log.exception("broadcast to %s failed", group)


def broadcast_on_commit(group: str, event: str, data: dict[str, Any]) -> None:
    """Queue a `floor.event` message for `group`, sent when the current transaction commits.

    `data` must be JSON-serializable; it is checked now, so a bad payload fails the action
    instead of a consumer.
    """
    payload = json.loads(json.dumps(data, cls=DjangoJSONEncoder))
    # Encoded once here, not once per connected screen.
    text = json.dumps({"type": "event", "event": event, "data": payload})
    message = {"type": "floor.event", "event": event, "data": payload, "text": text}
    transaction.on_commit(lambda: _send(group, message))
