"""Fail fast while PostgreSQL is down (config/database.py): 503 at once, a breaker so a dead
database is not tried by every request, static files and liveness unaffected, /readyz names
what is down."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from django.db import connections

from config import database
from config.database import Breaker, DatabaseDown
from tests.test_servers import wsgi_call


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_the_breaker_opens_on_a_failure_and_lets_one_probe_through_after_the_pause():
    clock = Clock()
    breaker = Breaker(open_seconds=2, clock=clock)
    breaker.before_connect()  # closed: connect
    breaker.failed()
    with pytest.raises(DatabaseDown):
        breaker.before_connect()
    clock.now += 2.5
    breaker.before_connect()  # the one probe
    with pytest.raises(DatabaseDown):
        breaker.before_connect()  # everyone else, while the probe runs
    breaker.failed()
    with pytest.raises(DatabaseDown):
        breaker.before_connect()
    clock.now += 2.5
    breaker.before_connect()
    breaker.succeeded()
    breaker.before_connect()
    breaker.before_connect()
    assert not breaker.is_open


def test_a_lost_probe_does_not_keep_the_breaker_open_forever():
    clock = Clock()
    breaker = Breaker(open_seconds=2, probe_seconds=30, clock=clock)
    breaker.failed()
    clock.now += 3
    breaker.before_connect()  # a probe that never reports back
    clock.now += 31
    breaker.before_connect()


@pytest.fixture
def database_down(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """Requests served on fresh threads connect to a closed port through Floor's backend, with a
    breaker of their own; counts the connects that reach the driver."""
    from django.db.backends.postgresql.base import DatabaseWrapper as Stock

    attempts = {"connect": 0}
    real = Stock.get_new_connection

    def counted(self: Any, conn_params: dict[str, Any]) -> Any:
        attempts["connect"] += 1
        return real(self, conn_params)

    monkeypatch.setattr(Stock, "get_new_connection", counted)
    monkeypatch.setattr(database, "breaker", Breaker(open_seconds=60))
    down = copy.deepcopy(connections.settings)
    down["default"].update(
        ENGINE="config.postgresql",
        HOST="127.0.0.1",
        PORT=1,  # nothing listens there: refused at once
        NAME="floor",
        USER="floor",
        OPTIONS={"connect_timeout": 2},
    )
    monkeypatch.setitem(connections.__dict__, "settings", down)
    return attempts


@pytest.mark.django_db  # lets the request threads connect (to the closed port)
def test_requests_answer_503_and_the_dead_database_is_tried_once(database_down):
    status, headers, body = wsgi_call("/t/1/")
    assert status.startswith("503")
    assert headers["Retry-After"] == "2"
    assert b"Nothing was saved" in body
    assert database_down["connect"] == 1

    status, _, body = wsgi_call("/api/tournaments/")
    assert status.startswith("503")
    assert json.loads(body)["code"] == "database_unavailable"
    status, _, _ = wsgi_call("/t/1/find/", QUERY_STRING="q=Ann")
    assert status.startswith("503")
    assert database_down["connect"] == 1  # the breaker answered; nothing waited for the pool

    status, _, body = wsgi_call("/static/clocks/clock.js")
    assert status.startswith("200") and body
    status, _, _ = wsgi_call("/healthz")
    assert status.startswith("200")
    status, _, body = wsgi_call("/readyz")
    assert status.startswith("503")
    assert json.loads(body)["database"] == "down"
    assert database_down["connect"] == 1


def test_the_pool_waits_at_most_its_short_timeout(monkeypatch):
    """The production settings give the pool a timeout of about a second (not 10 s)."""
    import subprocess
    import sys
    from pathlib import Path

    code = (
        "import json, django; django.setup(); from django.conf import settings as s;"
        "d = s.DATABASES['default']; print(json.dumps([d['ENGINE'], d['OPTIONS']]))"
    )
    env = {
        "PATH": "/usr/bin:/bin",
        "DJANGO_SETTINGS_MODULE": "config.settings.base",
        "DATABASE_URL": "postgres://floor@127.0.0.1:1/floor",
    }
    out = subprocess.run(
        [sys.executable, "-c", code],
        cwd=Path(__file__).resolve().parents[1],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    engine, options = json.loads(out.stdout.strip().splitlines()[-1])
    assert engine == "config.postgresql"
    assert options["pool"]["timeout"] <= 1 and options["connect_timeout"] <= 3


@pytest.mark.django_db
def test_readyz_says_ok_when_everything_answers(client, settings):
    settings.REDIS_URL = ""
    settings.FLOOR_TICKER = "off"
    response = client.get("/readyz")
    assert response.status_code == 200
    assert response.json() == {"ok": True, "database": "ok"}


@pytest.mark.django_db
def test_readyz_names_redis_and_a_silent_ticker(client, settings):
    from django.core.cache import cache

    from config.health import ticker_beat

    settings.REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens there
    settings.FLOOR_TICKER = "celery"
    cache.clear()
    response = client.get("/readyz")
    assert response.status_code == 503
    assert response.json() == {"ok": False, "database": "ok", "redis": "down", "ticker": "down"}
    ticker_beat()
    assert client.get("/readyz").json()["ticker"] == "ok"
    cache.clear()


def test_the_middleware_answers_quietly_only_while_the_breaker_is_open(monkeypatch):
    from django.db.utils import OperationalError
    from django.test import RequestFactory

    monkeypatch.setattr(database, "breaker", Breaker(open_seconds=60))
    middleware = database.DatabaseUnavailableMiddleware(lambda r: None)  # type: ignore[arg-type,return-value]
    request = RequestFactory().get("/api/tournaments/")
    # A deadlock with the database up: Django's handler logs the traceback (and answers 503).
    assert middleware.process_exception(request, OperationalError("deadlock detected")) is None
    database.breaker.failed()
    response = middleware.process_exception(request, OperationalError("connection refused"))
    assert response is not None and response.status_code == 503
    assert middleware.process_exception(request, ValueError("bug")) is None


def test_a_clock_tick_on_the_worker_is_what_readyz_reads():
    from types import SimpleNamespace

    from django.core.cache import cache

    from config.celery import _record_clock_tick
    from config.health import TICKER_KEY

    cache.delete(TICKER_KEY)
    _record_clock_tick(sender=SimpleNamespace(name="tournament.tasks.other"))
    assert cache.get(TICKER_KEY) is None
    _record_clock_tick(sender=SimpleNamespace(name="clocks.tasks.clocks_tick"))
    assert cache.get(TICKER_KEY) is not None
    cache.delete(TICKER_KEY)
