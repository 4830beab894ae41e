"""The bridge that serves Django's HTTP from the ASGI processes (config/wsgi_bridge.py)."""

from __future__ import annotations

import asyncio
import io
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from asgiref.testing import ApplicationCommunicator

from config.wsgi_bridge import SPOOL_BYTES, WSGIBridge, environ_for


def run(coro: Any) -> Any:
    """Run a coroutine on its own loop in its own thread (the browser tests keep a loop running
    on the main thread for the whole session)."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result(30)


def scope(method: str = "GET", path: str = "/", **extra: Any) -> dict[str, Any]:
    return {
        "type": "http",
        "http_version": "1.1",
        "method": method,
        "scheme": "https",
        "path": path,
        "root_path": "",
        "query_string": b"",
        "headers": [],
        "client": ("10.0.0.7", 51000),
        "server": ("floor.example.org", 443),
        **extra,
    }


async def call(app: Any, sc: dict[str, Any], *bodies: bytes) -> tuple[dict, list[bytes]]:
    comm = ApplicationCommunicator(app, sc)
    chunks = bodies or (b"",)
    for i, chunk in enumerate(chunks):
        await comm.send_input(
            {"type": "http.request", "body": chunk, "more_body": i < len(chunks) - 1}
        )
    start = await comm.receive_output(5)
    parts = []
    while True:
        message = await comm.receive_output(5)
        parts.append(message["body"])
        if not message.get("more_body"):
            break
    await comm.wait(5)
    return start, parts


def test_environ_follows_pep_3333():
    environ = environ_for(
        scope(
            "POST",
            "/floor/t/1/find/Zoë",
            root_path="/floor",
            query_string=b"q=42&x=%C3%A9",
            headers=[
                (b"content-type", b"application/json"),
                (b"content-length", b"2"),
                (b"x-forwarded-for", b"1.2.3.4"),
                (b"cookie", b"a=1"),
                (b"cookie", b"b=2"),
                (b"accept", b"text/html"),
                (b"accept", b"*/*"),
            ],
        ),
        io.BytesIO(b"{}"),
    )
    assert environ["REQUEST_METHOD"] == "POST"
    assert environ["SCRIPT_NAME"] == "/floor"
    assert environ["PATH_INFO"] == "/t/1/find/Zoë".encode().decode("latin1")
    assert environ["QUERY_STRING"] == "q=42&x=%C3%A9"
    assert environ["CONTENT_TYPE"] == "application/json" and environ["CONTENT_LENGTH"] == "2"
    assert "HTTP_CONTENT_TYPE" not in environ
    assert environ["HTTP_X_FORWARDED_FOR"] == "1.2.3.4"
    assert environ["HTTP_COOKIE"] == "a=1; b=2"
    assert environ["HTTP_ACCEPT"] == "text/html,*/*"
    assert environ["REMOTE_ADDR"] == "10.0.0.7" and environ["SERVER_PORT"] == "443"
    assert environ["wsgi.url_scheme"] == "https" and environ["wsgi.multithread"] is True


def test_a_request_body_in_pieces_reaches_the_app_and_the_answer_comes_back():
    def echo(environ: dict, start_response: Any) -> list[bytes]:
        data = environ["wsgi.input"].read()
        start_response("201 Created", [("Content-Type", "text/plain"), ("X-Seen", str(len(data)))])
        return [b"got:", data]

    start, parts = run(call(WSGIBridge(echo, 2), scope("POST"), b"ab", b"cd", b"ef"))
    assert start["status"] == 201
    headers = dict(start["headers"])
    assert headers[b"x-seen"] == b"6" and headers[b"content-length"] == b"10"
    assert b"".join(parts) == b"got:abcdef"


def test_a_large_body_is_spooled_and_read_whole():
    big = b"x" * (SPOOL_BYTES + 10)

    def size(environ: dict, start_response: Any) -> list[bytes]:
        start_response("200 OK", [])
        return [str(len(environ["wsgi.input"].read())).encode()]

    _, parts = run(call(WSGIBridge(size, 1), scope("POST"), big[:1000], big[1000:]))
    assert b"".join(parts) == str(len(big)).encode()


def test_a_streaming_answer_is_sent_piece_by_piece_and_closed():
    closed = []

    class Stream:
        def __iter__(self):
            yield b"one,"
            yield b"two"

        def close(self) -> None:
            closed.append(True)

    def app(environ: dict, start_response: Any) -> Stream:
        start_response("200 OK", [("Content-Type", "text/csv")])
        return Stream()

    start, parts = run(call(WSGIBridge(app, 1), scope()))
    assert start["status"] == 200
    assert parts[:2] == [b"one,", b"two"] and parts[-1] == b""
    assert closed == [True]


def test_an_app_that_crashes_gives_a_500_not_a_hang():
    def broken(environ: dict, start_response: Any) -> list[bytes]:
        raise RuntimeError("boom")

    start, parts = run(call(WSGIBridge(broken, 1), scope()))
    assert start["status"] == 500 and b"".join(parts) == b"Server error"


def test_a_client_gone_before_its_body_arrived_never_reaches_the_app():
    seen = []

    def app(environ: dict, start_response: Any) -> list[bytes]:
        seen.append(environ)
        start_response("200 OK", [])
        return [b""]

    async def gone() -> None:
        comm = ApplicationCommunicator(WSGIBridge(app, 1), scope("POST"))
        await comm.send_input({"type": "http.request", "body": b"part", "more_body": True})
        await comm.send_input({"type": "http.disconnect"})
        await comm.wait(5)

    run(gone())
    assert seen == []


@pytest.mark.django_db(transaction=True)
def test_django_pages_are_served_through_the_bridge():
    from config.asgi import application

    plain = {"scheme": "http", "server": ("testserver", 80)}
    start, parts = run(call(application, scope(path="/healthz", **plain)))
    assert start["status"] == 200
    assert b'"ok": true' in b"".join(parts)
    start, _ = run(call(application, scope(path="/no-such-page/", **plain)))
    assert start["status"] == 404


def test_the_heap_is_frozen_once_the_first_requests_have_settled_it():
    import gc

    def app(environ: dict, start_response: Any) -> list[bytes]:
        start_response("200 OK", [])
        return [b"ok"]

    bridge = WSGIBridge(app, 1, settle_after=3)
    gc.unfreeze()
    try:
        for _ in range(2):
            run(call(bridge, scope()))
        assert gc.get_freeze_count() == 0
        run(call(bridge, scope()))
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()


def _never_called(seen: list[dict]) -> Any:
    def app(environ: dict, start_response: Any) -> list[bytes]:
        seen.append(environ)
        start_response("200 OK", [])
        return [b"ok"]

    return app


def test_a_declared_body_over_the_cap_is_refused_before_a_byte_is_read():
    seen: list[dict] = []
    bridge = WSGIBridge(_never_called(seen), 1, max_body=1000)
    big = scope("POST", headers=[(b"content-length", str(300 * 1024 * 1024).encode())])

    async def refused() -> dict:
        comm = ApplicationCommunicator(bridge, big)
        # No body is sent: a bridge that tried to read it would wait here forever.
        start = await comm.receive_output(5)
        await comm.receive_output(5)
        await comm.wait(5)
        return start

    start = run(refused())
    assert start["status"] == 413
    assert (b"connection", b"close") in start["headers"]
    assert seen == []


def test_a_chunked_body_is_cut_off_when_it_passes_the_cap():
    seen: list[dict] = []
    bridge = WSGIBridge(_never_called(seen), 1, max_body=1000)
    start, _ = run(call(bridge, scope("POST"), b"x" * 600, b"x" * 600, b"x" * 600))
    assert start["status"] == 413 and seen == []
    start, _ = run(call(bridge, scope("POST"), b"x" * 600, b"x" * 400))
    assert start["status"] == 200 and len(seen) == 1


def test_static_files_are_served_while_every_http_thread_waits():
    import threading

    entered, release = threading.Event(), threading.Event()

    def app(environ: dict, start_response: Any) -> list[bytes]:
        if environ["PATH_INFO"] == "/console/":
            entered.set()
            release.wait(30)  # a request stuck behind the database
        start_response("200 OK", [])
        return [environ["PATH_INFO"].encode()]

    bridge = WSGIBridge(app, 1, fast_paths=("/static/",))

    async def scenario() -> list[bytes]:
        stuck = asyncio.ensure_future(call(bridge, scope(path="/console/")))
        assert await asyncio.get_running_loop().run_in_executor(None, entered.wait, 10)
        _, parts = await call(bridge, scope(path="/static/floor/floor.css"))
        release.set()
        _, stuck_parts = await stuck
        return [b"".join(parts), b"".join(stuck_parts)]

    try:
        assert run(scenario()) == [b"/static/floor/floor.css", b"/console/"]
    finally:
        release.set()


@pytest.mark.django_db(transaction=True)
def test_floor_refuses_a_body_over_its_cap_with_413_in_the_clients_terms():
    from config.asgi import application, request_body_cap

    cap = request_body_cap()
    assert cap is not None
    plain = {"scheme": "http", "server": ("testserver", 80)}
    too_big = [(b"content-length", str(cap + 1).encode()), (b"content-type", b"application/json")]
    start, parts = run(
        call(application, scope("POST", path="/api/tournaments/", headers=too_big, **plain))
    )
    assert start["status"] == 413 and b"request_too_large" in b"".join(parts)
    page = [(b"content-length", str(cap + 1).encode()), (b"accept", b"text/html")]
    start, parts = run(call(application, scope("POST", path="/t/1/find/", headers=page, **plain)))
    assert start["status"] == 413 and b"<h1>" in b"".join(parts)


def test_liveness_is_answered_before_django_for_a_probe_on_the_internal_network():
    from config.asgi import application

    # The compose health check and the proxy's probe use the container's address as host,
    # over plain HTTP: Django would refuse the host (or redirect to HTTPS in production).
    probe = {"scheme": "http", "server": ("172.30.76.5", 8000)}
    internal = [(b"host", b"172.30.76.5:8000")]
    start, parts = run(call(application, scope(path="/healthz", headers=internal, **probe)))
    assert start["status"] == 200 and b"".join(parts) == b'{"ok": true}'
    start, _ = run(call(application, scope(path="/no-such-page/", headers=internal, **probe)))
    assert start["status"] == 400
