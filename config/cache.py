"""Redis cache backend for Floor.

- One connection pool and one client per server for the whole process. Django keeps cache
  objects per context (each request served in a fresh context gets a new one), and its backend
  makes a pool per cache object and a `redis.Redis` per call: a public look-up paid for a new TCP
  connection to Redis every time. Pools and clients are thread-safe and reset themselves in a
  forked child, so sharing them per process is safe.
- Redis being down must not stop the floor: the cache holds only short-lived values such as
  rate-limit counters, so while Redis is unreachable reads miss, writes are dropped and rate
  limits let requests through.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

log = logging.getLogger(__name__)
_DOWN = (RedisConnectionError, RedisTimeoutError, OSError)
_last_logged = 0.0


def _failed(exc: BaseException) -> None:
    global _last_logged
    now = time.monotonic()
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


_shared: dict[tuple[str, str], Any] = {}
_shared_lock = threading.Lock()


class _Client(RedisCacheClient):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._options_key = repr(sorted(self._pool_options.items()))  # type: ignore[attr-defined]

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        server = self._servers[self._get_connection_pool_index(write)]  # type: ignore[attr-defined]
        shared = (server, self._options_key)
        client = _shared.get(shared)
        if client is None:
            with _shared_lock:
                client = _shared.get(shared)
                if client is None:
                    pool = self._pool_class.from_url(server, **self._pool_options)  # type: ignore[attr-defined]
                    client = _shared[shared] = self._client(connection_pool=pool)  # type: ignore[attr-defined]
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

    def hit(self, key: Any, timeout: int) -> int:
        """Count one more hit on `key` and return the count, in one round trip; the key expires
        `timeout` seconds after the first hit. 0 while Redis is down (let the caller through)."""
        try:
            made = self.make_and_validate_key(key)
            client = self._cache.get_client(made, write=True)  # type: ignore[attr-defined]
            pipe = client.pipeline(transaction=False)
            pipe.set(made, 0, ex=timeout, nx=True)
            pipe.incr(made)
            return int(pipe.execute()[1])
        except _DOWN as exc:
            _failed(exc)
            return 0
