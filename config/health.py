"""Health endpoints.

- /healthz: liveness. The process answers HTTP; touches nothing else. Both servers answer it
  before Django (`with_liveness` on the ASGI event loop, `with_wsgi_liveness` in granian): no
  host check, no HTTPS redirect, so the compose health check and the proxy's probe reach it on
  the internal network by the container's address.
- /readyz: which dependency is down. The database, Redis (channel layer, cache and Celery
  broker) and the ticker (Celery beat + worker: the last clock tick, or the in-process thread);
  200 when all answer, 503 naming the ones that do not. For monitoring: a proxy should route on
  /healthz, so that Floor's own 503 page reaches the floor while the database is down.
"""

from __future__ import annotations

import threading
import time
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.http import HttpRequest, JsonResponse

TICKER_KEY = "health.ticker.last"
TICKER_LATE_SECONDS = 10  # beat ticks every 5 s (config/settings/base.py)
PROBE_TIMEOUT = 0.5  # seconds


def healthz(request: HttpRequest) -> JsonResponse:
    """Liveness: the process serves HTTP (the same answer as `with_liveness`)."""
    return JsonResponse({"ok": True})


def with_liveness(app: Any) -> Any:
    """The ASGI `app`, with GET /healthz answered on the event loop before it."""
    body = b'{"ok": true}'
    head = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]

    async def application(scope: dict[str, Any], receive: Any, send: Any) -> None:
        path, root = scope.get("path", ""), scope.get("root_path", "")
        if root and path.startswith(root):
            path = path[len(root) :]
        if scope["type"] == "http" and path == "/healthz":
            await send({"type": "http.response.start", "status": 200, "headers": head})
            await send({"type": "http.response.body", "body": body})
            return
        await app(scope, receive, send)

    return application


def with_wsgi_liveness(app: Any) -> Any:
    """The WSGI `app`, with GET /healthz answered before it."""
    body = b'{"ok": true}'
    head = [("Content-Type", "application/json"), ("Content-Length", str(len(body)))]

    def application(environ: dict[str, Any], start_response: Any) -> Any:
        if environ.get("PATH_INFO") == "/healthz":
            start_response("200 OK", head)
            return [body]
        return app(environ, start_response)

    return application


def ticker_beat() -> None:
    """Record that a clock tick ran (config/celery.py calls it after each tick)."""
    cache.set(TICKER_KEY, time.time(), 60)


def _database() -> str:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except Exception:
        return "down"
    return "ok"


def _redis() -> str | None:
    url = getattr(settings, "REDIS_URL", "")
    if not url:
        return None
    import redis  # inside: the full stack only; the embedded mode never loads redis

    client = redis.Redis.from_url(
        url, socket_timeout=PROBE_TIMEOUT, socket_connect_timeout=PROBE_TIMEOUT
    )
    try:
        client.ping()
    except Exception:
        return "down"
    finally:
        client.close()
    return "ok"


def _ticker() -> str | None:
    mode = getattr(settings, "FLOOR_TICKER", "off")
    if mode == "inprocess":
        alive = any(t.name == "floor-ticker" for t in threading.enumerate())
        return "ok" if alive else "down"
    if mode != "celery":
        return None
    last = cache.get(TICKER_KEY)
    if last is None or time.time() - float(last) > TICKER_LATE_SECONDS:
        return "down"  # no clock tick lately: Celery beat or the worker is not running
    return "ok"


def readyz(request: HttpRequest) -> JsonResponse:
    """Each dependency's state, "ok" or "down"; 503 when any is down."""
    checks = {"database": _database(), "redis": _redis(), "ticker": _ticker()}
    checks = {name: state for name, state in checks.items() if state is not None}
    ok = all(state == "ok" for state in checks.values())
    return JsonResponse({"ok": ok, **checks}, status=200 if ok else 503)
