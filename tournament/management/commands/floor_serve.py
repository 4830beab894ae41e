"""Serve Floor over ASGI (HTTP and websockets) with uvicorn.

In the embedded mode (FLOOR_TICKER=inprocess) the same process runs the clock ticker loop, so a
club night needs nothing but this one process. The venue's command (floor_venue) serves through
`serve` below with a socket it opened itself.
"""

from __future__ import annotations

import socket
from typing import Any

import uvicorn
from django.conf import settings
from django.core.management.base import BaseCommand

from clocks.ticker import start_background_ticker
from config.warmup import warm
from webhooks.worker import start_sender


def serve(*, host: str = "127.0.0.1", port: int = 8000, sock: socket.socket | None = None) -> None:
    """Warm the process, start the in-process ticker and webhook sender (embedded) and serve
    until a signal."""
    warm()  # what the first requests would load (config/warmup.py)
    if settings.FLOOR_TICKER == "inprocess":
        start_background_ticker()
        start_sender()  # the webhooks' outbox (webhooks/worker.py)
    config = uvicorn.Config(
        "config.asgi:application",
        host=host,
        port=port,
        log_level="warning",
        lifespan="off",
        ws="websockets-sansio",  # as the full stack (docker-compose.yml)
        ws_max_size=64 * 1024,
        ws_per_message_deflate=False,  # as the full stack (docker-compose.yml)
        # uvicorn believes X-Forwarded-For from 127.0.0.1 by default, so anyone on this
        # machine could name any address: Floor reads the header itself, from
        # FLOOR_TRUSTED_PROXIES only (core/ratelimit.py client_address).
        proxy_headers=False,
        # The venue's server tells nobody on the LAN what it runs.
        server_header=False,
    )
    uvicorn.Server(config).run(sockets=[sock] if sock is not None else None)


class Command(BaseCommand):
    help = "Serve Floor (ASGI) and, in the embedded mode, run the clock ticker."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--host", default="127.0.0.1")
        parser.add_argument("--port", type=int, default=8000)

    def handle(self, *args: Any, **options: Any) -> None:
        serve(host=options["host"], port=options["port"])
