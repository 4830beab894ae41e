"""Floor behind its two servers: granian (config/wsgi.py) for HTTP and uvicorn (config/asgi.py)
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
    """One request to config/wsgi.py's application, on a fresh thread as granian serves it."""
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


# --- the WSGI application (granian) ---------------------------------------------------------------


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
            # The server may listen before its worker has loaded Floor: wait for an answer.
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


@pytest.mark.parametrize("server", ["granian", "uvicorn"])
def test_both_servers_answer_liveness_and_refuse_a_big_body_unread(server, server_env):
    port = _free_port()
    if server == "granian":
        from bench._stack import web_command

        env, cmd = server_env, web_command(port)  # the `web` service's own command
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


def test_the_wsgi_server_keeps_a_connection_for_the_next_request(server_env):
    """The proxy sends one request after another over the same connection to `web`."""
    from bench._stack import web_command

    port = _free_port()
    proc = _serve(web_command(port), server_env, port)
    try:
        with socket.create_connection(("127.0.0.1", port), 5) as s:
            for _ in range(3):
                s.sendall(b"GET /healthz HTTP/1.1\r\nHost: 10.1.2.3:8000\r\n\r\n")
                answer = b""
                while not answer.endswith(b'{"ok": true}'):
                    chunk = s.recv(65536)
                    assert chunk, "the server closed the connection"
                    answer += chunk
                assert answer.startswith(b"HTTP/1.1 200")
    finally:
        proc.terminate()
        proc.wait(10)


def test_the_server_readies_each_process_before_its_first_request():
    """granian loads `config.wsgi:serve` in each worker: the URL resolver and the templates are
    loaded (config/warmup.py) and the heap so far is frozen out of the collector's reach."""
    import gc

    from django.template import engines
    from django.urls import clear_url_caches, get_resolver

    import config.wsgi

    clear_url_caches()
    loader = engines["django"].engine.template_loaders[0]
    loader.reset()
    try:
        assert config.wsgi.serve() is config.wsgi.application
        assert get_resolver()._populated
        assert {"base.html", "tournament/cage.html"} <= set(loader.get_template_cache)
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()


def test_the_benches_run_the_deployed_command():
    from bench._stack import web_command

    floor = web_command(8123, workers=2, threads=3)
    assert floor[1:3] == ["-m", "granian"] and floor[-1] == "config.wsgi:serve"
    assert {"--factory", "--host=127.0.0.1", "--port=8123", "--workers=2"} <= set(floor)
    assert "--blocking-threads=3" in floor and "--interface=wsgi" in floor
    # A baseline application is a plain one, not Floor's factory.
    bare = web_command(8123, app="bench._stack:bare_wsgi")
    assert "--factory" not in bare and bare[-1] == "bench._stack:bare_wsgi"


# --- the full stack's files ------------------------------------------------------------------------


def test_compose_sends_http_to_granian_and_websockets_to_uvicorn():
    import yaml

    services = yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"]
    web = services["web"]["command"]
    assert web[0] == "granian" and web[-1] == "config.wsgi:serve"
    assert {"--interface=wsgi", "--factory", "--host=0.0.0.0", "--port=8000"} <= set(web)
    assert "--workers=${WEB_CONCURRENCY:-1}" in web
    assert "--blocking-threads=${FLOOR_HTTP_THREADS:-4}" in web
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


def _option(command: list[str], name: str) -> str:
    return next(arg.split("=", 1)[1] for arg in command if arg.startswith(name + "="))


def test_the_image_serves_what_compose_runs():
    """The image's own command is the `web` service's with the defaults filled in."""
    import json
    import re

    import yaml

    web = yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"]["web"]["command"]
    cmd_line = next(
        line for line in (ROOT / "Dockerfile").read_text().splitlines() if line.startswith("CMD ")
    )
    defaults = [re.sub(r"\$\{[A-Z_]+:-([^}]*)\}", r"\1", arg) for arg in web]
    assert json.loads(cmd_line[4:]) == defaults


def test_the_proxy_lets_an_idle_connection_go_before_the_wsgi_server_does():
    """nginx must never send a request on a kept-alive connection that granian is closing:
    its idle upstream connections are dropped before granian's own timeout."""
    import re

    import yaml

    web = yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"]["web"]["command"]
    server_s = int(_option(web, "--http1-header-read-timeout")) / 1000
    from bench._stack import nginx_conf

    confs = {
        "compose": (ROOT / "deploy" / "nginx" / "floor.conf.template").read_text(),
        "benches": nginx_conf("/tmp/x", 8000, [8001], [8002]),
    }
    for name, conf in confs.items():
        upstream = conf[conf.index("upstream web") :]
        upstream = upstream[: upstream.index("}")]
        proxy_s = int(re.search(r"keepalive_timeout (\d+)s;", upstream).group(1))
        assert proxy_s + 5 <= server_s, name
