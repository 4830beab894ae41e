"""Who the client is (core/ratelimit.py client_address): X-Forwarded-For counts only when
the TCP peer is a trusted proxy (FLOOR_TRUSTED_PROXIES), read from the right."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache
from django.core.exceptions import ImproperlyConfigured
from django.test import RequestFactory

from config.env import env_networks
from core.ratelimit import allow, client_address
from tournament.events import Actor

PROXIES = ["172.18.0.0/16", "10.1.2.3", "fd00::/8"]


def request(peer: str, forwarded: str | None = None) -> Any:
    if forwarded is None:
        return RequestFactory().get("/t/1/find/", REMOTE_ADDR=peer)
    return RequestFactory().get("/t/1/find/", REMOTE_ADDR=peer, HTTP_X_FORWARDED_FOR=forwarded)


def test_a_forged_header_from_an_untrusted_peer_is_ignored(settings):
    settings.FLOOR_TRUSTED_PROXIES = PROXIES
    assert client_address(request("203.0.113.9", "1.2.3.4")) == "203.0.113.9"
    settings.FLOOR_TRUSTED_PROXIES = []
    assert client_address(request("172.18.0.5", "1.2.3.4")) == "172.18.0.5"


def test_the_header_counts_from_a_trusted_proxy_read_from_the_right(settings):
    settings.FLOOR_TRUSTED_PROXIES = PROXIES
    # The client prepended a forged hop; the proxy appended what it saw.
    assert client_address(request("172.18.0.5", "6.6.6.6, 198.51.100.7")) == "198.51.100.7"
    # Two proxies in a row (a load balancer, then the compose proxy): both skipped.
    assert client_address(request("172.18.0.5", "6.6.6.6, 198.51.100.7, 10.1.2.3")) == (
        "198.51.100.7"
    )
    # Every hop a trusted proxy: the farthest is the client. No header: the peer.
    assert client_address(request("172.18.0.5", "10.1.2.3")) == "10.1.2.3"
    assert client_address(request("172.18.0.5")) == "172.18.0.5"
    # IPv6, and an IPv4 peer seen on a dual-stack socket.
    assert client_address(request("fd00::1", "2001:db8::7")) == "2001:db8::7"
    assert client_address(request("::ffff:172.18.0.5", "198.51.100.7")) == "198.51.100.7"
    # Something unreadable where a proxy's entry should be: no better than the proxy.
    assert client_address(request("172.18.0.5", "1.2.3.4, bogus")) == "172.18.0.5"


def test_rate_limit_keys_follow_the_client_address(settings):
    settings.FLOOR_TRUSTED_PROXIES = PROXIES
    cache.clear()
    # One untrusted client forging a new address on every try shares one bucket.
    assert allow(request("203.0.113.9", "1.1.1.1"), "proxytest", limit=1)
    assert not allow(request("203.0.113.9", "2.2.2.2"), "proxytest", limit=1)
    # Behind the proxy, two clients have a bucket each.
    assert allow(request("172.18.0.5", "198.51.100.7"), "proxytest", limit=1)
    assert allow(request("172.18.0.5", "198.51.100.8"), "proxytest", limit=1)
    assert not allow(request("172.18.0.5", "9.9.9.9, 198.51.100.8"), "proxytest", limit=1)
    cache.clear()


def test_the_event_log_records_the_client_not_a_forged_header(settings):
    from django.contrib.auth.models import AnonymousUser

    settings.FLOOR_TRUSTED_PROXIES = PROXIES
    forged = request("203.0.113.9", "1.2.3.4")
    forged.user = AnonymousUser()
    assert Actor.from_request(forged).source == "203.0.113.9"
    proxied = request("172.18.0.5", "1.2.3.4, 198.51.100.7")
    proxied.user = AnonymousUser()
    assert Actor.from_request(proxied).source == "198.51.100.7"


def test_the_setting_takes_addresses_and_networks_and_refuses_a_count(monkeypatch):
    monkeypatch.setenv("FLOOR_TRUSTED_PROXIES", "172.18.0.0/16, 10.1.2.3,fd00::/8")
    assert env_networks("FLOOR_TRUSTED_PROXIES") == PROXIES
    monkeypatch.setenv("FLOOR_TRUSTED_PROXIES", "")
    assert env_networks("FLOOR_TRUSTED_PROXIES") == []
    for bad in ("1", "proxy.example.org", "10.0.0.0/33"):
        monkeypatch.setenv("FLOOR_TRUSTED_PROXIES", bad)
        with pytest.raises(ImproperlyConfigured):
            env_networks("FLOOR_TRUSTED_PROXIES")


# --- the servers Floor starts -------------------------------------------------------------------


@pytest.fixture
def embedded_server(transactional_db: Any) -> Any:
    """`manage.py floor_serve` (what `floor.py run` starts) on a free loopback port, on the
    PostgreSQL test database; yields its base URL."""
    import os
    import socket
    import subprocess
    import sys
    import time
    from pathlib import Path

    import requests
    from django.conf import settings

    db = settings.DATABASES["default"]
    if db["ENGINE"].endswith("sqlite3"):
        pytest.skip("The server shares the PostgreSQL test database (SQLite's is in memory).")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.base",
        "DEBUG": "false",
        "DATABASE_URL": (
            f"postgres://{db['USER']}:{db.get('PASSWORD') or ''}@{db.get('HOST') or '127.0.0.1'}"
            f":{db.get('PORT') or 5432}/{db['NAME']}"
        ),
        "REDIS_URL": "",  # embedded: the in-memory cache holds the rate limits
        "FLOOR_TICKER": "off",
        "FLOOR_TRUSTED_PROXIES": "",  # the default: nobody's forwarded header counts
        "ALLOWED_HOSTS": "127.0.0.1",
        "LOG_LEVEL": "WARNING",
    }
    root = Path(__file__).resolve().parents[1]
    proc = subprocess.Popen(
        [sys.executable, "manage.py", "floor_serve", "--port", str(port)],
        cwd=root,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            if proc.poll() is not None:
                raise AssertionError(proc.stderr.read().decode() if proc.stderr else "exited")
            try:
                if requests.get(f"{base}/healthz", timeout=2).status_code == 200:
                    break
            except requests.RequestException:
                pass
            if time.monotonic() > deadline:
                raise AssertionError("floor_serve did not come up")
            time.sleep(0.1)
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)


@pytest.mark.postgres
def test_the_embedded_server_ignores_a_forwarded_header_it_was_not_told_to_trust(
    embedded_server, make_tournament, director
):
    """A client on the laptop itself (127.0.0.1, uvicorn's default "trusted" address) sends a
    new X-Forwarded-For with every request: the look-up limit still holds, and the event log
    says the action came from 127.0.0.1."""
    import requests
    from django.test import override_settings

    from tournament.models import Event
    from tournament.public_views import LOOKUPS_PER_MINUTE

    t = make_tournament(status="registering")
    answered = limited = 0
    for i in range(LOOKUPS_PER_MINUTE + 5):
        forged = {"X-Forwarded-For": f"198.51.100.{i + 1}"}
        page = requests.get(
            f"{embedded_server}/t/{t.pk}/find/", params={"q": "1"}, headers=forged, timeout=10
        )
        assert page.status_code in (200, 404), page.status_code
        if "Too many look-ups" in page.text:
            limited += 1
        else:
            answered += 1
    assert answered <= LOOKUPS_PER_MINUTE and limited >= 5, (answered, limited)

    # The server checks passwords with the deployed hasher, not the tests' fast one.
    with override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.PBKDF2PasswordHasher"]):
        director.set_password("pw-director-123")
        director.save(update_fields=["password"])
    forged = {"X-Forwarded-For": "203.0.113.66"}
    desk = requests.Session()
    desk.headers.update(forged)
    desk.get(f"{embedded_server}/login/", timeout=10)
    login = {"username": "dir", "password": "pw-director-123"}
    desk.post(
        f"{embedded_server}/login/",
        data={**login, "csrfmiddlewaretoken": desk.cookies["csrftoken"]},
        timeout=10,
    )
    clock_page = desk.get(f"{embedded_server}/console/t/{t.pk}/clock/", timeout=10)
    assert clock_page.url.endswith("/clock/"), clock_page.url  # logged in
    done = desk.post(
        f"{embedded_server}/console/t/{t.pk}/clock/start",
        data={"csrfmiddlewaretoken": desk.cookies["csrftoken"]},
        timeout=10,
    )
    assert done.status_code == 200
    sources = set(
        Event.objects.filter(tournament=t).exclude(source="").values_list("source", flat=True)
    )
    assert sources == {"127.0.0.1"}, sources


def test_every_uvicorn_floor_starts_leaves_forwarded_headers_to_floor(monkeypatch):
    """uvicorn rewrites the client's address from X-Forwarded-For sent from 127.0.0.1 unless
    told not to: the compose service and the benches' servers say --no-proxy-headers (granian has
    no such option and leaves the headers alone; floor_serve is tested running, above)."""
    import subprocess
    from pathlib import Path

    import yaml

    from bench import _stack

    compose = yaml.safe_load(
        (Path(__file__).resolve().parents[1] / "docker-compose.yml").read_text()
    )
    ws = compose["services"]["ws"]["command"]
    assert ws[0] == "uvicorn" and "--no-proxy-headers" in ws
    started: list[list[str]] = []
    monkeypatch.setattr(subprocess, "Popen", lambda cmd, **kw: started.append(cmd))
    _stack.start_asgi(1, {})
    _stack.start_asgi(1, {}, workers=2)
    assert started and all("--no-proxy-headers" in cmd for cmd in started)
    assert not any("proxy" in arg or "forward" in arg for arg in _stack.web_command(1))


def test_the_kept_answer_follows_the_trusted_proxies(settings):
    """client_address keeps its answer per process for the headers and the trusted proxies
    together: the same headers read under other proxies give the other answer, and a header
    too long to keep is read the same way."""
    settings.FLOOR_TRUSTED_PROXIES = PROXIES
    assert client_address(request("172.18.0.5", "198.51.100.7")) == "198.51.100.7"
    settings.FLOOR_TRUSTED_PROXIES = []
    assert client_address(request("172.18.0.5", "198.51.100.7")) == "172.18.0.5"
    settings.FLOOR_TRUSTED_PROXIES = PROXIES
    assert client_address(request("172.18.0.5", "198.51.100.7")) == "198.51.100.7"
    long = ", ".join(["6.6.6.6"] * 40 + ["198.51.100.8"])
    assert len(long) > 200
    assert client_address(request("172.18.0.5", long)) == "198.51.100.8"
