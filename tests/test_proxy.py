"""The full stack's reverse proxy (nginx, deploy/nginx/): the compose proxy's own configuration,
run on loopback in front of two small servers standing for `web` and `ws`. It must send
websockets to the one and everything else to the other, over HTTPS; redirect plain HTTP but
serve Let's Encrypt's challenges; tell Floor the address it saw, never one the client wrote;
and refuse a body over 2 MB itself."""

from __future__ import annotations

import http.client
import json
import os
import re
import shutil
import socket
import ssl
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bench._stack import free_port, nginx_binary, nginx_conf, nginx_main
from tests.services import require

ROOT = Path(__file__).resolve().parents[1]
DEPLOY = ROOT / "deploy" / "nginx"
SITE = "floor.example.org"

# Stands for granian and uvicorn: tells who answered and the headers it was sent.
ECHO_APP = """
import json, os

ROLE = os.environ["ROLE"]


async def app(scope, receive, send):
    headers = {k.decode(): v.decode() for k, v in scope["headers"]}
    said = json.dumps({"role": ROLE, "path": scope["path"], "headers": headers})
    if scope["type"] == "websocket":
        await receive()
        await send({"type": "websocket.accept"})
        await send({"type": "websocket.send", "text": said})
        await send({"type": "websocket.close", "code": 1000})
        return
    while (await receive()).get("more_body"):
        pass
    await send({"type": "http.response.start", "status": 200,
                "headers": [(b"content-type", b"application/json")]})
    await send({"type": "http.response.body", "body": said.encode()})
"""


def nginx_version(binary: str) -> tuple[int, ...]:
    out = subprocess.run([binary, "-v"], capture_output=True, text=True, check=False).stderr
    found = re.search(r"nginx/(\d+)\.(\d+)\.(\d+)", out)
    return tuple(int(x) for x in found.groups()) if found else (0, 0, 0)


def wait_port(port: int, proc: subprocess.Popen[bytes], timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(proc.stderr.read().decode() if proc.stderr else "exited")
        try:
            with socket.create_connection(("127.0.0.1", port), 1):
                return
        except OSError:
            time.sleep(0.05)
    raise AssertionError(f"nothing listens on {port}")


def render(binary: str, tmp: Path, acme: Path, ports: dict[str, int]) -> str:
    """The compose proxy's template as the nginx image would fill it in, with compose's
    addresses (service names, ports 80 and 443, the mounted files) replaced by local ones,
    inside a main configuration for loopback (bench/_stack.py nginx_main). The image is nginx
    1.28; directives newer than the machine's nginx (`http2 on` 1.25.1, `resolve` 1.27.3) are
    dropped before it reads the file."""
    text = (DEPLOY / "floor.conf.template").read_text().replace("${FLOOR_SITE}", SITE)
    assert "${" not in text, "only FLOOR_SITE is filled in by the image"
    replacements = {
        "server web:8000 resolve;": f"server 127.0.0.1:{ports['web']};",
        "server ws:8000 resolve;": f"server 127.0.0.1:{ports['ws']};",
        "listen 80 default_server;": f"listen 127.0.0.1:{ports['http']} default_server;",
        "listen 443 ssl default_server;": f"listen 127.0.0.1:{ports['https']} ssl default_server;",
        "/etc/nginx/tls/": f"{tmp}/tls/",
        "/etc/nginx/floor/locations.conf": str(DEPLOY / "locations.conf"),
        "root /var/www/acme;": f"root {acme};",
    }
    for old, new in replacements.items():
        assert old in text, old
        text = text.replace(old, new)
    if nginx_version(binary) < (1, 25, 1):
        text = text.replace("    http2 on;\n", "")
    return nginx_main(str(tmp), text)


@pytest.fixture
def proxy(tmp_path: Path) -> Iterator[dict[str, Any]]:
    binary = nginx_binary()
    require(binary is not None, "nginx (Debian package nginx-light)")
    assert binary is not None
    (tmp_path / "tls").mkdir()
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
         "-subj", f"/CN={SITE}", "-keyout", str(tmp_path / "tls" / "privkey.pem"),
         "-out", str(tmp_path / "tls" / "fullchain.pem")],
        check=True, capture_output=True,
    )  # fmt: skip
    # nginx's workers drop root's rights: the challenges lie where anyone may read them, as in
    # the image's volume (pytest's own directories are the user's alone).
    acme = Path(tempfile.mkdtemp(prefix="floor-acme-"))
    acme.chmod(0o755)
    challenge = acme / ".well-known" / "acme-challenge"
    challenge.mkdir(parents=True, mode=0o755)
    (challenge / "token-1").write_text("token-1.proof")
    (challenge / "token-1").chmod(0o644)
    (tmp_path / "echo.py").write_text(ECHO_APP)
    ports = {name: free_port() for name in ("web", "ws", "http", "https")}
    procs: list[subprocess.Popen[bytes]] = []
    try:
        for role in ("web", "ws"):
            cmd = [
                sys.executable, "-m", "uvicorn", "--app-dir", str(tmp_path), "echo:app",
                "--host", "127.0.0.1", "--port", str(ports[role]), "--lifespan", "off",
                "--log-level", "warning", "--no-proxy-headers",
            ]  # fmt: skip
            procs.append(
                subprocess.Popen(cmd, env={**os.environ, "ROLE": role}, stderr=subprocess.PIPE)
            )
            wait_port(ports[role], procs[-1])
        conf = tmp_path / "nginx.conf"
        conf.write_text(render(binary, tmp_path, acme, ports))
        checked = subprocess.run(
            [binary, "-t", "-c", str(conf), "-p", str(tmp_path)], capture_output=True, text=True
        )
        assert checked.returncode == 0, checked.stderr
        procs.append(
            subprocess.Popen([binary, "-c", str(conf), "-p", str(tmp_path)], stderr=subprocess.PIPE)
        )
        wait_port(ports["https"], procs[-1])
        yield ports
    finally:
        for proc in reversed(procs):
            proc.terminate()
        for proc in procs:
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
        shutil.rmtree(acme, ignore_errors=True)


