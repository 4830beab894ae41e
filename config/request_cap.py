"""The cap on request bodies: 413, in the client's terms, before a byte of the body is read.

Django limits form data (DATA_UPLOAD_MAX_MEMORY_SIZE) only when a view reads the body, and
answers 400; neither granian nor uvicorn limits a body at all. The reverse proxy refuses any
body over 2 MB (deploy/nginx/locations.conf); behind it, and in the embedded mode without it,
`RequestBodyCapMiddleware` (first in MIDDLEWARE) answers 413 from the declared Content-Length
before anything reads the body. Under WSGI (granian) the body is read only on demand, so that
is all it takes. Django's ASGI handler reads the whole body before any middleware runs:
`cap_asgi_body` keeps it from doing so for an oversized body, declared or chunked.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import translation

from config.errors import request_too_large

# Set in the ASGI scope when a body without a declared length ran past the cap.
OVER_CAP = "floor.body_over_cap"


def request_body_cap(path: str = "") -> int | None:
    """The largest request body Floor reads: form data plus the largest upload, plus room for
    the multipart envelope; on the routes that take a season of files at once
    (FLOOR_LARGE_UPLOAD_PATHS: the import of The Tournament Director's files), their own
    larger upload. None when DATA_UPLOAD_MAX_MEMORY_SIZE is None (no cap)."""
    if settings.DATA_UPLOAD_MAX_MEMORY_SIZE is None:
        return None
    upload = settings.FLOOR_UPLOAD_MAX_BYTES
    if path and path.startswith(tuple(settings.FLOOR_LARGE_UPLOAD_PATHS)):
        upload = max(upload, settings.FLOOR_LARGE_UPLOAD_MAX_BYTES)
    return int(settings.DATA_UPLOAD_MAX_MEMORY_SIZE) + upload + 65536


def _declared(value: Any) -> int:
    try:
        return int(value or 0)
    except (TypeError, ValueError):
        return 0


class RequestBodyCapMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.cap = request_body_cap()
        self.large = request_body_cap(next(iter(settings.FLOOR_LARGE_UPLOAD_PATHS), ""))

    def __call__(self, request: HttpRequest) -> HttpResponse:
        cap = self.cap
        if cap is not None and request.path_info.startswith(
            tuple(settings.FLOOR_LARGE_UPLOAD_PATHS)
        ):
            cap = self.large
        if cap is not None and (
            _declared(request.META.get("CONTENT_LENGTH")) > cap
            or getattr(request, "scope", {}).get(OVER_CAP)
        ):
            return self.refuse(request)
        return self.get_response(request)

    @staticmethod
    def refuse(request: HttpRequest) -> HttpResponse:
        # Before LocaleMiddleware: the page speaks the client's language all the same.
        with translation.override(translation.get_language_from_request(request)):
            response = request_too_large(request)
        # Outside CommonMiddleware: the length is set here (no chunked answer).
        response["Content-Length"] = str(len(response.content))
        return response


Scope = dict[str, Any]
Message = dict[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]


async def _never() -> Message:
    # After a cut-off body Django listens for a disconnect until its answer is sent; the rest
    # of the body must not reach it (nor be read).
    await asyncio.Future()
    raise AssertionError("unreachable")


def cap_asgi_body(app: Any) -> Any:
    """Django's ASGI handler `app`, given an empty body (and the connection closed after the
    answer) when the declared body is over the cap, and a body cut short, marked OVER_CAP,
    when a body without a declared length runs past it: RequestBodyCapMiddleware answers."""

    async def application(scope: Scope, receive: Receive, send: Send) -> None:
        root = scope.get("root_path", "")
        path = scope.get("path", "")
        cap = request_body_cap(path[len(root) :] if root and path.startswith(root) else path)
        if scope["type"] != "http" or cap is None:
            await app(scope, receive, send)
            return
        length = next(
            (v for k, v in scope.get("headers", ()) if k.lower() == b"content-length"), None
        )
        refused = length is not None and _declared(length) > cap
        seen = 0
        cut = False  # the body Django got ends here; the client's may go on

        async def capped() -> Message:
            nonlocal seen, cut, refused
            if cut:
                return await _never()
            if refused:
                cut = True
                return {"type": "http.request", "body": b"", "more_body": False}
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > cap:
                    scope[OVER_CAP] = refused = cut = True
                    return {"type": "http.request", "body": b"", "more_body": False}
            return message

        async def closing(message: Message) -> None:
            if refused and message["type"] == "http.response.start":
                # The rest of the body is never read: the connection cannot carry another request.
                headers = [
                    (k, v) for k, v in message.get("headers", []) if k.lower() != b"connection"
                ]
                message = {**message, "headers": [*headers, (b"connection", b"close")]}
            await send(message)

        await app(scope, capped, closing)

    return application
