"""Serve a WSGI application's HTTP requests from an ASGI server, on a pool of threads.

Floor's views are synchronous. Django's own ASGI handler runs each request on a new thread and
hops between the event loop and that thread around every middleware; a general WSGI adapter
(a2wsgi) hands every message of the response across threads and waits for each. Here a request
costs one hand-off: the event loop reads the request body, a worker thread runs the whole WSGI
call and returns the finished response, and the loop sends it. Only a streaming response (a
static file, an export) is sent piece by piece from the worker thread, waiting for each piece,
so a slow client holds back its own thread and nothing else.

The worker threads behave like those of a threaded WSGI server (one request at a time each,
database connections per thread, closed by Django at the end of each request). Requests for
`fast_paths` (static files, the liveness check) run on a small pool of their own, so they never
queue behind requests that wait for the database.

Uvicorn has no limit on the size of a request body; the bridge keeps one (`max_body`): a
Content-Length over it is answered 413 before a byte of the body is read, and a chunked body is
cut off (413) as soon as it passes it.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import sys
import tempfile
from collections.abc import Awaitable, Callable, Coroutine, Iterable
from concurrent.futures import ThreadPoolExecutor
from typing import IO, Any

log = logging.getLogger(__name__)

Scope = dict[str, Any]
Message = dict[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Coroutine[Any, Any, None]]
WSGIApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]
Response = tuple[int, list[tuple[bytes, bytes]], bytes]
Refusal = Callable[[Scope, int], Response]

SPOOL_BYTES = 1024 * 1024  # request bodies above this go to a temporary file


class _Disconnected(Exception):
    pass


class _TooLarge(Exception):
    pass


def _plain_refusal(scope: Scope, status: int) -> Response:
    return status, [(b"content-type", b"text/plain; charset=utf-8")], b"Request body too large"


def _declared_length(scope: Scope) -> int | None:
    for name, value in scope.get("headers", []):
        if name.lower() == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None  # the server refuses a malformed length before it reaches us
    return None


async def _read_body(receive: Receive, limit: int | None = None) -> IO[bytes]:
    body = tempfile.SpooledTemporaryFile(max_size=SPOOL_BYTES)  # noqa: SIM115  # returned
    size = 0
    try:
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                raise _Disconnected
            chunk = message.get("body", b"")
            size += len(chunk)
            if limit is not None and size > limit:
                raise _TooLarge
            body.write(chunk)
            if not message.get("more_body", False):
                break
    except BaseException:
        body.close()
        raise
    body.seek(0)
    return body  # type: ignore[return-value]


def environ_for(scope: Scope, body: IO[bytes]) -> dict[str, Any]:
    """The WSGI environ (PEP 3333) of an ASGI HTTP scope."""
    root = scope.get("root_path", "")
    path = scope["path"]
    if root and path.startswith(root):
        path = path[len(root) :]
    server = scope.get("server") or ("localhost", 80)
    environ: dict[str, Any] = {
        "REQUEST_METHOD": scope["method"],
        "SCRIPT_NAME": root.encode("utf8").decode("latin1"),
        "PATH_INFO": path.encode("utf8").decode("latin1"),
        "QUERY_STRING": scope.get("query_string", b"").decode("latin1"),
        "SERVER_PROTOCOL": f"HTTP/{scope.get('http_version', '1.1')}",
        "SERVER_NAME": str(server[0]),
        "SERVER_PORT": str(server[1] if server[1] is not None else 80),
        "wsgi.version": (1, 0),
        "wsgi.url_scheme": scope.get("scheme", "http"),
        "wsgi.input": body,
        "wsgi.errors": sys.stderr,
        "wsgi.multithread": True,
        "wsgi.multiprocess": True,
        "wsgi.run_once": False,
    }
    client = scope.get("client")
    if client:
        environ["REMOTE_ADDR"] = str(client[0])
        environ["REMOTE_PORT"] = str(client[1])
    for raw_name, raw_value in scope.get("headers", []):
        name = raw_name.decode("latin1").upper().replace("-", "_")
        value = raw_value.decode("latin1")
        key = name if name in ("CONTENT_TYPE", "CONTENT_LENGTH") else f"HTTP_{name}"
        if key in environ:  # a repeated header: one value, as PEP 3333 asks
            value = environ[key] + ("; " if key == "HTTP_COOKIE" else ",") + value
        environ[key] = value
    return environ


class _Call:
    """One WSGI call on a worker thread."""

    def __init__(self, app: WSGIApp, loop: asyncio.AbstractEventLoop, send: Send) -> None:
        self.app = app
        self.loop = loop
        self.send = send
        self.status = 500
        self.headers: list[tuple[bytes, bytes]] = []
        self.written: list[bytes] = []
        self.started = False  # the response head has gone to the client

    def start_response(
        self, status: str, headers: list[tuple[str, str]], exc_info: Any = None
    ) -> Callable[[bytes], None]:
        if exc_info is not None and self.started:
            raise exc_info[1].with_traceback(exc_info[2])
        self.status = int(status.split(" ", 1)[0])
        self.headers = [
            (name.strip().lower().encode("latin1"), value.strip().encode("latin1"))
            for name, value in headers
        ]
        return self.written.append

    def _send_now(self, message: Message) -> None:
        asyncio.run_coroutine_threadsafe(self.send(message), self.loop).result()

    def run(self, environ: dict[str, Any]) -> tuple[int, list[tuple[bytes, bytes]], bytes] | None:
        """The finished response (status, headers, body); None when it was streamed."""
        result = self.app(environ, self.start_response)
        try:
            if isinstance(result, (list, tuple)) or getattr(result, "streaming", True) is False:
                body = b"".join([*self.written, *result])
                return self.status, self.headers, body
            self._send_now(
                {"type": "http.response.start", "status": self.status, "headers": self.headers}
            )
            self.started = True
            for chunk in [*self.written, *result]:
                if chunk:
                    self._send_now({"type": "http.response.body", "body": chunk, "more_body": True})
            self._send_now({"type": "http.response.body", "body": b""})
            return None
        finally:
            close = getattr(result, "close", None)
            if close is not None:
                close()


class WSGIBridge:
    """An ASGI application serving `app` (WSGI) on `threads` worker threads.

    After `settle_after` requests the process's heap has settled (URL patterns, templates,
    translations and connections are loaded): the bridge then moves every object alive into
    the garbage collector's permanent generation (`gc.freeze`) once, so later full collections
    walk only what requests leave behind (measured: pauses of 80–120 ms every few seconds
    before, 15–50 ms after).
    """

    def __init__(
        self,
        app: WSGIApp,
        threads: int,
        settle_after: int = 500,
        *,
        max_body: int | None = None,
        refuse: Refusal = _plain_refusal,
        fast_paths: tuple[str, ...] = (),
        fast_threads: int = 4,
    ) -> None:
        self.app = app
        self.executor = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="http")
        self.fast_paths = fast_paths
        self.fast_executor = (
            ThreadPoolExecutor(max_workers=fast_threads, thread_name_prefix="http-fast")
            if fast_paths
            else self.executor
        )
        self.max_body = max_body
        self.refuse = refuse
        self.settle_after = settle_after
        self.served = 0

    def _executor_for(self, scope: Scope) -> ThreadPoolExecutor:
        path, root = scope["path"], scope.get("root_path", "")
        if root and path.startswith(root):
            path = path[len(root) :]
        return self.fast_executor if path.startswith(self.fast_paths) else self.executor

    async def _send_refusal(self, scope: Scope, send: Send, status: int) -> None:
        try:
            status, headers, content = self.refuse(scope, status)
        except Exception:
            log.exception("the refusal page failed; answering in plain text")
            status, headers, content = _plain_refusal(scope, status)
        # The rest of the body is never read: the connection cannot carry another request.
        headers = [(n, v) for n, v in headers if n not in (b"content-length", b"connection")]
        headers += [(b"content-length", str(len(content)).encode()), (b"connection", b"close")]
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": content})

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            raise ValueError(f"WSGIBridge serves HTTP only, not {scope['type']!r}")
        self.served += 1
        if self.served == self.settle_after:
            gc.collect()
            gc.freeze()
        declared = _declared_length(scope)
        if self.max_body is not None and declared is not None and declared > self.max_body:
            await self._send_refusal(scope, send, 413)
            return
        try:
            body = await _read_body(receive, self.max_body)
        except _Disconnected:
            return
        except _TooLarge:
            await self._send_refusal(scope, send, 413)
            return
        call = _Call(self.app, asyncio.get_running_loop(), send)
        try:
            response = await asyncio.get_running_loop().run_in_executor(
                self._executor_for(scope), call.run, environ_for(scope, body)
            )
        except Exception:
            log.exception("request failed outside the application's own error handling")
            if call.started:
                raise
            response = 500, [(b"content-type", b"text/plain; charset=utf-8")], b"Server error"
        finally:
            body.close()
        if response is None:
            return
        status, headers, content = response
        if not any(name == b"content-length" for name, _ in headers):
            headers = [*headers, (b"content-length", str(len(content)).encode())]
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": content})
