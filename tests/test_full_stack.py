"""The full stack as docker-compose.yml arranges it, on loopback: nginx in front (the deployed
routes), granian serving Floor over WSGI (the `web` service's command), uvicorn serving the
websockets, Redis between them. A floor account logs in and starts the clock through the proxy;
the big screen's socket, also through the proxy, receives the new clock state; a player finds
their seat. The one test that sees an action travel from one server to the other."""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
import requests
from django.conf import settings
from django.test import override_settings

from bench import _stack
from tables import services as seating
from tests.services import redis_available, require

# A Redis database no other test and no bench uses (they use 0 and 11 to 15), emptied first:
# the servers' cache holds login counters and rate limits from an earlier run.
REDIS_URL = os.environ.get("TEST_FULL_STACK_REDIS_URL", "redis://127.0.0.1:6379/10")


@pytest.fixture
def stack(transactional_db: Any) -> Iterator[str]:
    db = settings.DATABASES["default"]
    if db["ENGINE"].endswith("sqlite3"):
        pytest.skip("The servers share the PostgreSQL test database (SQLite's is in memory).")
    require(redis_available(), "Redis (127.0.0.1:6379)")
    require(_stack.nginx_binary() is not None, "nginx (Debian package nginx-light)")
    import redis

    redis.Redis.from_url(REDIS_URL).flushdb()
    url = (
        f"postgres://{db['USER']}:{db.get('PASSWORD') or ''}@{db.get('HOST') or '127.0.0.1'}:"
        f"{db.get('PORT') or 5432}/{db['NAME']}"
    )
    full = _stack.FullStack(_stack.stack_env(url, REDIS_URL), web=1, ws=1)
    try:
        full.start()
        assert full.proxy_port is not None
        yield f"127.0.0.1:{full.proxy_port}"
    finally:
        full.stop()


async def _first_clock_message(host: str, pk: int, started: asyncio.Event) -> dict[str, Any]:
    from websockets.asyncio.client import connect

    async with connect(f"ws://{host}/ws/t/{pk}/", origin=f"http://{host}") as socket:
        started.set()
        while True:
            message = json.loads(await asyncio.wait_for(socket.recv(), 15))
            if message.get("event") == "clock":
                return message


@pytest.mark.postgres
def test_an_action_reaches_a_screen_through_the_proxy_and_both_servers(
    stack, make_tournament, register, actor, floor_user
):
    # The servers check passwords with the deployed hasher, not the tests' fast one.
    with override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.PBKDF2PasswordHasher"]):
        floor_user.set_password("pw-floor-123")
        floor_user.save(update_fields=["password"])
    t = make_tournament(status="registering")
    entries = [register(t) for _ in range(4)]
    seating.seats_draw(tournament=t, actor=actor)
    base = f"http://{stack}"

    # A player's look-up: nginx → granian → Floor → PostgreSQL.
    number = entries[0].number
    answer = requests.get(f"{base}/t/{t.pk}/find/", params={"q": number}, timeout=10)
    assert answer.status_code == 200 and f"#{number}" in answer.text and "Seat" in answer.text

    async def scenario() -> dict[str, Any]:
        started = asyncio.Event()
        listening = asyncio.create_task(_first_clock_message(stack, t.pk, started))
        await asyncio.wait_for(started.wait(), 10)

        def start_the_clock() -> int:
            desk = requests.Session()
            desk.get(f"{base}/login/", timeout=10)
            login = {"username": "flo", "password": "pw-floor-123"}
            token = {"csrfmiddlewaretoken": desk.cookies["csrftoken"]}
            desk.post(f"{base}/login/", data={**login, **token}, timeout=10)
            clock_page = desk.get(f"{base}/console/t/{t.pk}/clock/", timeout=10)
            assert clock_page.url.endswith("/clock/"), clock_page.url  # logged in
            token = {"csrfmiddlewaretoken": desk.cookies["csrftoken"]}
            done = desk.post(f"{base}/console/t/{t.pk}/clock/start", data=token, timeout=10)
            return done.status_code

        with ThreadPoolExecutor(1) as pool:
            status = await asyncio.get_running_loop().run_in_executor(pool, start_the_clock)
        assert status == 200
        return await asyncio.wait_for(listening, 15)

    with ThreadPoolExecutor(1) as runner:  # a loop of its own (the browser tests keep one)
        message = runner.submit(asyncio.run, scenario()).result(60)
    assert message["data"]["running"] is True
