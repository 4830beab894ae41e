"""Fail fast while the database is down.

A request that needs PostgreSQL while it is unreachable would wait for the connection pool's
timeout on each of the few HTTP threads, and every request behind it would queue. Instead:

- the pool waits at most DB_POOL_TIMEOUT (1 s by default) for a connection;
- a failed connect opens `breaker` for DB_RETRY_SECONDS: every connect in that time fails at
  once, without touching the network; after it, one request at a time tries again (the others
  still fail at once) and the first success closes the breaker;
- a request that fails for the database gets the 503 page (or JSON for /api/) with Retry-After
  (config/errors.py database_unavailable). While the breaker is open that is one warning line
  every few seconds, not a traceback per request; other database errors (a deadlock, say) keep
  their traceback in the log.

The breaker is per process; the pool keeps reconnecting in the background on its own.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

from django.conf import settings
from django.db.utils import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse

from config.errors import database_unavailable

log = logging.getLogger(__name__)


class DatabaseDown(Exception):
    """Raised instead of connecting while the breaker is open."""


class Breaker:
    """Open after a failure for `open_seconds`; then one caller at a time may try (a probe
    that has not reported after `probe_seconds` is presumed lost and another may try)."""

    def __init__(
        self,
        *,
        open_seconds: float,
        probe_seconds: float = 30.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.open_seconds = open_seconds
        self.probe_seconds = probe_seconds
        self.clock = clock
        self._lock = threading.Lock()
        self._open_until: float | None = None  # None: closed (the database answers)
        self._probe_since: float | None = None

    @property
    def is_open(self) -> bool:
        return self._open_until is not None

    def before_connect(self) -> None:
        """Return if the caller may connect now; raise DatabaseDown otherwise."""
        with self._lock:
            if self._open_until is None:
                return
            now = self.clock()
            if now < self._open_until:
                raise DatabaseDown("the database was unreachable moments ago")
            if self._probe_since is not None and now - self._probe_since < self.probe_seconds:
                raise DatabaseDown("another request is checking whether the database is back")
            self._probe_since = now

    def failed(self) -> None:
        with self._lock:
            if self._open_until is None:
                log.warning(
                    "database unreachable: answering 503 at once for %.0f s", self.open_seconds
                )
            self._open_until = self.clock() + self.open_seconds
            self._probe_since = None

    def succeeded(self) -> None:
        with self._lock:
            if self._open_until is not None:
                log.warning("database reachable again")
            self._open_until = None
            self._probe_since = None


def _retry_seconds() -> float:
    return float(getattr(settings, "DB_RETRY_SECONDS", 2.0))


breaker = Breaker(open_seconds=_retry_seconds())
_last_logged = 0.0


class DatabaseUnavailableMiddleware:
    """While the breaker is open, a view that failed for the database answers 503 at once
    (see the module docstring); otherwise Django's handler (config/errors.py) answers."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        global _last_logged
        if not isinstance(exception, OperationalError | InterfaceError) or not breaker.is_open:
            return None

        now = time.monotonic()
        if now - _last_logged > 10:
            _last_logged = now
            log.warning("503 for %s: %s", request.path, exception)
        return database_unavailable(request)
