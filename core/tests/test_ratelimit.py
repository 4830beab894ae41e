"""The per-client rate limit (core/ratelimit.py): the limit holds per address and window,
with the embedded cache and with Redis (one round trip a call), and an unreachable Redis lets
requests through rather than stop the floor."""

from __future__ import annotations

import uuid

import pytest
from django.test import RequestFactory

from core import ratelimit
from tests.services import REDIS_URL, redis_available, require


def _request(address: str):
    return RequestFactory().get("/", REMOTE_ADDR=address)


def _calls(scope: str, address: str, limit: int, n: int) -> list[bool]:
    return [ratelimit.allow(_request(address), scope, limit, 60) for _ in range(n)]


def _redis_cache(monkeypatch, location: str):
    from django_redis.cache import RedisCache

    cache = RedisCache(
        location,
        {
            "KEY_PREFIX": f"floor.test{uuid.uuid4().hex[:8]}.",
            "OPTIONS": {
                "IGNORE_EXCEPTIONS": True,
                "SOCKET_CONNECT_TIMEOUT": 0.2,
                "SOCKET_TIMEOUT": 0.2,
            },
        },
    )
    monkeypatch.setattr(ratelimit, "cache", cache)
    return cache


def test_the_limit_holds_per_address_with_the_embedded_cache(one_rate_window):
    scope = f"s{uuid.uuid4().hex[:6]}"
    assert _calls(scope, "10.0.0.1", 3, 5) == [True, True, True, False, False]
    assert _calls(scope, "10.0.0.2", 3, 1) == [True]  # another address, its own count


def test_the_limit_holds_per_address_on_redis(monkeypatch, one_rate_window):
    require(redis_available(), "Redis (127.0.0.1:6379)")
    cache = _redis_cache(monkeypatch, REDIS_URL)
    scope = "find"
    assert _calls(scope, "10.0.0.1", 3, 5) == [True, True, True, False, False]
    assert _calls(scope, "10.0.0.2", 3, 1) == [True]
    # The counter is a plain integer with its expiry, as the cache's own incr keeps it.
    keys = cache.keys("rl:find:10.0.0.1:*")
    assert len(keys) == 1 and cache.get(keys[0]) == 5 and 0 < cache.ttl(keys[0]) <= 65
    cache.delete_pattern("rl:*")


def test_an_unreachable_redis_lets_requests_through(monkeypatch):
    pytest.importorskip("django_redis")
    _redis_cache(monkeypatch, "redis://127.0.0.1:1/0")  # nothing listens there
    assert _calls("find", "10.0.0.1", 1, 3) == [True, True, True]
