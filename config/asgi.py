"""ASGI entry point.

HTTP goes to Django's WSGI handler on a small pool of threads (a2wsgi); websockets go to Channels
with origin and auth checks. Floor's views are synchronous, and Django's own ASGI handler runs
each request on a new thread and hops between the event loop and that thread around every
middleware: serving the same views through the WSGI handler costs a third of the CPU per
request (bench.player_lookup). FLOOR_HTTP_THREADS sets the pool size per process.
"""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")
django_wsgi_app = get_wsgi_application()

from a2wsgi import WSGIMiddleware  # noqa: E402
from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from django.conf import settings  # noqa: E402

from config.routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": WSGIMiddleware(
            django_wsgi_app,  # type: ignore[arg-type]  # a response is an iterable of bytes
            workers=settings.FLOOR_HTTP_THREADS,
        ),
        "websocket": AllowedHostsOriginValidator(
            AuthMiddlewareStack(URLRouter(websocket_urlpatterns))
        ),
    }
)
