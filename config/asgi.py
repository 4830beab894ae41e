"""ASGI entry point: websockets (Channels, with origin and auth checks) and, in the embedded
mode, HTTP too (Django's own ASGI handler).

In the full stack the proxy sends only /ws/ here (the `ws` service, uvicorn); every other
request goes to granian (config/wsgi.py, the `web` service). `python3 floor.py run` serves
both from this one process. /healthz is answered before Django (config/health.py), and a body
over the cap is refused (413) before it is read (config/request_cap.py).

Run uvicorn with --no-proxy-headers: Floor reads X-Forwarded-For itself, from trusted proxies
only (FLOOR_TRUSTED_PROXIES, core/ratelimit.py client_address).
"""

import os
from typing import Any

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from config.health import with_liveness  # noqa: E402
from config.request_cap import cap_asgi_body  # noqa: E402
from config.routing import websocket_urlpatterns  # noqa: E402
from live.realtime import note_server_loop  # noqa: E402

_router = ProtocolTypeRouter(
    {
        "http": with_liveness(cap_asgi_body(django_asgi_app)),
        "websocket": AllowedHostsOriginValidator(
            AuthMiddlewareStack(URLRouter(websocket_urlpatterns))
        ),
    }
)


async def application(scope: dict[str, Any], receive: Any, send: Any) -> None:
    # The embedded mode's in-memory channel layer belongs to this loop: broadcasts made on
    # other threads (views on Django's sync threads, the clock ticker) are handed to it.
    note_server_loop()
    await _router(scope, receive, send)
