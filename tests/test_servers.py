"""Floor behind its two servers: gunicorn (config/wsgi.py) for HTTP and uvicorn (config/asgi.py)
for websockets, and for HTTP too in the embedded mode. Both answer /healthz before Django and
refuse a body over the cap (413, config/request_cap.py) before reading it."""

from __future__ import annotations

import asyncio
import io
import os
import socket
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from asgiref.testing import ApplicationCommunicator

ROOT = Path(__file__).resolve().parents[1]


def run(coro: Any) -> Any:
    """Run a coroutine on its own loop in its own thread (the browser tests keep a loop running
    on the main thread for the whole session)."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result(30)


def scope(method: str = "GET", path: str = "/", **extra: Any) -> dict[str, Any]:
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
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
        parts.append(message.get("body", b""))
        if not message.get("more_body"):
            break
    await comm.wait(5)
    return start, parts


class Unreadable(io.RawIOBase):
    """A request body that must never be read."""

    def read(self, size: int = -1) -> bytes:
        raise AssertionError("the body was read")

    readline = read  # type: ignore[assignment]


def wsgi_call(path: str, method: str = "GET", **environ: Any) -> tuple[str, dict, bytes]:
    """One request to config/wsgi.py's application, on a fresh thread as gunicorn serves it."""
    from config.wsgi import application

    base = {
        "REQUEST_METHOD": method,
        "SCRIPT_NAME": "",
        "PATH_INFO": path,
        "QUERY_STRING": "",
        "SERVER_NAME": "testserver",
        "SERVER_PORT": "80",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "HTTP_HOST": "testserver",
        "REMOTE_ADDR": "10.0.0.7",
        "wsgi.version": (1, 0),
        "wsgi.url_scheme": "http",
        "wsgi.input": io.BytesIO(b""),
        "wsgi.errors": sys.stderr,
        "wsgi.multithread": True,
        "wsgi.multiprocess": True,
        "wsgi.run_once": False,
        **environ,
    }
    got: dict[str, Any] = {}

    def start_response(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
        got["status"], got["headers"] = status, dict(headers)
        return lambda data: None

    def serve() -> bytes:
        result = application(base, start_response)
        try:
            return b"".join(result)
        finally:
            getattr(result, "close", lambda: None)()

    with ThreadPoolExecutor(1) as pool:
        body = pool.submit(serve).result(30)
    return got["status"], got["headers"], body


# --- the ASGI application (websockets; HTTP in the embedded mode) ---------------------------------


@pytest.mark.django_db(transaction=True)
def test_django_pages_are_served_by_the_asgi_application():
    from config.asgi import application

    plain = {"scheme": "http", "server": ("testserver", 80), "headers": [(b"host", b"testserver")]}
    start, parts = run(call(application, scope(path="/healthz", **plain)))
    assert start["status"] == 200
    assert b'"ok": true' in b"".join(parts)
    start, _ = run(call(application, scope(path="/no-such-page/", **plain)))
    assert start["status"] == 404


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


@pytest.mark.django_db(transaction=True)
def test_the_asgi_application_refuses_a_declared_body_over_the_cap_unread():
    from config.asgi import application
    from config.request_cap import request_body_cap

    cap = request_body_cap()
    assert cap is not None
    plain = {"scheme": "http", "server": ("testserver", 80)}
    too_big = [
        (b"host", b"testserver"),
        (b"content-length", str(cap + 1).encode()),
        (b"content-type", b"application/json"),
    ]

    async def refused(sc: dict[str, Any]) -> tuple[dict, bytes]:
        comm = ApplicationCommunicator(application, sc)
        # No body is sent: an application that tried to read it would wait here forever.
        start = await comm.receive_output(5)
        body = await comm.receive_output(5)
        await comm.wait(5)
        return start, body["body"]

    start, body = run(refused(scope("POST", path="/api/tournaments/", headers=too_big, **plain)))
    assert start["status"] == 413 and b"request_too_large" in body
    assert (b"connection", b"close") in start["headers"]
    page = [*too_big[:2], (b"accept", b"text/html"), (b"accept-language", b"de")]
    start, body = run(refused(scope("POST", path="/t/1/find/", headers=page, **plain)))
    assert start["status"] == 413 and b"<h1>" in body
    assert b"Zu viele Daten" in body  # the client's language


@pytest.mark.django_db(transaction=True)
def test_the_asgi_application_cuts_off_a_chunked_body_past_the_cap():
    from config.asgi import application
    from config.request_cap import request_body_cap

    cap = request_body_cap()
    assert cap is not None
    plain = {"scheme": "http", "server": ("testserver", 80)}
    json_ = [(b"host", b"testserver"), (b"content-type", b"application/json")]
    half = b" " * (cap // 2 + 1)
    start, parts = run(
        call(
            application,
            scope("POST", path="/api/tournaments/", headers=json_, **plain),
            half,
            half,
            half,
        )
    )
    assert start["status"] == 413 and b"request_too_large" in b"".join(parts)
    # Under the cap the body reaches the API (which wants a login).
    start, _ = run(
        call(
            application, scope("POST", path="/api/tournaments/", headers=json_, **plain), b"{", b"}"
        )
    )
    assert start["status"] in (401, 403)


# --- the WSGI application (gunicorn) --------------------------------------------------------------


def test_the_wsgi_application_answers_liveness_before_django():
    internal = {"HTTP_HOST": "172.30.76.5:8000", "SERVER_NAME": "172.30.76.5"}
    status, _, body = wsgi_call("/healthz", **internal)
    assert status.startswith("200") and body == b'{"ok": true}'
    status, _, _ = wsgi_call("/no-such-page/", **internal)
    assert status.startswith("400")


@pytest.mark.django_db(transaction=True)
def test_the_wsgi_application_refuses_a_body_over_the_cap_unread():
    from config.request_cap import request_body_cap

    cap = request_body_cap()
    assert cap is not None
    big = {"CONTENT_LENGTH": str(cap + 1), "wsgi.input": Unreadable()}
    status, _, body = wsgi_call("/api/tournaments/", "POST", CONTENT_TYPE="application/json", **big)
    assert status.startswith("413") and b"request_too_large" in body
    status, _, body = wsgi_call(
        "/t/1/find/", "POST", HTTP_ACCEPT="text/html", HTTP_ACCEPT_LANGUAGE="de", **big
    )
    assert status.startswith("413") and b"Zu viele Daten" in body


# --- the real servers ------------------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _raw(port: int, request: bytes, timeout: float = 5) -> bytes:
    """Send `request` (head only: no body follows) and read the answer until the server closes
    the connection or the head and a short body have come."""
    with socket.create_connection(("127.0.0.1", port), timeout) as s:
        s.sendall(request)
        data = b""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                chunk = s.recv(65536)
            except TimeoutError:
                break
            if not chunk:
                break
            data += chunk
            if b"\r\n\r\n" in data and data.rstrip().endswith((b"}", b"\r\n0")):
                break
        return data


@pytest.fixture
def server_env(tmp_path: Path) -> dict[str, str]:
    return {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "DJANGO_SETTINGS_MODULE": "config.settings.base",
        "DEBUG": "false",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'floor.sqlite3'}",
        "FLOOR_TICKER": "off",
        "ALLOWED_HOSTS": "floor.example.org",
        "LOG_LEVEL": "ERROR",
    }


def _serve(cmd: list[str], env: dict[str, str], port: int) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen(
        cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(proc.stderr.read().decode() if proc.stderr else "exited")
        try:
            # gunicorn listens before its worker has loaded Floor: wait for an answer.
            if _raw(port, b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n", 2).startswith(b"HTTP"):
                return proc
        except OSError:
            pass
        time.sleep(0.1)
    proc.kill()
    raise AssertionError("the server did not come up")


def _liveness_and_cap(port: int) -> None:
    live = _raw(port, b"GET /healthz HTTP/1.1\r\nHost: 10.1.2.3:8000\r\n\r\n")
    assert live.startswith(b"HTTP/1.1 200") and live.endswith(b'{"ok": true}')
    # 300 MB declared, none sent: the answer comes at once, without waiting for the body.
    head = (
        b"POST /api/tournaments/ HTTP/1.1\r\nHost: floor.example.org\r\n"
        b"Content-Type: application/json\r\nContent-Length: 314572800\r\n\r\n"
    )
    t0 = time.monotonic()
    refused = _raw(port, head)
    assert refused.startswith(b"HTTP/1.1 413"), refused[:200]
    assert b"request_too_large" in refused and time.monotonic() - t0 < 3


@pytest.mark.parametrize("server", ["gunicorn", "uvicorn"])
def test_both_servers_answer_liveness_and_refuse_a_big_body_unread(server, server_env):
    port = _free_port()
    if server == "gunicorn":
        env = {**server_env, "FLOOR_BIND": f"127.0.0.1:{port}", "WEB_CONCURRENCY": "1"}
        cmd = [sys.executable, "-m", "gunicorn", "-c", str(ROOT / "deploy" / "gunicorn.conf.py")]
    else:
        env = server_env
        cmd = [
            sys.executable, "-m", "uvicorn", "config.asgi:application", "--host", "127.0.0.1",
            "--port", str(port), "--lifespan", "off", "--no-proxy-headers", "--log-level", "error",
            "--ws", "websockets-sansio",
        ]  # fmt: skip
    proc = _serve(cmd, env, port)
    try:
        _liveness_and_cap(port)
    finally:
        proc.terminate()
        proc.wait(10)


def test_gunicorn_settings_serve_an_application_that_is_not_floor(server_env, tmp_path):
    """The settings' start-up hook warms Floor (config/warmup.py) only where Floor was loaded:
    another WSGI application under the same settings (a bench's bare baseline) still boots."""
    (tmp_path / "plain_app.py").write_text(
        "def app(environ, start_response):\n"
        "    start_response('200 OK', [('Content-Type', 'text/plain'), ('Content-Length', '5')])\n"
        "    return [b'plain']\n"
    )
    port = _free_port()
    env = {**server_env, "FLOOR_BIND": f"127.0.0.1:{port}", "WEB_CONCURRENCY": "1"}
    cmd = [
        sys.executable, "-m", "gunicorn", "-c", str(ROOT / "deploy" / "gunicorn.conf.py"),
        "--pythonpath", str(tmp_path), "plain_app:app",
    ]  # fmt: skip
    proc = _serve(cmd, env, port)
    try:
        answer = _raw(port, b"GET / HTTP/1.1\r\nHost: x\r\n\r\n", 2)
        assert answer.startswith(b"HTTP/1.1 200") and answer.endswith(b"plain"), answer
    finally:
        proc.terminate()
        proc.wait(10)


# --- the full stack's files ------------------------------------------------------------------------


def test_compose_sends_http_to_gunicorn_and_websockets_to_uvicorn():
    import yaml

    services = yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"]
    assert services["web"]["command"][:3] == ["gunicorn", "-c", "deploy/gunicorn.conf.py"]
    assert services["ws"]["command"][:2] == ["uvicorn", "config.asgi:application"]
    assert "--no-proxy-headers" in services["ws"]["command"]
    assert "websockets-sansio" in services["ws"]["command"]
    assert set(services["proxy"]["depends_on"]) == {"web", "ws"}
    proxy = services["proxy"]
    assert proxy["image"].startswith("nginx:")
    mounts = {volume.split(":")[1] for volume in proxy["volumes"]}
    assert "/etc/nginx/templates/floor.conf.template" in mounts
    assert "/etc/nginx/floor/locations.conf" in mounts
    template = (ROOT / "deploy" / "nginx" / "floor.conf.template").read_text()
    assert "server web:8000 resolve;" in template and "server ws:8000 resolve;" in template
    assert "include /etc/nginx/floor/locations.conf;" in template
    # How nginx itself routes, forwards and caps: tests/test_proxy.py.
