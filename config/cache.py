"""Redis cache backend for Floor.

- One client per connection pool: Django's backend builds a new `redis.Redis` object for every
  cache call; the pool is shared, but building the client costs about a tenth of a millisecond,
  which adds up on the public look-ups. `redis.Redis` is thread-safe, so one per pool is enough.
- Redis being down must not stop the floor: the cache only holds rate-limit counters and data
  versions, so while Redis is unreachable reads miss, writes are dropped, rate limits let
  requests through, and `failed_since()` tells callers (the seat index) not to trust versions.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

log = logging.getLogger(__name__)
_DOWN = (RedisConnectionError, RedisTimeoutError, OSError)
_last_failure = 0.0
_last_logged = 0.0


def failed_since(t0: float) -> bool:
    """Did a cache call fail at or after `t0` (time.monotonic())?"""
    return _last_failure >= t0


def _failed(exc: BaseException) -> None:
    global _last_failure, _last_logged
    now = time.monotonic()
    _last_failure = now
    if now - _last_logged > 10:
        _last_logged = now
        log.warning("cache unreachable, carrying on without it: %s", exc)


def _tolerant(default: Any) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    def wrap(method: Callable[..., Any]) -> Callable[..., Any]:
        def call(self: Any, *args: Any, **kwargs: Any) -> Any:
            try:
                return method(self, *args, **kwargs)
            except _DOWN as exc:
                _failed(exc)
                return default() if callable(default) else default

        call.__name__ = method.__name__
        return call

    return wrap


class _Client(RedisCacheClient):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, Any] = {}

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        index = self._get_connection_pool_index(write)  # type: ignore[attr-defined]
        client = self._clients.get(index)
        if client is None:
            pool = self._get_connection_pool(write)  # type: ignore[attr-defined]
            client = self._clients[index] = self._client(  # type: ignore[attr-defined]
                connection_pool=pool
            )
        return client


class FloorRedisCache(RedisCache):
    def __init__(self, server: Any, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = _Client

    # Reads miss and writes are dropped while Redis is down; `add` lets the caller through.
    get = _tolerant(None)(RedisCache.get)
    get_many = _tolerant(dict)(RedisCache.get_many)
    set = _tolerant(None)(RedisCache.set)
    set_many = _tolerant(list)(RedisCache.set_many)
    add = _tolerant(True)(RedisCache.add)
    delete = _tolerant(False)(RedisCache.delete)
    touch = _tolerant(False)(RedisCache.touch)
    has_key = _tolerant(False)(RedisCache.has_key)

    def incr(self, key: Any, delta: int = 1, version: Any = None) -> int:
        try:
            return super().incr(key, delta, version)
        except _DOWN as exc:
            _failed(exc)
            return 0

    def bump(self, key: Any) -> int:
        """Add one in a single round trip, creating the key at 1 (data versions: `incr` asks
        whether the key exists first)."""
        try:
            made = self.make_and_validate_key(key)
            return int(self._cache.get_client(made, write=True).incr(made))  # type: ignore[attr-defined]
        except _DOWN as exc:
            _failed(exc)
            return 0
