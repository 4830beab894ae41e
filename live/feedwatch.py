"""Watch the channel layer's Redis from each server process.

With Redis down, websockets stay open but nothing reaches them: a screen would look live and
show a clock that no longer follows the floor's commands. So each process pings Redis every
second; when it stops answering, every open websocket of the process is closed (code 4503) and
new ones are refused until it answers again. The pages then poll over HTTP (which needs only the
database) and reconnect by themselves when Redis is back.

Only runs with the Redis channel layer (REDIS_URL set); the embedded in-memory layer has
nothing to lose.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from django.conf import settings

log = logging.getLogger(__name__)

CLOSE_FEED_DOWN = 4503
PROBE_EVERY = 1.0  # seconds
PROBE_TIMEOUT = 1.0

_sockets: set[Any] = set()
_watchers: dict[int, asyncio.Task[None]] = {}  # one per event loop
_state = {"healthy": True}


def healthy() -> bool:
    return _state["healthy"]


def ensure_running() -> None:
    url = getattr(settings, "REDIS_URL", "")
    if not url:
        return
    loop = asyncio.get_running_loop()
    task = _watchers.get(id(loop))
    if task is None or task.done():
        _watchers[id(loop)] = loop.create_task(_watch(url))


def add(socket: Any) -> None:
    _sockets.add(socket)


def discard(socket: Any) -> None:
    _sockets.discard(socket)


async def _probe(client: Any) -> bool:
    try:
        await asyncio.wait_for(client.ping(), PROBE_TIMEOUT)
        return True
    except Exception:
        return False


async def _watch(url: str) -> None:
    import redis.asyncio as aioredis  # inside: the full stack only; embedded never loads redis

    client = aioredis.from_url(
        url, socket_timeout=PROBE_TIMEOUT, socket_connect_timeout=PROBE_TIMEOUT
    )
    while True:
        ok = await _probe(client)
        if not ok and _state["healthy"]:
            _state["healthy"] = False
            log.warning("channel layer unreachable: closing %d websockets", len(_sockets))
            for socket in list(_sockets):
                with contextlib.suppress(Exception):
                    await socket.close(code=CLOSE_FEED_DOWN)
                _sockets.discard(socket)
        elif ok and not _state["healthy"]:
            _state["healthy"] = True
            log.warning("channel layer reachable again")
        await asyncio.sleep(PROBE_EVERY)
