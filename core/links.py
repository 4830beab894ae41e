"""Links a device receives: every QR code and printed link carries the public base address
(settings FLOOR_PUBLIC_URL: the venue's mDNS name or LAN address, the full stack's domain), not
the address the staff's own browser used (often localhost). Without one, a page's links use its
own request's address."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest

FALLBACK = "http://127.0.0.1:8000"


def public_base(request: HttpRequest | None = None) -> str:
    """The base address without a trailing slash."""
    configured = str(settings.FLOOR_PUBLIC_URL or "").rstrip("/")
    if configured:
        return configured
    if request is not None:
        return request.build_absolute_uri("/").rstrip("/")
    return FALLBACK


def public_url(path: str, request: HttpRequest | None = None) -> str:
    """`path` (from reverse(), starting with /) at the public base address."""
    return public_base(request) + path
