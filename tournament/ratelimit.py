"""A small per-client rate limit on public look-ups, kept in the cache (Redis in the full stack)."""

from __future__ import annotations

import time

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest


def client_address(request: HttpRequest) -> str:
    """The client's address. X-Forwarded-For counts only behind trusted proxies
    (FLOOR_TRUSTED_PROXIES = how many), read from the right, so a client cannot spoof it."""
    remote = request.META.get("REMOTE_ADDR", "") or "unknown"
    proxies = int(getattr(settings, "FLOOR_TRUSTED_PROXIES", 0) or 0)
    if proxies <= 0:
        return remote
    hops = [h.strip() for h in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if h.strip()]
    if len(hops) < proxies:
        return remote
    return hops[-proxies]


def allow(request: HttpRequest, scope: str, limit: int, window_seconds: int = 60) -> bool:
    """True while this client made fewer than `limit` calls of `scope` in the current window."""
    bucket = int(time.time() // window_seconds)
    key = f"rl:{scope}:{client_address(request)}:{bucket}"
    hit = getattr(cache, "hit", None)
    if hit is not None:  # Redis: one round trip
        return int(hit(key, window_seconds + 5)) <= limit
    if cache.add(key, 1, window_seconds + 5):
        return True
    try:
        count = cache.incr(key)
    except ValueError:
        cache.set(key, 1, window_seconds + 5)
        return True
    return count <= limit
