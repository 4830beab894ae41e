"""Who the client is (tournament/ratelimit.py client_address): X-Forwarded-For counts only when
the TCP peer is a trusted proxy (FLOOR_TRUSTED_PROXIES), read from the right."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache
from django.core.exceptions import ImproperlyConfigured
from django.test import RequestFactory

from config.env import env_networks
from tournament.events import Actor
from tournament.ratelimit import allow, client_address

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
