"""ASGI entry point.

HTTP goes to Django's WSGI handler on a small pool of threads (config/wsgi_bridge.py: one
hand-off per request); websockets go to Channels with origin and auth checks. Floor's views are
synchronous; Django's own ASGI handler would run each request on a new thread and hop between
the event loop and that thread around every middleware. FLOOR_HTTP_THREADS sets the pool size
per process.
"""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")
django_wsgi_app = get_wsgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from django.conf import settings  # noqa: E402

from config.routing import websocket_urlpatterns  # noqa: E402
from config.wsgi_bridge import WSGIBridge  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": WSGIBridge(
            django_wsgi_app,  # type: ignore[arg-type]  # a response is an iterable of bytes
            threads=settings.FLOOR_HTTP_THREADS,
        ),
        "websocket": AllowedHostsOriginValidator(
            AuthMiddlewareStack(URLRouter(websocket_urlpatterns))
        ),
    }
)