def https(port: int) -> http.client.HTTPSConnection:
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    return http.client.HTTPSConnection("127.0.0.1", port, timeout=10, context=context)


def test_pages_go_to_the_wsgi_servers_with_the_address_nginx_saw(proxy):
    conn = https(proxy["https"])
    # A client that claims to be someone else: Floor must not believe it.
    conn.request("GET", "/t/1/seat/?q=7", headers={"Host": SITE, "X-Forwarded-For": "6.6.6.6"})
    answer = conn.getresponse()
    said = json.loads(answer.read())
    assert answer.status == 200
    assert said["role"] == "web" and said["path"] == "/t/1/seat/"
    assert said["headers"]["x-forwarded-for"] == "127.0.0.1"
    assert said["headers"]["x-forwarded-proto"] == "https"
    assert said["headers"]["host"] == SITE
    assert answer.getheader("Server") == "nginx"  # no version (server_tokens off)


def test_websockets_go_to_the_asgi_servers(proxy):
    from websockets.sync.client import connect

    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    uri = f"wss://127.0.0.1:{proxy['https']}/ws/t/1/"
    with connect(uri, ssl=context, additional_headers={"X-Forwarded-For": "6.6.6.6"}) as ws:
        said = json.loads(ws.recv(timeout=10))
    assert said["role"] == "ws" and said["path"] == "/ws/t/1/"
    assert said["headers"]["x-forwarded-for"] == "127.0.0.1"
    assert said["headers"]["x-forwarded-proto"] == "https"


def test_plain_http_is_sent_to_https_except_certificate_challenges(proxy):
    conn = http.client.HTTPConnection("127.0.0.1", proxy["http"], timeout=10)
    conn.request("GET", "/t/1/?x=1", headers={"Host": SITE})
    answer = conn.getresponse()
    answer.read()
    assert answer.status == 301
    assert answer.getheader("Location") == f"https://{SITE}/t/1/?x=1"
    conn.request("GET", "/.well-known/acme-challenge/token-1", headers={"Host": SITE})
    answer = conn.getresponse()
    assert answer.status == 200 and answer.read() == b"token-1.proof"


def test_a_body_over_two_megabytes_is_refused_by_the_proxy(proxy):
    conn = https(proxy["https"])
    conn.putrequest("POST", "/api/tournaments/", skip_host=True)
    conn.putheader("Host", SITE)
    conn.putheader("Content-Length", str(3 * 1024 * 1024))
    conn.endheaders()
    answer = conn.getresponse()
    body = answer.read()
    assert answer.status == 413
    assert b'"role"' not in body  # nginx answered; the server behind it never saw the request


def test_the_benches_proxy_uses_the_deployed_routes(tmp_path):
    """bench/_stack.py runs nginx with the same locations.conf on plain HTTP."""
    binary = nginx_binary()
    require(binary is not None, "nginx (Debian package nginx-light)")
    assert binary is not None
    conf = tmp_path / "nginx.conf"
    conf.write_text(nginx_conf(str(tmp_path), free_port(), [free_port()], []))
    assert str(DEPLOY / "locations.conf") in conf.read_text()
    checked = subprocess.run(
        [binary, "-t", "-c", str(conf), "-p", str(tmp_path)], capture_output=True, text=True
    )
    assert checked.returncode == 0, checked.stderr
