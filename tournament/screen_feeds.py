"""What a public screen polls (the league standings, the chip counts): its JSON with an ETag
over what it shows, answered 304 when the screen has it already, and the seconds a page of a
rotating screen stays (`?seconds=`)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.utils.cache import get_conditional_response


def feed_body(data: Mapping[str, Any], *, not_in_etag: tuple[str, ...] = ()) -> tuple[bytes, str]:
    """The JSON body and its ETag. Keys in `not_in_etag` (the time of the read) change with
    every request but not what the screen shows: the ETag leaves them out."""
    body = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()
    shown = body
    if not_in_etag:
        kept = {k: v for k, v in data.items() if k not in not_in_etag}
        shown = json.dumps(kept, ensure_ascii=False, separators=(",", ":")).encode()
    return body, '"' + hashlib.blake2b(shown, digest_size=12).hexdigest() + '"'


def feed_response(request: HttpRequest, body: bytes, etag: str) -> HttpResponse:
    """The body, or 304 Not Modified when the request's If-None-Match names the ETag."""
    response = get_conditional_response(request, etag=etag) or HttpResponse(
        body, content_type="application/json"
    )
    response["ETag"] = etag
    response["Cache-Control"] = "no-cache"
    return response


def page_seconds(request: HttpRequest, default: int, low: int, high: int) -> int:
    """`?seconds=N`, held within low..high; anything else: the default."""
    try:
        seconds = int(request.GET.get("seconds", default))
    except ValueError:
        return default
    return min(max(seconds, low), high)
