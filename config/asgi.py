"""ASGI entry point.

HTTP goes to Django's WSGI handler on a small pool of threads (config/wsgi_bridge.py: one
hand-off per request); websockets go to Channels with origin and auth checks. Floor's views are
synchronous; Django's own ASGI handler would run each request on a new thread and hop between
the event loop and that thread around every middleware. FLOOR_HTTP_THREADS sets the pool size
per process. Static files have a small pool of their own (they never wait behind the database),
/healthz is answered before Django (config/health.py), and request bodies are capped before
they are read (413).

Run uvicorn with --no-proxy-headers: Floor reads X-Forwarded-For itself, from trusted proxies
only (FLOOR_TRUSTED_PROXIES, tournament/ratelimit.py client_address).
"""

import io
import os
from typing import Any
from urllib.parse import urlparse

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")
django_wsgi_app = get_wsgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from django.conf import settings  # noqa: E402

from config.health import with_liveness  # noqa: E402
from config.routing import websocket_urlpatterns  # noqa: E402
from config.wsgi_bridge import Response, WSGIBridge, environ_for  # noqa: E402
from tournament.realtime import note_server_loop  # noqa: E402


def _refuse(scope: dict[str, Any], status: int) -> Response:
    """The 413 page (or JSON for /api/) in the client's language, built without reading the
    body or touching the database."""
    from django.core.handlers.wsgi import WSGIRequest
    from django.utils import translation

    from config.errors import request_too_large

    request = WSGIRequest(environ_for(scope, io.BytesIO()))
    with translation.override(translation.get_language_from_request(request)):
        response = request_too_large(request)
    headers = [(k.lower().encode("latin1"), v.encode("latin1")) for k, v in response.items()]
    return response.status_code, headers, response.content


def request_body_cap() -> int | None:
    """The largest request body Floor reads: form data plus the largest upload, plus room for
    the multipart envelope. None when DATA_UPLOAD_MAX_MEMORY_SIZE is None (no cap)."""
    if settings.DATA_UPLOAD_MAX_MEMORY_SIZE is None:
        return None
    return int(settings.DATA_UPLOAD_MAX_MEMORY_SIZE) + settings.FLOOR_UPLOAD_MAX_BYTES + 65536


_router = ProtocolTypeRouter(
    {
        "http": with_liveness(
            WSGIBridge(
                django_wsgi_app,  # type: ignore[arg-type]  # a response is an iterable of bytes
                threads=settings.FLOOR_HTTP_THREADS,
                max_body=request_body_cap(),
                refuse=_refuse,
                fast_paths=(urlparse(settings.STATIC_URL).path,),
            )
        ),
        "websocket": AllowedHostsOriginValidator(
            AuthMiddlewareStack(URLRouter(websocket_urlpatterns))
        ),
    }
)


async def application(scope: dict[str, Any], receive: Any, send: Any) -> None:
    # The embedded mode's in-memory channel layer belongs to this loop: broadcasts made on
    # other threads (views on the bridge's threads, the clock ticker) are handed to it.
    note_server_loop()
    await _router(scope, receive, send)
